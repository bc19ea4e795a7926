package io.dpaudit.runner.analysis;

import java.util.List;

/**
 * A trade-off function drawn in the report's trade-off plane: a claimed {@code f}, the exact curve of the simulated
 * pair, or the GDP curve of the audit's certified lower bound.
 *
 * @param name what the curve is
 * @param role {@code claim}, {@code exact} or {@code gdp-lower-bound}
 * @param alpha abscissae, ascending
 * @param beta {@code f(alpha)}
 */
public record TradeOffCurve(String name, String role, List<Double> alpha, List<Double> beta) {
    /** The abscissae every curve is sampled at: 0, 25 log-spaced values in [1e-4, 0.05], 60 evenly in (0.05, 1]. */
    public static final List<Double> GRID = grid();

    public TradeOffCurve {
        alpha = List.copyOf(alpha);
        beta = List.copyOf(beta);
    }

    private static List<Double> grid() {
        java.util.ArrayList<Double> g = new java.util.ArrayList<>();
        g.add(0.0);
        for (int i = 0; i < 25; i++) {
            g.add(1e-4 * Math.pow(500, i / 24.0));
        }
        for (int i = 1; i <= 60; i++) {
            g.add(0.05 + 0.95 * i / 60.0);
        }
        return List.copyOf(g);
    }
}

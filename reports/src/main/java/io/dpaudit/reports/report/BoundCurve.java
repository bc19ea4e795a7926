package io.dpaudit.reports.report;

import java.util.List;

/**
 * An analytic bound evaluated for a report.
 *
 * @param name the bound's identifier
 * @param source paper, theorem, equation
 * @param certified false for approximations (e.g. central-limit Gaussian DP), which are not upper bounds
 * @param points {@code (epsilon, delta(epsilon))} on a grid, ascending in ε
 * @param epsilonAtDeltas {@code (epsilon(delta), delta)} at the scenario's requested δ values
 */
public record BoundCurve(String name, String source, boolean certified, List<Point> points,
        List<Point> epsilonAtDeltas) {
    /**
     * One point of a privacy profile.
     *
     * @param epsilon ε
     * @param delta δ
     */
    public record Point(double epsilon, double delta) {
    }

    public BoundCurve {
        points = List.copyOf(points);
        epsilonAtDeltas = List.copyOf(epsilonAtDeltas);
    }
}

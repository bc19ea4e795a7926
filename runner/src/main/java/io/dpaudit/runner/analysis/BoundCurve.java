package io.dpaudit.runner.analysis;

import io.dpaudit.core.bounds.BoundKind;
import java.util.List;

/**
 * An analytic bound evaluated for a report.
 *
 * @param name the bound's identifier
 * @param source paper, theorem, equation
 * @param kind upper bound, approximation, exact profile of one pair, or known-wrong formula
 * @param points {@code (epsilon, delta(epsilon))} on a grid, ascending in ε
 * @param epsilonAtDeltas {@code (epsilon(delta), delta)} at the scenario's requested δ values
 * @param plotPoints the grid's points and more where the curve is steep on a log-δ axis ({@link ProfileSampling}),
 *     ascending in ε: what the plot draws and {@code curves.csv} holds
 */
public record BoundCurve(String name, String source, BoundKind kind, List<Point> points,
        List<Point> epsilonAtDeltas, List<Point> plotPoints) {
    /**
     * One point of a privacy profile.
     *
     * @param epsilon ε
     * @param delta δ
     */
    public record Point(double epsilon, double delta) {
    }

    /** Whether the curve is a certified upper bound on the mechanism's profile. */
    public boolean certified() {
        return kind == BoundKind.UPPER_BOUND;
    }

    /** A label suffix for reports: empty for upper bounds, the kind otherwise. */
    public String kindLabel() {
        return certified() ? "" : " (" + kind.description() + ")";
    }

    public BoundCurve {
        points = List.copyOf(points);
        epsilonAtDeltas = List.copyOf(epsilonAtDeltas);
        plotPoints = List.copyOf(plotPoints);
    }

    /** A curve drawn at its grid points only. */
    public BoundCurve(String name, String source, BoundKind kind, List<Point> points, List<Point> epsilonAtDeltas) {
        this(name, source, kind, points, epsilonAtDeltas, points);
    }
}

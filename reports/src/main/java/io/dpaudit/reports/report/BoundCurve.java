package io.dpaudit.reports.report;

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
 */
public record BoundCurve(String name, String source, BoundKind kind, List<Point> points,
        List<Point> epsilonAtDeltas) {
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
    }
}

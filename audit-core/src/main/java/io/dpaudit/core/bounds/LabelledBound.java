package io.dpaudit.core.bounds;

/**
 * A bound computed by another (typically an accountant) but presented under its own name, source and kind: for
 * example the PLD of an exact pair, which is a {@link BoundKind#PAIR_PROFILE}, not a certified upper bound.
 *
 * @param name the name reports use
 * @param kind what the curve is
 * @param values the bound whose {@code delta} and {@code epsilon} are reported
 * @param source what it is and where it comes from
 */
public record LabelledBound(String name, BoundKind kind, PrivacyBound values, String source) implements PrivacyBound {
    @Override
    public double delta(double epsilon) {
        return values.delta(epsilon);
    }

    @Override
    public double[] deltas(double[] epsilons) {
        return values.deltas(epsilons);
    }

    @Override
    public double epsilon(double delta) {
        return values.epsilon(delta);
    }

    @Override
    public double deltaLowerEnd(double epsilon) {
        return values.deltaLowerEnd(epsilon);
    }

    @Override
    public double gdpMu() {
        return values.gdpMu();
    }
}

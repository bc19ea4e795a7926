package io.dpaudit.core.bounds;

import io.dpaudit.core.numerics.SafeRounding;

/**
 * A privacy profile evaluated once at uniform nodes {@code eps_i = i * step}, {@code i = 0..n}, and answered between
 * them by linear interpolation in {@code e^eps}: for a profile that is expensive to evaluate and is queried many
 * times (a composed PLD fed into a further composition).
 *
 * <p>Why this is an upper bound: {@code delta(eps) = sup_S P(S) - e^eps Q(S)} is a supremum of functions affine in
 * {@code gamma = e^eps}, hence convex in {@code gamma}; the chord between two nodes lies on or above it. Beyond the
 * last node the last node's value is used (a profile is non-increasing). At the nodes the value is the wrapped
 * bound's own, so the kind, name and source are the wrapped bound's.
 */
public final class TabulatedProfile implements PrivacyBound {
    private final PrivacyBound wrapped;
    private final double step;
    private final double[] deltas;

    /** Tabulates {@code wrapped} at {@code nodes + 1} points over {@code [0, maxEpsilon]}. */
    public TabulatedProfile(PrivacyBound wrapped, double maxEpsilon, int nodes) {
        if (!(maxEpsilon > 0) || nodes < 1) {
            throw new IllegalArgumentException("maxEpsilon = " + maxEpsilon + ", nodes = " + nodes);
        }
        this.wrapped = wrapped;
        this.step = maxEpsilon / nodes;
        double[] epsilons = new double[nodes + 1];
        for (int i = 0; i <= nodes; i++) {
            epsilons[i] = i * step;
        }
        // one pass where the wrapped bound has one (a PLD: upper bounds, O(grid + nodes) instead of O(grid nodes))
        this.deltas = wrapped.deltas(epsilons);
        for (int i = 0; i <= nodes; i++) {
            double d = Math.min(1.0, deltas[i]);
            deltas[i] = i == 0 ? d : Math.min(d, deltas[i - 1]); // non-increasing against round-off
        }
    }

    @Override
    public String name() {
        return wrapped.name();
    }

    @Override
    public String source() {
        return wrapped.source();
    }

    @Override
    public BoundKind kind() {
        return wrapped.kind();
    }

    /** The wrapped bound's own lower end: the chords lie above the profile, never below it. */
    @Override
    public double deltaLowerEnd(double epsilon) {
        return wrapped.deltaLowerEnd(epsilon);
    }

    @Override
    public double delta(double epsilon) {
        if (!(epsilon > 0)) {
            return deltas[0];
        }
        double x = epsilon / step;
        if (x >= deltas.length - 1) {
            return deltas[deltas.length - 1];
        }
        int i = (int) Math.floor(x);
        if (x == i) {
            return deltas[i];
        }
        double g0 = Math.exp(i * step);
        double g1 = Math.exp((i + 1) * step);
        double w = (Math.exp(epsilon) - g0) / (g1 - g0);
        double d = deltas[i] + w * (deltas[i + 1] - deltas[i]);
        return Math.min(deltas[i], SafeRounding.upProbability(d));
    }
}

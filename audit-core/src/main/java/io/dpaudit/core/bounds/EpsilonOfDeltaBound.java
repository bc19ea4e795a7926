package io.dpaudit.core.bounds;

import io.dpaudit.core.Checks;
import io.dpaudit.core.numerics.SafeRounding;
import java.util.function.DoubleUnaryOperator;

/**
 * A bound stated the way most theorems state one: for every {@code delta}, the mechanism is
 * {@code (epsilon(delta), delta)}-DP. The profile {@code delta(epsilon)} is its inverse: the smallest {@code delta}
 * whose {@code epsilon(delta)} is at most {@code epsilon}, found by bisection on {@code log delta} over
 * {@code [1e-300, 1)} and reported as the upper end of the final bracket (a {@code delta} for which the statement
 * holds), rounded up. {@code epsilon(delta)} is assumed non-increasing, as a statement's envelope over smaller deltas
 * always is; where a formula is not, the inverse is still a delta for which the formula certifies {@code epsilon}.
 *
 * <p>{@code pureEpsilon} is the {@code epsilon} that holds with {@code delta = 0} (the local {@code eps0} of a shuffled
 * randomizer, by post-processing), or {@code +inf}: at and above it the profile is 0.
 */
public final class EpsilonOfDeltaBound extends NamedBound {
    private static final double LOG_MIN_DELTA = Math.log(1e-300);

    private final DoubleUnaryOperator epsilonOf;
    private final double pureEpsilon;

    /**
     * @param name bound name
     * @param source the statement and where it comes from
     * @param kind what the curve is
     * @param epsilonOf {@code delta -> epsilon}, {@code +inf} where the statement certifies nothing
     * @param pureEpsilon the epsilon that holds with {@code delta = 0}, or {@code +inf}
     */
    public EpsilonOfDeltaBound(String name, String source, BoundKind kind, DoubleUnaryOperator epsilonOf,
            double pureEpsilon) {
        super(name, source, kind);
        this.epsilonOf = epsilonOf;
        this.pureEpsilon = pureEpsilon;
    }

    @Override
    public double epsilon(double delta) {
        Checks.delta("delta", delta);
        double e = Math.min(pureEpsilon, epsilonOf.applyAsDouble(delta));
        return Double.isNaN(e) ? Double.POSITIVE_INFINITY : SafeRounding.up(Math.max(0.0, e));
    }

    @Override
    public double delta(double epsilon) {
        if (epsilon >= pureEpsilon) {
            return 0.0;
        }
        double hi = Math.log1p(-1e-15);
        if (!(epsilonOf.applyAsDouble(Math.exp(hi)) <= epsilon)) {
            return 1.0;
        }
        double lo = LOG_MIN_DELTA;
        if (epsilonOf.applyAsDouble(Math.exp(lo)) <= epsilon) {
            return SafeRounding.upProbability(Math.exp(lo));
        }
        for (int i = 0; i < 100 && hi - lo > 1e-12; i++) {
            double mid = 0.5 * (lo + hi);
            if (epsilonOf.applyAsDouble(Math.exp(mid)) <= epsilon) {
                hi = mid;
            } else {
                lo = mid;
            }
        }
        return SafeRounding.upProbability(Math.exp(hi));
    }
}

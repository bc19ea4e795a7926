package io.dpaudit.core.fdp;

/**
 * A trade-off function {@code f(alpha) = inf {beta_phi : alpha_phi <= alpha}} (Dong, Roth &amp; Su 2019): the smallest
 * type-II error of a test between neighbouring outputs at type-I error {@code alpha}. Convex, continuous,
 * non-increasing, {@code f(alpha) <= 1 - alpha}. A mechanism is f-DP when every neighbouring pair's trade-off curve
 * lies on or above {@code f}.
 */
@FunctionalInterface
public interface TradeOffFunction {
    /** {@code f(alpha)} for {@code alpha in [0, 1]}. */
    double beta(double alpha);

    /**
     * The least type-I error at which a test may reach the given power, {@code inf {alpha : f(alpha) <= 1 - power}}:
     * every event {@code A} of an f-DP pair {@code (P, Q)} has {@code P(A) >= leastAlphaAtPower(Q(A))}. For a
     * symmetric {@code f} this is {@code f(1 - power)}. This default bisects {@code alpha} to 1e-15 and returns the
     * bracket's lower end, never above the infimum; implementations with a closed form override it.
     *
     * @param power in [0, 1]
     */
    default double leastAlphaAtPower(double power) {
        if (!(power > 0)) {
            return 0.0;
        }
        double target = 1 - power;
        if (beta(0.0) <= target) {
            return 0.0;
        }
        double lo = 0;
        double hi = 1;
        for (int i = 0; i < 60 && hi - lo > 1e-15; i++) {
            double mid = 0.5 * (lo + hi);
            if (beta(mid) <= target) {
                hi = mid;
            } else {
                lo = mid;
            }
        }
        return lo;
    }
}

package io.dpaudit.core.numerics;

import org.apache.commons.math3.special.Beta;

/**
 * Quantiles of the Beta distribution, {@code x} with {@code I_x(a, b) = p}, where {@code I} is the regularized
 * incomplete beta function (commons-math3 {@link Beta#regularizedBeta}).
 *
 * <p>Solved in the logit {@code t = log(x / (1 - x))} by bracketing root finding on {@code [-745, 40]} to an
 * absolute tolerance of {@code 1e-12} in {@code t} (about {@code 1e-12} relative in {@code x} near 0), so tiny
 * quantiles such as {@code 3e-10} keep their relative precision. The bracket is returned to the caller through
 * {@link #lower}/{@link #upper}, which pick its ends. Those ends bracket the root of commons-math3's regularized beta
 * function, which is accurate to about {@code 1e-11} relative at Clopper–Pearson sizes (measured against closed forms
 * and SciPy in {@code BetaQuantileTest}); callers that need a guaranteed side move the value further outward, as
 * {@link io.dpaudit.core.estimate.ClopperPearson} does by {@code 1e-9} relative.
 */
public final class BetaQuantile {
    private static final double T_MIN = -745.0;
    private static final double T_MAX = 40.0;

    private BetaQuantile() {
    }

    /** The lower end of the bracket around the {@code p}-quantile of Beta(a, b), within about 1e-11 relative of it. */
    public static double lower(double p, double a, double b) {
        return logistic(solve(p, a, b).lo());
    }

    /** The upper end of the bracket around the {@code p}-quantile of Beta(a, b), within about 1e-11 relative of it. */
    public static double upper(double p, double a, double b) {
        return logistic(solve(p, a, b).hi());
    }

    private static RootFinder.Bracket solve(double p, double a, double b) {
        if (!(p > 0 && p < 1) || !(a > 0) || !(b > 0)) {
            throw new IllegalArgumentException("Beta quantile needs p in (0,1), a > 0, b > 0: p=" + p + ", a=" + a
                    + ", b=" + b);
        }
        return RootFinder.solve(t -> Beta.regularizedBeta(logistic(t), a, b, 1e-15, Integer.MAX_VALUE) - p,
                T_MIN, T_MAX, 0.0, 1e-12);
    }

    private static double logistic(double t) {
        return t >= 0 ? 1.0 / (1.0 + Math.exp(-t)) : Math.exp(t) / (1.0 + Math.exp(t));
    }
}

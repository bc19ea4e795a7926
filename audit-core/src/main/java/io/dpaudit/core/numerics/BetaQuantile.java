package io.dpaudit.core.numerics;

import java.util.function.DoubleUnaryOperator;
import org.apache.commons.math3.special.Beta;
import org.apache.commons.numbers.gamma.RegularizedBeta;

/**
 * Quantiles of the Beta distribution, {@code x} with {@code I_x(a, b) = p}, where {@code I} is the regularized
 * incomplete beta function: commons-math3's {@link Beta#regularizedBeta} up to {@code a + b = 10^9}, commons-numbers'
 * port of Boost's beyond ({@link #lowerTail}).
 *
 * <p>Solved in the logit {@code t = log(x / (1 - x))} to a bracket of width {@code 1e-12} in {@code t}: Newton's method
 * on the log of the nearer tail, its bracket verified by the signs of {@code I - p} at both ends, else (rarely) by
 * bracketing root finding on {@code [-745, 40]} (about {@code 1e-12} relative in {@code x} near 0), so tiny
 * quantiles such as {@code 3e-10} keep their relative precision. The bracket is returned to the caller through
 * {@link #lower}/{@link #upper}, which pick its ends. Those ends bracket the root of the regularized beta
 * function, which is accurate to about {@code 1e-11} relative at Clopper–Pearson sizes (measured against closed forms
 * and SciPy in {@code BetaQuantileTest}); callers that need a guaranteed side move the value further outward, as
 * {@link io.dpaudit.core.estimate.ClopperPearson} does by {@code 1e-9} relative.
 */
public final class BetaQuantile {
    private static final double T_MIN = -745.0;
    private static final double T_MAX = 40.0;
    /** Width of the returned bracket in the logit. */
    private static final double TOLERANCE = 1e-12;

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

    /**
     * The upper end of the bracket around the {@code (1 - q)}-quantile of Beta(a, b): the {@code x} whose upper tail
     * {@code 1 - I_x(a, b) = I_{1-x}(b, a)} is {@code q}, solved on that tail itself, so that a tiny {@code q} keeps
     * its precision (forming {@code 1 - q} would round it to a multiple of 1.1e-16, and to 1 below 5.6e-17).
     */
    public static double upperOfUpperTail(double q, double a, double b) {
        if (q < 0.5) {
            checkArguments(q, a, b);
            // I_{1-x}(b, a) - q, increasing in the logit t of x: the upper tail in its own precision.
            DoubleUnaryOperator f = t -> q - upperTail(t, a, b);
            return logistic(bracket(f, newtonInTail(false, Math.log(q), 1.0 - q, a, b)).hi());
        }
        return upper(1.0 - q, a, b); // 1 - q is exact for q in [1/2, 1)
    }

    private static void checkArguments(double p, double a, double b) {
        if (!(p > 0 && p < 1) || !(a > 0) || !(b > 0)) {
            throw new IllegalArgumentException("Beta quantile needs p in (0,1), a > 0, b > 0: p=" + p + ", a=" + a
                    + ", b=" + b);
        }
    }

    private static RootFinder.Bracket solve(double p, double a, double b) {
        checkArguments(p, a, b);
        DoubleUnaryOperator f = t -> lowerTail(t, a, b) - p;
        // Newton's method finds the root in a handful of evaluations; its bracket of width 1e-12 is then verified by
        // the signs of f itself at both ends (the same guarantee as the bracketing search, which remains the
        // fallback whenever Newton does not settle or the signs are not clean).
        return bracket(f, newton(p, a, b));
    }

    /**
     * The bracket of width {@link #TOLERANCE} around Newton's root {@code t} when {@code f} (increasing) changes sign
     * cleanly across it, else the bracketing search on {@code [-745, 40]}. A root beyond that range (a quantile within
     * {@code e^-40 = 4.2e-18} of 1, which no double below 1 resolves, or below {@code e^-745}, the least double) is
     * bracketed by the range's end and the limit: {@code (40, inf)}, whose ends map to {@code logistic(40)} (1.0 when
     * rounded) and 1, or {@code (-inf, -745)}, mapping to 0 and the least double; each end is on its own side of the
     * root.
     */
    private static RootFinder.Bracket bracket(DoubleUnaryOperator f, double t) {
        if (Double.isFinite(t)) {
            double lo = t - 0.5 * TOLERANCE;
            double hi = t + 0.5 * TOLERANCE;
            double fLo = f.applyAsDouble(lo);
            double fHi = f.applyAsDouble(hi);
            if (fLo < 0 && fHi > 0) {
                return new RootFinder.Bracket(lo, hi, fLo, fHi);
            }
        }
        double fMax = f.applyAsDouble(T_MAX);
        if (fMax < 0) {
            return new RootFinder.Bracket(T_MAX, Double.POSITIVE_INFINITY, fMax, Double.NaN);
        }
        double fMin = f.applyAsDouble(T_MIN);
        if (fMin > 0) {
            return new RootFinder.Bracket(Double.NEGATIVE_INFINITY, T_MIN, Double.NaN, fMin);
        }
        return RootFinder.solve(f, T_MIN, T_MAX, 0.0, TOLERANCE);
    }

    /**
     * Newton's method for the logit of the quantile on the log of the nearer tail ({@code log I_x(a, b) = log p} for
     * {@code p <= 1/2}, {@code log I_{1-x}(b, a) = log(1 - p)} otherwise), which is close to linear in the logit far
     * out in either tail; steps are kept inside the bracket the iterates establish (bisection otherwise). Returns NaN
     * when it does not settle within 60 steps.
     */
    private static double newton(double p, double a, double b) {
        boolean lowerTail = p <= 0.5;
        return newtonInTail(lowerTail, lowerTail ? Math.log(p) : Math.log1p(-p), p, a, b);
    }

    /**
     * {@link #newton} given the tail, the log of its target probability ({@code log p} for the lower tail,
     * {@code log(1 - p)} for the upper) and {@code p} itself, rounded as it may be, for the normal start.
     */
    private static double newtonInTail(boolean lowerTail, double target, double p, double a, double b) {
        double logBeta = Beta.logBeta(a, b);
        double lo = T_MIN;
        double hi = T_MAX;
        // Start from the normal approximation, carried to the logit by the delta method.
        double mean = a / (a + b);
        double sd = Math.sqrt(a * b / ((a + b) * (a + b) * (a + b + 1)));
        double z = Math.sqrt(2) * org.apache.commons.math3.special.Erf.erfInv(2 * p - 1); // a rough start suffices
        double t = Math.log(a) - Math.log(b) + z * sd / (mean * (1 - mean));
        t = Double.isFinite(t) ? Math.max(T_MIN, Math.min(T_MAX, t)) : 0;
        for (int i = 0; i < 60; i++) {
            double logX = -softplus(-t);
            double log1mX = -softplus(t);
            double tail = lowerTail ? lowerTail(t, a, b) : upperTail(t, a, b);
            if (!(tail > 0)) {
                // Underflow: the root lies further towards this tail's centre.
                if (lowerTail) {
                    lo = t;
                } else {
                    hi = t;
                }
                t = 0.5 * (lo + hi);
                continue;
            }
            double g = Math.log(tail) - target; // increasing in t for the lower tail, decreasing for the upper
            double increasing = lowerTail ? g : -g;
            if (increasing < 0) {
                lo = t;
            } else {
                hi = t;
            }
            // d/dt log I = x^a (1-x)^b / (B(a, b) I) (the density times dx/dt = x(1-x)), the same for both tails.
            double slope = Math.exp(a * logX + b * log1mX - logBeta - Math.log(tail));
            double step = lowerTail ? g / slope : -g / slope;
            double next = t - step;
            if (Math.abs(step) <= 1e-3 * TOLERANCE * Math.max(1, Math.abs(t))) {
                return t;
            }
            t = next > lo && next < hi && Double.isFinite(next) ? next : 0.5 * (lo + hi);
            if (hi - lo <= TOLERANCE * 1e-3) {
                return t;
            }
        }
        return Double.NaN;
    }

    /** Above this {@code a + b} the regularized beta function is Boost's (see {@link #lowerTail}). */
    public static final double LARGE = 1e9;

    /**
     * {@code I_x(a, b)} at {@code x = logistic(t)}: commons-math3's up to {@code a + b = 10^9}, beyond it the port of
     * Boost's {@code ibeta} in commons-numbers, on the tail nearer {@code x} (its value or its complement at
     * {@code 1 - x = logistic(-t)}). commons-math3 forms {@code b log(1 - x)} and {@code log B(a, b)} directly, losing
     * about {@code (a + b) 1e-16} relative: at 10^13 trials and 1001 successes the Clopper–Pearson upper bound came out
     * 3.6e-7 relative below the true one, past its outward margin of 1e-9 (measured against the Poisson limit at 50
     * digits, which SciPy matches to 1e-11). Boost computes those power terms relative to the mean. Below 10^9 the
     * route is unchanged, so no earlier number moves.
     */
    static double lowerTail(double t, double a, double b) {
        if (a + b <= LARGE) {
            return Beta.regularizedBeta(logistic(t), a, b, 1e-15, Integer.MAX_VALUE);
        }
        return t <= 0 ? RegularizedBeta.value(logistic(t), a, b) : RegularizedBeta.complement(logistic(-t), b, a);
    }

    /** {@code 1 - I_x(a, b) = I_{1-x}(b, a)} at {@code x = logistic(t)}, by the same routes as {@link #lowerTail}. */
    static double upperTail(double t, double a, double b) {
        if (a + b <= LARGE) {
            return Beta.regularizedBeta(logistic(-t), b, a, 1e-15, Integer.MAX_VALUE);
        }
        return t <= 0 ? RegularizedBeta.complement(logistic(t), a, b) : RegularizedBeta.value(logistic(-t), b, a);
    }

    /** {@code log(1 + e^x)} without overflow. */
    private static double softplus(double x) {
        return x > 0 ? x + Math.log1p(Math.exp(-x)) : Math.log1p(Math.exp(x));
    }

    private static double logistic(double t) {
        return t >= 0 ? 1.0 / (1.0 + Math.exp(-t)) : Math.exp(t) / (1.0 + Math.exp(t));
    }
}

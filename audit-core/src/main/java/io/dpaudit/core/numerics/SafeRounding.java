package io.dpaudit.core.numerics;

/**
 * Moves a computed value a little toward its safe side: analytic privacy bounds (and calibrated noise) up,
 * empirical lower bounds down.
 *
 * <p>The margin is {@code 1e-10} relative (and at least one ulp). The normal tail functions underneath are accurate
 * to about {@code 1.2e-13} relative (commons-math3 {@code erfc}); the difference {@code Phi(a) - e^eps Phi(b)} in
 * the Gaussian profile amplifies that by about {@code 1 + eps/mu^2} when both terms are tiny, so {@code 1e-10} covers
 * every ε up to several hundred times {@code mu^2} with room to spare, while staying far below any precision a
 * report prints.
 */
public final class SafeRounding {
    /** Relative margin. */
    public static final double MARGIN = 1e-10;

    private SafeRounding() {
    }

    /** A value slightly above {@code x}; infinities and NaN are returned unchanged; 0 stays 0. */
    public static double up(double x) {
        if (!Double.isFinite(x) || x == 0) {
            return x;
        }
        return Math.nextUp(x + MARGIN * Math.abs(x));
    }

    /** {@link #up} for a probability: the result is capped at 1. */
    public static double upProbability(double x) {
        return Math.min(1.0, up(x));
    }

    /** A value slightly below {@code x}; infinities and NaN are returned unchanged; 0 stays 0. */
    public static double down(double x) {
        if (!Double.isFinite(x) || x == 0) {
            return x;
        }
        return Math.nextDown(x - MARGIN * Math.abs(x));
    }
}

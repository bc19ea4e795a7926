package io.dpaudit.core.numerics;

/**
 * Arithmetic on logarithms of non-negative numbers, for quantities that underflow as plain doubles.
 */
public final class LogSpace {
    private static final double LN2 = Math.log(2.0);

    private LogSpace() {
    }

    /** {@code log(e^a + e^b)}; {@code -inf} entries are the log of zero. */
    public static double add(double a, double b) {
        if (a == Double.NEGATIVE_INFINITY) {
            return b;
        }
        if (b == Double.NEGATIVE_INFINITY) {
            return a;
        }
        double max = Math.max(a, b);
        return max + Math.log1p(Math.exp(Math.min(a, b) - max));
    }

    /**
     * {@code log(e^a - e^b)} for {@code b <= a}; {@code -inf} when {@code b == a}. NaN when {@code b > a}.
     */
    public static double subtract(double a, double b) {
        if (b > a) {
            return Double.NaN;
        }
        if (b == Double.NEGATIVE_INFINITY) {
            return a;
        }
        return a + log1mExp(b - a);
    }

    /**
     * {@code 1 - e^x}, to within about an ulp: {@code -expm1(x)} where {@code e^x > 1/2} (the subtraction would
     * cancel), {@code 1 - exp(x)} below (where it cannot: the result is above 1/2, and the error of {@code exp} is at
     * most half an ulp of it). {@code Math.exp} is a JIT intrinsic; {@code Math.expm1} is a native call in Java 17,
     * and the hockey-stick sums over a privacy-loss grid (a term per grid point) spent most of their time in it.
     */
    public static double oneMinusExp(double x) {
        return x < -LN2 ? 1.0 - Math.exp(x) : -Math.expm1(x);
    }

    /** {@code log(1 - e^x)} for {@code x <= 0}, accurate near 0 and for {@code x -> -inf} (Maechler 2012). */
    public static double log1mExp(double x) {
        if (x > 0) {
            return Double.NaN;
        }
        return x > -LN2 ? Math.log(-Math.expm1(x)) : Math.log1p(-Math.exp(x));
    }

    /** {@code log(sum_i e^{x_i})} over {@code x[from, to)}. */
    public static double sum(double[] x, int from, int to) {
        double max = Double.NEGATIVE_INFINITY;
        for (int i = from; i < to; i++) {
            max = Math.max(max, x[i]);
        }
        if (max == Double.NEGATIVE_INFINITY || max == Double.POSITIVE_INFINITY) {
            return max;
        }
        double s = 0;
        for (int i = from; i < to; i++) {
            s += Math.exp(x[i] - max);
        }
        return max + Math.log(s);
    }
}

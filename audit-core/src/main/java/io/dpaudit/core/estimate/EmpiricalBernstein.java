package io.dpaudit.core.estimate;

/**
 * Empirical-Bernstein confidence bounds for the mean of a variable with values in {@code [0, 1]} (Maurer &amp; Pontil,
 * "Empirical Bernstein bounds and sample variance penalization", COLT 2009, Theorem 4): for {@code n >= 2} independent
 * copies with sample mean {@code m} and unbiased sample variance {@code V}, with probability at least {@code 1 - a}
 * <pre>
 *   E X <= m + sqrt(2 V ln(2/a) / n) + 7 ln(2/a) / (3 (n - 1)),
 * </pre>
 * and the same bound applied to {@code 1 - X} gives the lower bound. Unlike Hoeffding's bound the width scales with
 * the standard deviation, so a mean of order 10^-6 estimated from 10^9 draws has a relative width of a few per cent,
 * not several hundred. Both bounds are moved outward by {@code 1e-12} relative (floating-point sums) and clipped to
 * {@code [0, 1]}.
 */
public final class EmpiricalBernstein {
    /** Method name as written in reports. */
    public static final String NAME = "empirical-bernstein";
    /** Citation as written in reports. */
    public static final String SOURCE = "Maurer & Pontil (COLT 2009), Theorem 4";
    private static final double OUTWARD = 1e-12;

    private EmpiricalBernstein() {
    }

    /**
     * Upper confidence bound at error level {@code a} from the count, sum and sum of squares of {@code n} draws.
     */
    public static double upper(long n, double sum, double sumOfSquares, double a) {
        check(n, a);
        double mean = sum / n;
        double r = radius(n, mean, variance(n, sum, sumOfSquares), a);
        return Math.min(1.0, (mean + r) * (1 + OUTWARD));
    }

    /**
     * Lower confidence bound at error level {@code a} (the upper bound for {@code 1 - X}, reflected).
     */
    public static double lower(long n, double sum, double sumOfSquares, double a) {
        check(n, a);
        double mean = sum / n;
        double r = radius(n, mean, variance(n, sum, sumOfSquares), a);
        return Math.max(0.0, (mean - r) * (1 - OUTWARD));
    }

    /** {@code sqrt(2 V ln(2/a) / n) + 7 ln(2/a) / (3 (n - 1))}; the variance of {@code 1 - X} is that of X. */
    static double radius(long n, double mean, double variance, double a) {
        double log = Math.log(2 / a);
        return Math.sqrt(2 * variance * log / n) + 7 * log / (3.0 * (n - 1));
    }

    /** Unbiased sample variance, clamped at 0 against cancellation. */
    static double variance(long n, double sum, double sumOfSquares) {
        double v = (sumOfSquares - sum * (sum / n)) / (n - 1);
        return Math.max(0.0, v);
    }

    private static void check(long n, double a) {
        if (n < 2) {
            throw new IllegalArgumentException("empirical Bernstein needs at least 2 draws, got " + n);
        }
        if (!(a > 0 && a < 1)) {
            throw new IllegalArgumentException("error level must be in (0, 1), got " + a);
        }
    }
}

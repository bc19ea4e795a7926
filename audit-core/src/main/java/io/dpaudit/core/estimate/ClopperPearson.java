package io.dpaudit.core.estimate;

import io.dpaudit.core.numerics.BetaQuantile;
import io.dpaudit.core.numerics.BinomialTail;
import io.dpaudit.core.numerics.RootFinder;

/**
 * One-sided Clopper–Pearson (exact binomial) confidence bounds for a proportion.
 *
 * <p>For {@code k} successes in {@code n} trials and error level {@code a}:
 * <ul>
 *   <li>lower bound {@code p_L = Beta^{-1}(a; k, n - k + 1)}, and 0 when {@code k = 0};</li>
 *   <li>upper bound {@code p_U = Beta^{-1}(1 - a; k + 1, n - k)}, and 1 when {@code k = n}.</li>
 * </ul>
 * Each satisfies {@code P(p < p_L) <= a} (resp. {@code P(p > p_U) <= a}) for every true {@code p} (Clopper &amp;
 * Pearson 1934). The Beta quantiles are exact up to root-finding tolerance and the accuracy of the regularized beta
 * function, and the result is then moved outward by a relative {@code 1e-9} so the bound errs on the safe side.
 *
 * <p>The upper bound for {@code k <= 1000} is computed instead from its definition, {@code P(Binomial(n, p_U) <= k) = a},
 * with the binomial tail summed term by term ({@link BinomialTail}): commons-math3's regularized beta function loses
 * about {@code n * 1e-16} relative, which at {@code n >= 10^9} and few successes exceeded the outward margin (measured
 * against 40-digit references: the bound for {@code k = 0, n = 10^9, a = 0.025} was 2e-8 below the true quantile).
 * The lower bound, and the upper bound for more successes, were measured accurate to better than 1e-10 relative up to
 * 10^10 trials; beyond 10^9 trials the regularized beta function is Boost's ({@code BetaQuantile.lowerTail}), since
 * commons-math3's put the upper bound for 1001 successes in 10^13 trials 3.6e-7 relative below the true one.
 *
 * <p>{@link #medianLower}/{@link #medianUpper} are the same bounds at {@code a = 1/2} by Kerman's closed-form Beta
 * median {@code (alpha - 1/3)/(alpha + beta - 2/3)}; they are point estimates used only to <i>select</i> a
 * threshold, never to certify one.
 */
public final class ClopperPearson {
    private static final double OUTWARD = 1e-9;

    /**
     * The most trials these limits are computed for, 10^13. The regularized beta function is evaluated through terms
     * like {@code k log x} whose rounding grows with the counts. Measured against the normal approximation with its
     * skewness term (counts of at least 10^6 on each side; 2,000 draws per quarter decade of sizes, error levels from
     * 0.05 to 5e-13), the limits lay on their safe side up to 5.6·10^13 trials and came out too narrow, by up to 0.2%
     * of their width from 10^14 and by more beyond (on the wrong side of the estimate from about 5·10^15); from
     * 3·10^12 to 10^13 with error levels down to 1e-29 (7,463 draws) all lay on their safe side, at most 0.5% wider.
     * Audits are refused above this size ({@link io.dpaudit.core.Checks#trials}), and these methods throw.
     */
    public static final long MAX_TRIALS = io.dpaudit.core.Checks.MAX_TRIALS;

    private ClopperPearson() {
    }

    /** Lower bound for the success probability at error level {@code a} (confidence {@code 1 - a}). */
    public static double lower(long k, long n, double a) {
        check(k, n, a);
        if (k == 0) {
            return 0.0;
        }
        double q = BetaQuantile.lower(a, k, n - k + 1.0);
        return q * (1.0 - OUTWARD);
    }

    /** Upper bound for the success probability at error level {@code a} (confidence {@code 1 - a}). */
    public static double upper(long k, long n, double a) {
        check(k, n, a);
        if (k == n) {
            return 1.0;
        }
        double q = k <= DIRECT_SUM_MAX ? upperByTailSum(k, n, a)
                : a >= TINY_LEVEL ? BetaQuantile.upper(1.0 - a, k + 1.0, (double) (n - k))
                : BetaQuantile.upperOfUpperTail(a, k + 1.0, (double) (n - k));
        return Math.min(1.0, q * (1.0 + OUTWARD));
    }

    /**
     * Below this error level the upper bound is solved on the Beta distribution's upper tail itself
     * ({@link BetaQuantile#upperOfUpperTail}): {@code 1 - a} represents {@code a} only to {@code 1.1e-16 / a} relative
     * (to nothing below 5.6e-17, where it rounds to 1: a confidence of {@code 1 - 1e-15} ended the run in an internal
     * error). From {@code 2^-20} up, {@code 1 - a} carries {@code a} to {@code 2^-33} relative, far inside the outward
     * margin, and the bound keeps the route it always took, so no earlier number moves.
     */
    static final double TINY_LEVEL = 0x1p-20;

    /** Largest number of successes for which the upper bound sums the binomial tail directly. */
    static final long DIRECT_SUM_MAX = 1000;

    /**
     * The {@code p} with {@code log P(Binomial(n, p) <= k) = log a} (decreasing in {@code p}), solved in the logit of
     * {@code p} to 1e-12 absolute; the upper end of the final bracket.
     */
    private static double upperByTailSum(long k, long n, double a) {
        double logA = Math.log(a);
        RootFinder.Bracket b = RootFinder.solve(t -> BinomialTail.logCdf(k, n, logistic(t)) - logA, -745.0, 40.0,
                0.0, 1e-12);
        return logistic(b.hi());
    }

    private static double logistic(double t) {
        return t >= 0 ? 1.0 / (1.0 + Math.exp(-t)) : Math.exp(t) / (1.0 + Math.exp(t));
    }

    /** Median-unbiased lower estimate (Clopper–Pearson at level 1/2, Kerman's approximation). Selection only. */
    public static double medianLower(long k, long n) {
        return k == 0 ? 0.0 : (k - 1.0 / 3.0) / (n + 1.0 / 3.0);
    }

    /** Median-unbiased upper estimate (Clopper–Pearson at level 1/2, Kerman's approximation). Selection only. */
    public static double medianUpper(long k, long n) {
        return k == n ? 1.0 : (k + 2.0 / 3.0) / (n + 1.0 / 3.0);
    }

    private static void check(long k, long n, double a) {
        if (n <= 0 || k < 0 || k > n) {
            throw new IllegalArgumentException("need 0 <= k <= n, n > 0: k=" + k + ", n=" + n);
        }
        if (n > MAX_TRIALS) {
            throw new IllegalArgumentException("n = " + n + ": Clopper-Pearson limits are computed for at most 10^13 "
                    + "trials (beyond, double precision no longer keeps them on their safe side)");
        }
        if (!(a > 0 && a < 1)) {
            throw new IllegalArgumentException("error level must be in (0, 1): " + a);
        }
    }
}

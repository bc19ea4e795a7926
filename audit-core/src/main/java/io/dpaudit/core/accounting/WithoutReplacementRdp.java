package io.dpaudit.core.accounting;

import io.dpaudit.core.numerics.LogSpace;
import java.util.function.IntToDoubleFunction;
import org.apache.commons.math3.special.Gamma;

/**
 * Rényi DP amplification by sampling without replacement, replace-one adjacency (Wang, Balle &amp; Kasiviswanathan,
 * AISTATS 2019, Theorem 9). A uniformly random batch of {@code m} of {@code n} records ({@code gamma = m/n}) is fed to
 * a base mechanism that is {@code (j, eps(j))}-RDP for integer {@code j >= 2} and {@code eps(inf)}-DP. For integer
 * {@code alpha >= 2}:
 * <pre>
 * eps'(alpha) <= 1/(alpha-1) log(1 + gamma^2 C(alpha,2) min{4(e^{eps(2)} - 1), e^{eps(2)} min{2, (e^{eps(inf)} - 1)^2}}
 *                               + sum_{j=3}^{alpha} gamma^j C(alpha,j) e^{(j-1) eps(j)} min{2, (e^{eps(inf)} - 1)^j})
 * </pre>
 * and never more than the base's {@code eps(alpha)}. Fractional orders interpolate the cumulant
 * {@code K(alpha) = (alpha-1) eps'(alpha)} linearly between neighbouring integers (WBK19 Corollary 10; {@code K} is
 * convex, so the chord lies above it), with {@code K(1) = 0}. Evaluated in log space. Verified against autodp's
 * implementation of Theorem 9 to 15 digits in the formula sheet (§4.4); the tighter Gaussian-specific Theorem 27 of
 * the same paper (dp_accounting's choice) is not implemented, so this bound is at or above dp_accounting's.
 */
public final class WithoutReplacementRdp {
    private WithoutReplacementRdp() {
    }

    /**
     * @param gamma sampling fraction m/n in (0, 1]
     * @param baseRdp {@code j -> eps(j)} of the base mechanism at integer orders (replace-one adjacency)
     * @param baseIsPure whether {@code eps(inf)} is finite; the Gaussian has {@code eps(inf) = inf}
     * @param basePureEpsilon {@code eps(inf)} when {@code baseIsPure}
     * @param alpha order {@code > 1}
     */
    public static double rdp(double gamma, IntToDoubleFunction baseRdp, boolean baseIsPure, double basePureEpsilon,
            double alpha) {
        if (SubsampledGaussianRdp.isInteger(alpha)) {
            return integerOrder(gamma, baseRdp, baseIsPure, basePureEpsilon, (int) alpha);
        }
        int lo = (int) Math.floor(alpha);
        int hi = lo + 1;
        double kLo = lo < 2 ? 0.0 : (lo - 1) * integerOrder(gamma, baseRdp, baseIsPure, basePureEpsilon, lo);
        double kHi = (hi - 1) * integerOrder(gamma, baseRdp, baseIsPure, basePureEpsilon, hi);
        double k = kLo + (alpha - lo) * (kHi - kLo);
        return k / (alpha - 1);
    }

    /** Theorem 9 at an integer order, capped by the base's RDP. */
    static double integerOrder(double gamma, IntToDoubleFunction baseRdp, boolean baseIsPure, double basePureEpsilon,
            int alpha) {
        if (alpha < 2) {
            throw new IllegalArgumentException("integer order must be >= 2: " + alpha);
        }
        double logGamma = Math.log(gamma);
        double lgAlpha = Gamma.logGamma(alpha + 1.0);
        // log(e^{eps(inf)} - 1), +inf for a non-pure base.
        double logPureMinus1 = baseIsPure ? basePureEpsilon + LogSpace.log1mExp(-basePureEpsilon)
                : Double.POSITIVE_INFINITY;
        double log2 = Math.log(2.0);
        double[] terms = new double[alpha];
        terms[0] = 0.0; // the leading 1
        double eps2 = baseRdp.applyAsDouble(2);
        double logA = Math.log(4.0) + eps2 + LogSpace.log1mExp(-eps2);         // log 4 (e^{eps2} - 1)
        double logB = eps2 + Math.min(log2, 2 * logPureMinus1);               // log e^{eps2} min{2, (e^eps_inf - 1)^2}
        terms[1] = 2 * logGamma + logBinomial(lgAlpha, alpha, 2) + Math.min(logA, logB);
        for (int j = 3; j <= alpha; j++) {
            double epsJ = baseRdp.applyAsDouble(j);
            terms[j - 1] = j * logGamma + logBinomial(lgAlpha, alpha, j) + (j - 1) * epsJ
                    + Math.min(log2, j * logPureMinus1);
        }
        double amplified = LogSpace.sum(terms, 0, terms.length) / (alpha - 1);
        return Math.min(amplified, baseRdp.applyAsDouble(alpha));
    }

    private static double logBinomial(double lgN, int n, int k) {
        return lgN - Gamma.logGamma(k + 1.0) - Gamma.logGamma(n - k + 1.0);
    }
}

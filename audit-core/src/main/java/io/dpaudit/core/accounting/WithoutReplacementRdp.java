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
 * implementation of Theorem 9 to 15 digits in the formula sheet (§4.4).
 *
 * <p>For a Gaussian base ({@link #gaussian}) the Gaussian-specific Theorem 27 of the same paper (dp_accounting's
 * choice) is also evaluated at every integer order up to {@value #THEOREM_27_MAX_ORDER}, and the smaller of the two is
 * kept (both are upper bounds, and so is the chord between two upper bounds of the convex cumulant). Theorem 27 replaces
 * the {@code j}-th term's {@code 2 e^{(j-1) eps(j)}} by {@code min{4 sqrt(D_lo D_hi), 2 e^{(j-1) eps(j)}}}, where
 * {@code D_lo}, {@code D_hi} are the absolute forward differences of orders {@code 2 floor(j/2)} and
 * {@code 2 ceil(j/2)} at 0 of the sequence {@code a_0 = 1}, {@code a_k = e^{(k-1) k mu^2 / 2}} ({@code k >= 1}).
 * The differences are alternating sums with heavy cancellation when {@code mu} is small; they are computed in double
 * precision scaled by their largest term, and an upper bound of the rounding error (a generous 1e-11 of the sum of the
 * terms' magnitudes) is added to each before it is used, so that cancellation can only weaken Theorem 27 (the
 * minimum then falls back on Theorem 9), never make it optimistic.
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

    /** Largest order at which Theorem 27 is evaluated (its cost grows as the order squared), as dp_accounting does. */
    static final int THEOREM_27_MAX_ORDER = 256;

    /**
     * RDP of the Gaussian mechanism with {@code mu} = sensitivity / noise, subsampled without replacement at fraction
     * {@code gamma}: the smaller of Theorems 9 and 27 at integer orders, interpolated in the cumulant between them.
     */
    public static double gaussian(double gamma, double mu, double alpha) {
        if (SubsampledGaussianRdp.isInteger(alpha)) {
            return gaussianIntegerOrder(gamma, mu, (int) alpha);
        }
        int lo = (int) Math.floor(alpha);
        int hi = lo + 1;
        double kLo = lo < 2 ? 0.0 : (lo - 1) * gaussianIntegerOrder(gamma, mu, lo);
        double kHi = (hi - 1) * gaussianIntegerOrder(gamma, mu, hi);
        return (kLo + (alpha - lo) * (kHi - kLo)) / (alpha - 1);
    }

    /** min(Theorem 9, Theorem 27, the base's RDP) at an integer order. */
    static double gaussianIntegerOrder(double gamma, double mu, int alpha) {
        double mu2 = mu * mu;
        double nine = integerOrder(gamma, j -> j * mu2 / 2, false, 0.0, alpha);
        if (alpha > THEOREM_27_MAX_ORDER || !(mu2 > 0) || !Double.isFinite(mu2)) {
            return nine;
        }
        return Math.min(nine, theorem27(gamma, mu2, alpha));
    }

    /** WBK19 Theorem 27 for the Gaussian base at an integer order {@code alpha >= 2}. */
    static double theorem27(double gamma, double mu2, int alpha) {
        double logGamma = Math.log(gamma);
        double lgAlpha = Gamma.logGamma(alpha + 1.0);
        double[] logDiff = upperForwardDifferences(mu2, alpha + 2);
        double[] terms = new double[alpha];
        terms[0] = 0.0; // the leading 1
        double f2 = mu2; // eps(2) = 2 mu^2 / 2
        terms[1] = 2 * logGamma + logBinomial(lgAlpha, alpha, 2)
                + Math.min(Math.log(4.0) + f2 + LogSpace.log1mExp(-f2), f2 + Math.log(2.0));
        for (int j = 3; j <= alpha; j++) {
            double lo = logDiff[2 * (j / 2)];
            double hi = logDiff[2 * ((j + 1) / 2)];
            double cgf = (j - 1) * (double) j * mu2 / 2; // (j - 1) eps(j)
            double s = Math.min(Math.log(4.0) + 0.5 * (lo + hi), Math.log(2.0) + cgf);
            terms[j - 1] = s + j * logGamma + logBinomial(lgAlpha, alpha, j);
        }
        return LogSpace.sum(terms, 0, terms.length) / (alpha - 1);
    }

    /**
     * Upper bounds on {@code log |Delta^m a(0)|} for {@code m = 0 .. maxOrder}, where {@code a_0 = 1} and
     * {@code a_k = e^{(k-1) k mu2 / 2}}: each difference is the alternating sum {@code sum_k (-1)^{m-k} C(m,k) a_k},
     * evaluated scaled by its largest term, plus a bound on its rounding error.
     */
    static double[] upperForwardDifferences(double mu2, int maxOrder) {
        double[] logA = new double[maxOrder + 1];
        logA[0] = 0.0;
        for (int k = 1; k <= maxOrder; k++) {
            logA[k] = (k - 1) * (double) k * mu2 / 2;
        }
        double[] out = new double[maxOrder + 1];
        double[] w = new double[maxOrder + 1];
        for (int m = 0; m <= maxOrder; m++) {
            double lgM = Gamma.logGamma(m + 1.0);
            double top = Double.NEGATIVE_INFINITY;
            for (int k = 0; k <= m; k++) {
                w[k] = logBinomial(lgM, m, k) + logA[k];
                top = Math.max(top, w[k]);
            }
            double sum = 0;
            double magnitude = 0;
            for (int k = 0; k <= m; k++) {
                double t = Math.exp(w[k] - top);
                magnitude += t;
                sum += ((m - k) % 2 == 0) ? t : -t;
            }
            out[m] = top + Math.log(Math.abs(sum) + 1e-11 * magnitude);
        }
        return out;
    }

    private static double logBinomial(double lgN, int n, int k) {
        return lgN - Gamma.logGamma(k + 1.0) - Gamma.logGamma(n - k + 1.0);
    }
}

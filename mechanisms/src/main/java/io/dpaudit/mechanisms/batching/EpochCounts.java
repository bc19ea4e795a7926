package io.dpaudit.mechanisms.batching;

import org.apache.commons.math3.special.Gamma;

/**
 * The count J of E independent epochs whose per-epoch event occurs: Binomial(E, a) with the canary against
 * Binomial(E, b) without it. A post-processing of the E epochs' outputs, so its hockey-stick divergence
 * {@code sum_j (A_j - e^eps B_j)_+} is a lower bound on the mechanism's — the max tests' way of composing epochs
 * ({@link AllocationMaxTestBound}, {@link ShuffleMaxTestBound}).
 */
final class EpochCounts {
    /** Relative allowance for the rounding of each probability (a few ulps through log, exp and expm1). */
    static final double ROUNDING = 1e-13;

    private final int epochs;
    /** {@code log C(E, j)}, j = 0..E. */
    private final double[] logBinomial;

    EpochCounts(int epochs) {
        this.epochs = epochs;
        this.logBinomial = new double[epochs + 1];
        for (int j = 0; j <= epochs; j++) {
            logBinomial[j] = Gamma.logGamma(epochs + 1.0) - Gamma.logGamma(j + 1.0) - Gamma.logGamma(epochs - j + 1.0);
        }
    }

    /**
     * {@code sum_j (A_j - e^eps B_j)_+} for {@code A = Binomial(E, a)} and {@code B = Binomial(E, b)} given in log space
     * ({@code a1 = log a}, {@code a0 = log(1 - a)}), each positive term lowered by a relative {@link #ROUNDING}.
     */
    double hockeyStick(double a1, double a0, double b1, double b0, double epsilon) {
        double sum = 0;
        for (int j = 0; j <= epochs; j++) {
            double logA = logBinomial[j] + times(j, a1) + times(epochs - j, a0);
            if (logA == Double.NEGATIVE_INFINITY) {
                continue;
            }
            double logB = epsilon + logBinomial[j] + times(j, b1) + times(epochs - j, b0);
            if (logB >= logA) {
                continue;
            }
            double pa = Math.exp(logA);
            double pb = Math.exp(logB);
            sum += pa - pb - ROUNDING * (pa + pb);
        }
        return sum;
    }

    /** The larger direction's divergence: with the canary against without it, and the reverse. */
    double bothDirections(double p1, double p0, double q1, double q0, double epsilon) {
        return Math.max(hockeyStick(p1, p0, q1, q0, epsilon), hockeyStick(q1, q0, p1, p0, epsilon));
    }

    /** {@code n * logValue} with {@code 0 * -inf = 0} (an event of probability zero taken no times). */
    private static double times(int n, double logValue) {
        return n == 0 ? 0.0 : n * logValue;
    }
}

package io.dpaudit.core.law;

/**
 * The exact law of a mechanism's per-round sufficient statistic in one world: what a likelihood-ratio attack and an
 * exact privacy curve need to know about a simulator's outputs.
 *
 * <p>A law has a density with respect to a reference measure that both worlds share — Lebesgue measure on
 * {@code R^k} for a continuous statistic ({@link GaussianMixture}), counting measure on a finite set for a discrete
 * one ({@link DiscreteLaw}) — so that the log-likelihood ratio of an observed statistic {@code s} is
 * {@code withCanary.logDensity(s) - withoutCanary.logDensity(s)}. Implementations are immutable and thread-safe.
 */
public interface StatisticLaw {
    /** The dimension {@code k} of the statistic. */
    int dimension();

    /**
     * The log density at {@code x[offset, offset + k)} with respect to the law's reference measure; {@code -inf}
     * outside the support, never NaN for a finite argument.
     */
    double logDensity(double[] x, int offset);
}

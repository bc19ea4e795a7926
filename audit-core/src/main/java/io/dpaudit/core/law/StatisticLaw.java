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

    /**
     * {@code log p(x) - log q(x)} for this law {@code p} against {@code other} {@code q}: the per-round privacy loss.
     * The default subtracts the two densities; a law that knows a cheaper or more accurate form against laws of its own
     * kind (terms that cancel, draws shared between the two) overrides it, within the same accuracy.
     */
    default double logRatio(StatisticLaw other, double[] x, int offset) {
        return logDensity(x, offset) - other.logDensity(x, offset);
    }
}

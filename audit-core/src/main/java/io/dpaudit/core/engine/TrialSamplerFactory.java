package io.dpaudit.core.engine;

import org.apache.commons.rng.UniformRandomProvider;

/**
 * Creates the per-shard {@link TrialSampler}s of one mechanism configuration. Implementations are immutable and
 * thread-safe; the tables they precompute are shared by all samplers they create.
 */
public interface TrialSamplerFactory {
    /** Number of doubles in one output (e.g. rounds x dimension). */
    int outputLength();

    /** A sampler bound to {@code rng}; every random draw it makes comes from {@code rng}. */
    TrialSampler create(UniformRandomProvider rng);

    /** One-line description for reports (simulator kind and its parameters). */
    String description();

    /**
     * The same mechanism's coupled trials (both worlds on common random numbers: {@link TrialKind#COUPLED}), or null
     * when its sampler cannot run them. A capability the mechanism declares, not one the auditor guesses.
     */
    default CoupledSamplerFactory coupling() {
        return null;
    }
}

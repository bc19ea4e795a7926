package io.dpaudit.core.engine;

import io.dpaudit.core.rng.RandomStreams;

/**
 * Runs one counted phase of coupled trials ({@link CoupledSamplerFactory}): {@code N} coupled trials in shards of the
 * engine's size, shard {@code j} drawing only from stream {@code streams.issued() + j} of the root seed, each shard
 * counted by {@link CoupledPhase#countShard}, their {@link CoupledCounts} summed. As for {@link PhaseEngine}, the
 * counts must depend on nothing but these inputs, and {@code streams} must be left past the streams used (one per
 * shard). The local {@link CoupledPhase} is the reference; a cluster engine (the Spark runner) must match it exactly.
 */
public interface CoupledPhaseEngine {
    /**
     * Runs a phase of coupled trials.
     *
     * @param phase name for progress reports
     * @param sampler the mechanism's coupled trials
     * @param scorer the attack, applied to each world's output
     * @param binning histogram layout
     * @param trials coupled trials, at least 1
     * @param streams where the shards' streams come from
     * @return the merged counts
     */
    CoupledCounts runCoupled(String phase, CoupledSamplerFactory sampler, Scorer scorer, HistogramBinning binning,
            long trials, RandomStreams streams);

    /** Coupled trials in a full shard. */
    int shardTrials();
}

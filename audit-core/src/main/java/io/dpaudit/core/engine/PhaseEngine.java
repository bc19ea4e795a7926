package io.dpaudit.core.engine;

import io.dpaudit.core.rng.RandomStreams;

/**
 * Runs one counted phase of an audit: {@code N} trials per world in shards of the engine's size, shard {@code j}
 * drawing only from stream {@code streams.issued() + j} of the root seed, their score histograms summed. An engine
 * must give counts that depend on nothing but these inputs — not on threads, machines or scheduling — and must leave
 * {@code streams} advanced past the streams it used (one per shard). The local multi-threaded
 * {@link MonteCarloEngine} is the reference; a cluster engine (the Spark runner) must match it exactly.
 */
public interface PhaseEngine {
    /**
     * Runs a phase.
     *
     * @param phase name for progress reports
     * @param sampler the mechanism
     * @param scorer the attack
     * @param binning histogram layout
     * @param trials trials per world, at least 1
     * @param streams where the shards' streams come from
     * @return the merged counts
     */
    ScoreCounts run(String phase, TrialSamplerFactory sampler, Scorer scorer, HistogramBinning binning, long trials,
            RandomStreams streams);

    /** Trials per world in a full shard. */
    int shardTrials();
}

package io.dpaudit.core.engine;

import io.dpaudit.core.rng.RandomStreams;

/**
 * Runs one counted phase of an audit, of any kind of trial ({@link ShardCounter}): {@code N} trials in shards of the
 * engine's size, shard {@code j} drawing only from stream {@code streams.issued() + j} of the root seed, their counts
 * summed. An engine must give counts that depend on nothing but these inputs — not on threads, machines or
 * scheduling — and must leave {@code streams} advanced past the streams it used (one per shard). The local
 * {@link LocalEngine} is the reference; a cluster engine (the Spark runner) must match it exactly.
 */
public interface PhaseEngine {
    /**
     * Runs a phase.
     *
     * @param phase name for progress reports
     * @param counter the kind of trial and what it counts
     * @param trials trials, at least 1
     * @param streams where the shards' streams come from
     * @return the merged counts
     */
    <S, C extends PhaseCounts<C>> C run(String phase, ShardCounter<S, C> counter, long trials, RandomStreams streams);

    /** Trials in a full shard. */
    int shardTrials();

    /**
     * Whether the phases run on this machine's threads: the pilot's rate per thread then predicts theirs, and phase
     * states can be kept for checkpoint and resume.
     */
    default boolean local() {
        return false;
    }
}

package io.dpaudit.core.engine;

import org.apache.commons.rng.UniformRandomProvider;

/**
 * What one kind of counted trial does in a shard: draws {@code n} trials from the shard's stream, scores them and
 * counts the scores into a shard buffer, which the scheduler ({@link ShardedPhase}) merges into the phase's total in
 * shard order. Every engine counts through this one loop (the local workers and a remote executor alike), so their
 * counts agree bit for bit by construction.
 *
 * @param <S> a shard's counts (recycled between shards: {@link #clear})
 * @param <C> the phase's merged counts
 */
public interface ShardCounter<S, C extends PhaseCounts<C>> {
    /** The kind of trial counted. */
    TrialKind<C> kind();

    /** The histogram layout. */
    HistogramBinning binning();

    /** The attack whose scores are counted. */
    Scorer scorer();

    /** Empty phase counts. */
    C newTotal();

    /** An empty shard buffer. */
    S newShard();

    /** Empties a shard buffer for reuse. */
    void clear(S shard);

    /** A worker with its own scratch space (one per thread; not thread-safe). */
    Worker<S> newWorker();

    /** Adds a shard's counts of {@code n} trials into the phase's total. */
    void merge(C total, S shard, int n);

    /** Counts shards; holds one thread's scratch space. */
    @FunctionalInterface
    interface Worker<S> {
        /** Counts {@code n} trials drawn only from {@code rng} into {@code into}. No allocation per trial. */
        void count(UniformRandomProvider rng, int n, S into);
    }
}

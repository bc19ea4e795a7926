package io.dpaudit.core.engine;

import io.dpaudit.core.rng.RandomStreams;

/**
 * The local engine: every counted phase on this machine's threads through the one scheduler ({@link ShardedPhase}),
 * its state kept in a {@link PhaseStore} when there is one (checkpoint and resume: a phase resumes from the store's
 * prefix of shards, and the store sees the merged counts after every shard).
 */
public final class LocalEngine implements PhaseEngine {
    private final ShardedPhase scheduler;
    private final PhaseStore store;

    /**
     * @param threads worker threads, at least 1
     * @param shardTrials trials in a shard, at least 1
     * @param progress told of merged trials; its {@code check} can stop a phase between shards
     * @param store where phase states are kept and found, or null
     */
    public LocalEngine(int threads, int shardTrials, ProgressListener progress, PhaseStore store) {
        this.scheduler = new ShardedPhase(threads, shardTrials, progress);
        this.store = store;
    }

    /** An engine without a store. */
    public LocalEngine(int threads, int shardTrials, ProgressListener progress) {
        this(threads, shardTrials, progress, null);
    }

    @Override
    public <S, C extends PhaseCounts<C>> C run(String phase, ShardCounter<S, C> counter, long trials,
            RandomStreams streams) {
        if (store == null) {
            return scheduler.run(phase, counter, trials, streams);
        }
        TrialKind<C> kind = counter.kind();
        ShardedPhase.Resume<C> resume = store.restore(phase, kind, counter.binning(), trials);
        return scheduler.run(phase, counter, trials, streams, resume,
                (name, done, count, counts) -> store.merged(name, kind, done, count, counts));
    }

    @Override
    public int shardTrials() {
        return scheduler.shardTrials();
    }

    @Override
    public boolean local() {
        return true;
    }
}

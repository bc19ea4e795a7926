package io.dpaudit.core.engine;

/**
 * Where an audit keeps the state of its counted phases as they run, and finds the state an interrupted run left: the
 * basis of checkpoint and resume. A phase's state is the merged counts of a prefix of its shards, of the phase's kind
 * of trial; since shard {@code j} always draws from the same stream, going on from there gives exactly the counts of an
 * uninterrupted run.
 */
public interface PhaseStore {
    /**
     * The saved state of {@code phase}, or null to run it from the start; a saved state of another kind of trial or on
     * another binning must be refused.
     *
     * @param kind the phase's kind of trial
     * @param binning the binning the phase will use
     * @param trials the phase's trials
     */
    <C extends PhaseCounts<C>> ShardedPhase.Resume<C> restore(String phase, TrialKind<C> kind,
            HistogramBinning binning, long trials);

    /** The merged counts after a shard (called under the scheduler's lock: copy what is kept). */
    <C extends PhaseCounts<C>> void merged(String phase, TrialKind<C> kind, long shardsDone, long shardCount,
            C counts);
}

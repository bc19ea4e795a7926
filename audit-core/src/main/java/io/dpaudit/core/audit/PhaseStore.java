package io.dpaudit.core.audit;

import io.dpaudit.core.engine.CoupledCounts;
import io.dpaudit.core.engine.CoupledPhase;
import io.dpaudit.core.engine.HistogramBinning;
import io.dpaudit.core.engine.MonteCarloEngine;
import io.dpaudit.core.engine.ScoreCounts;

/**
 * Where an audit keeps the state of its counted phases as they run, and finds the state an interrupted run left: the
 * basis of checkpoint and resume. A phase's state is the merged counts of a prefix of its shards; since shard
 * {@code j} always draws from the same stream, going on from there gives exactly the counts of an uninterrupted run.
 */
public interface PhaseStore {
    /**
     * The saved state of {@code phase}, or null to run it from the start.
     *
     * @param binning the binning the phase will use (a saved state on another one must be refused)
     * @param trials the phase's trials per world
     */
    MonteCarloEngine.Resume restore(String phase, HistogramBinning binning, long trials);

    /** The merged counts after a shard (called under the engine's lock: copy what is kept). */
    void merged(String phase, long shardsDone, long shardCount, ScoreCounts counts);

    /**
     * The saved state of a phase of coupled trials ({@link io.dpaudit.core.engine.CoupledPhase}), or null to run it
     * from the start; a saved state of the other kind (trials of each world apart) or on another binning must be
     * refused.
     *
     * @param binning the binning the phase will use
     * @param trials the phase's coupled trials
     */
    CoupledPhase.Resume restoreCoupled(String phase, HistogramBinning binning, long trials);

    /** The merged counts of a coupled phase after a shard (called under the phase's lock: copy what is kept). */
    void mergedCoupled(String phase, long shardsDone, long shardCount, CoupledCounts counts);
}

package io.dpaudit.core.engine;

/**
 * Receives progress of an engine run. Called from engine threads, after each merged shard, in shard order; an
 * implementation must be thread-safe and cheap (throttle any printing itself). Progress is reported separately from
 * results: nothing a listener does can change a result.
 */
@FunctionalInterface
public interface ProgressListener {
    /** A listener that ignores progress. */
    ProgressListener NONE = (phase, done, total, elapsedNanos) -> { };

    /**
     * @param phase name of the running phase (e.g. "selection", "evaluation")
     * @param doneTrials trials per world merged so far in this phase
     * @param totalTrials trials per world of this phase
     * @param elapsedNanos time since the phase started
     */
    void onProgress(String phase, long doneTrials, long totalTrials, long elapsedNanos);

    /**
     * A phase starts, or a step of one that is not counted in trials (a bound being evaluated). Called from the thread
     * that runs the audit, never from engine workers. The default ignores it.
     *
     * @param phase name of the phase (e.g. "pilot", "bounds")
     * @param message what it does, one line
     */
    default void onPhase(String phase, String message) {
    }

    /**
     * Called where the work can stop cleanly (between shards, pilot batches, bounds); a listener that enforces a budget
     * ({@link RunControl}) throws there. Called from engine workers too: it must be thread-safe. The default does
     * nothing.
     *
     * @param where what the work is doing, for a message
     */
    default void check(String where) {
    }
}

package io.dpaudit.core.estimate;

import io.dpaudit.core.engine.World;

/**
 * The four threshold tests a score supports. A test is a set {@code S} of outputs (the upper tail
 * {@code score >= t} or its complement, the lower tail) together with the world it flags. For an
 * {@code (epsilon, delta)}-DP mechanism and every such test,
 * {@code P_flagged(S) <= e^epsilon P_other(S) + delta}; the estimator calls {@code P_flagged(S)} the true-positive
 * rate and {@code P_other(S)} the false-positive rate.
 *
 * <p>Under add/remove adjacency both orders of the neighbouring pair must be tested: tests flagging {@code D} bound
 * the "remove" direction {@code H(M(D) || M(D'))}, tests flagging {@code D'} the "add" direction.
 */
public enum TestDirection {
    /** {@code S = {score >= t}} flags {@code D}: high scores mean the canary is present. */
    UPPER_TAIL_FLAGS_D(World.WITH_CANARY, true),
    /** {@code S = {score < t}} flags {@code D'}: low scores mean the canary is absent. */
    LOWER_TAIL_FLAGS_D_PRIME(World.WITHOUT_CANARY, false),
    /** {@code S = {score >= t}} flags {@code D'}. */
    UPPER_TAIL_FLAGS_D_PRIME(World.WITHOUT_CANARY, true),
    /** {@code S = {score < t}} flags {@code D}. */
    LOWER_TAIL_FLAGS_D(World.WITH_CANARY, false);

    private final World flagged;
    private final boolean upperTail;

    TestDirection(World flagged, boolean upperTail) {
        this.flagged = flagged;
        this.upperTail = upperTail;
    }

    /** The world whose probability of {@code S} is the true-positive rate. */
    public World flagged() {
        return flagged;
    }

    /** The other world (false-positive rate). */
    public World other() {
        return flagged == World.WITH_CANARY ? World.WITHOUT_CANARY : World.WITH_CANARY;
    }

    /** Whether {@code S} is the upper tail {@code score >= t}. */
    public boolean upperTail() {
        return upperTail;
    }

    /** Human-readable form, e.g. {@code "score >= t flags D"}. */
    public String describe() {
        return (upperTail ? "score >= t" : "score < t") + " flags " + flagged.symbol();
    }
}

package io.dpaudit.core.audit;

import io.dpaudit.core.InvalidInputException;
import java.util.Locale;

/**
 * When an audit stops: after its trials all at once ({@link #FIXED}), or sequentially — stages of growing size, every
 * claim judged after each, stopping as soon as every claim is violated or powered-consistent or the trials (then the
 * budget, {@code maxTrials}) are spent ({@link StageSchedule} says how the stages grow and how the error level is
 * spent across the looks).
 *
 * @param sequential whether the audit looks after every stage
 * @param firstStageTrials trials per world of the first stage (sequential only; 0 for the fixed design)
 */
public record Stopping(boolean sequential, long firstStageTrials) {
    /** Trials per world of a sequential audit's first stage unless stated. */
    public static final long DEFAULT_FIRST_STAGE = 1000;
    /** Every trial, then one judgement: the design of an audit that does not say otherwise. */
    public static final Stopping FIXED = new Stopping(false, 0);

    public Stopping {
        if (sequential && firstStageTrials < 2) {
            throw new InvalidInputException("stopping.firstStageTrials", firstStageTrials,
                    "must be at least 2 (the first look splits its stage into trials that choose the test and "
                            + "trials that certify it)");
        }
        if (!sequential && firstStageTrials != 0) {
            throw new IllegalArgumentException("a fixed design has no stages");
        }
    }

    /** Sequential with the default first stage ({@value #DEFAULT_FIRST_STAGE} trials per world). */
    public static final Stopping SEQUENTIAL = new Stopping(true, DEFAULT_FIRST_STAGE);

    /** Sequential with a first stage of {@code firstStageTrials} per world. */
    public static Stopping sequentialFrom(long firstStageTrials) {
        return new Stopping(true, firstStageTrials);
    }

    /** The rule's name in scenarios and reports: {@code fixed} or {@code sequential}. */
    public String rule() {
        return sequential ? "sequential" : "fixed";
    }

    /** The rule and its first stage, as a checkpoint records it (a resume must run the same design). */
    public String describe() {
        return sequential ? String.format(Locale.ROOT, "sequential, first stage %d", firstStageTrials) : "fixed";
    }
}

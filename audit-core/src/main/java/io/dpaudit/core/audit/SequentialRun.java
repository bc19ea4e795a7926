package io.dpaudit.core.audit;

import java.util.List;

/**
 * What a sequential audit did ({@link Stopping}): each look's trials, confidence and verdicts, why it stopped, and
 * the look that decided each claim. The audit's result holds the last look's numbers, except that a claim refuted at
 * an earlier look keeps that look's refutation: every look's statements share the audit's error level
 * ({@link StageSchedule}), so a refutation at any look is one at the audit's confidence.
 *
 * @param firstStageTrials trials per world of the first stage
 * @param maxTrials the budget of trials per world
 * @param looks every look taken, in order
 * @param stop why the audit stopped
 * @param claimLooks for each (ε, δ) claim, the look (from 1) whose judgement the result holds
 * @param tradeOffClaimLooks the same for each f-DP claim
 */
public record SequentialRun(long firstStageTrials, long maxTrials, List<Look> looks, Stop stop,
        List<Integer> claimLooks, List<Integer> tradeOffClaimLooks) {

    public SequentialRun {
        looks = List.copyOf(looks);
        claimLooks = List.copyOf(claimLooks);
        tradeOffClaimLooks = List.copyOf(tradeOffClaimLooks);
    }

    /** Why a sequential audit stopped. */
    public enum Stop {
        /** Every claim was violated (at some look) or powered-consistent (at the last). */
        RESOLVED("every claim resolved"),
        /** The budget was spent with some claim still inconclusive. */
        BUDGET("the budget of trials was spent");

        private final String description;

        Stop(String description) {
            this.description = description;
        }

        /** A few words for reports. */
        public String description() {
            return description;
        }

        /** The name in report.json: {@code resolved} or {@code budget}. */
        public String id() {
            return name().toLowerCase(java.util.Locale.ROOT);
        }
    }

    /**
     * One look.
     *
     * @param look its number, from 1
     * @param trialsPerWorld trials per world of all stages so far
     * @param selectionTrials of those, the trials per world that chose the tests (0 with Bonferroni selection)
     * @param evaluationTrials the trials per world that certified them
     * @param confidence the confidence of each of the look's statements (each source's, when two share it)
     * @param elapsedSeconds wall time from the audit's start to the end of this look's judgement
     * @param claims the look's verdict on each (ε, δ) claim
     * @param tradeOffClaims its verdict on each f-DP claim
     */
    public record Look(int look, long trialsPerWorld, long selectionTrials, long evaluationTrials, double confidence,
            double elapsedSeconds, List<Verdict> claims, List<Verdict> tradeOffClaims) {
        public Look {
            claims = List.copyOf(claims);
            tradeOffClaims = List.copyOf(tradeOffClaims);
        }
    }

    /** The last look. */
    public Look last() {
        return looks.get(looks.size() - 1);
    }

    /** The first look at which claim {@code index} was found violated, or 0 when no look found it violated. */
    public int violatedAt(int index) {
        for (Look l : looks) {
            if (l.claims().get(index) == Verdict.VIOLATED) {
                return l.look();
            }
        }
        return 0;
    }
}

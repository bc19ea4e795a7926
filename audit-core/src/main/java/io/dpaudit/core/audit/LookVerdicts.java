package io.dpaudit.core.audit;

import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

/**
 * The verdicts of an audit across its looks ({@link StageSchedule}), for every audit kind that looks more than once
 * (simulated trials, coupled trials, score files): each look's {@link Judgement.Judged} goes in, and out come the
 * result's claims, the look that decided each, and whether the audit may stop.
 *
 * <p>A claim's result is its judgement at the latest look, except that a refutation stands: once a look finds a
 * claim violated, later looks do not replace it (every look's statements share the audit's error level, so a
 * refutation at any look is one at the audit's confidence). The audit may stop when no claim is inconclusive.
 */
public final class LookVerdicts {
    private final ClaimResult[] claims;
    private final TradeOffClaimResult[] tradeOffClaims;
    private final Integer[] claimLooks;
    private final Integer[] tradeOffLooks;
    private final List<SequentialRun.Look> looks = new ArrayList<>();

    /** For {@code claims} (ε, δ) claims and {@code tradeOffClaims} f-DP claims. */
    public LookVerdicts(int claims, int tradeOffClaims) {
        this.claims = new ClaimResult[claims];
        this.tradeOffClaims = new TradeOffClaimResult[tradeOffClaims];
        this.claimLooks = new Integer[claims];
        this.tradeOffLooks = new Integer[tradeOffClaims];
    }

    /**
     * Records look {@code look}'s judgement and returns whether every claim is now resolved (violated at some look, or
     * consistent at this one).
     *
     * @param judged the look's judgement, one result per claim in order
     * @param trialsPerWorld trials per world of all stages so far
     * @param selectionTrials of those, the ones that chose the tests (0 with Bonferroni selection)
     * @param evaluationTrials the ones that certified them
     * @param confidence the confidence of each of the look's statements
     * @param elapsedSeconds wall time from the audit's start
     */
    public boolean record(int look, Judgement.Judged judged, long trialsPerWorld, long selectionTrials,
            long evaluationTrials, double confidence, double elapsedSeconds) {
        List<Verdict> claimVerdicts = new ArrayList<>();
        for (int i = 0; i < claims.length; i++) {
            ClaimResult c = judged.claims().get(i);
            claimVerdicts.add(c.verdict());
            if (claims[i] == null || claims[i].verdict() != Verdict.VIOLATED) {
                claims[i] = c;
                claimLooks[i] = look;
            }
        }
        List<Verdict> tradeOffVerdicts = new ArrayList<>();
        for (int i = 0; i < tradeOffClaims.length; i++) {
            TradeOffClaimResult c = judged.tradeOffClaims().get(i);
            tradeOffVerdicts.add(c.verdict());
            if (tradeOffClaims[i] == null || tradeOffClaims[i].verdict() != Verdict.VIOLATED) {
                tradeOffClaims[i] = c;
                tradeOffLooks[i] = look;
            }
        }
        looks.add(new SequentialRun.Look(look, trialsPerWorld, selectionTrials, evaluationTrials, confidence,
                elapsedSeconds, claimVerdicts, tradeOffVerdicts));
        return open() == 0;
    }

    /** The claims still inconclusive. */
    private int open() {
        int open = 0;
        for (ClaimResult c : claims) {
            open += c == null || c.verdict() == Verdict.INCONCLUSIVE ? 1 : 0;
        }
        for (TradeOffClaimResult c : tradeOffClaims) {
            open += c == null || c.verdict() == Verdict.INCONCLUSIVE ? 1 : 0;
        }
        return open;
    }

    /** A progress line: how many claims the last look left inconclusive. */
    public String unresolved() {
        return String.format(Locale.ROOT, "look %d: %d of %d claim(s) still inconclusive, going on", last().look(),
                open(), claims.length + tradeOffClaims.length);
    }

    /** The (ε, δ) claims' results. */
    public List<ClaimResult> claims() {
        return List.of(claims);
    }

    /** The f-DP claims' results. */
    public List<TradeOffClaimResult> tradeOffClaims() {
        return List.of(tradeOffClaims);
    }

    /** The last look recorded. */
    public SequentialRun.Look last() {
        return looks.get(looks.size() - 1);
    }

    /** The record of a sequential audit that stopped for {@code stop}. */
    public SequentialRun run(long firstStageTrials, long maxTrials, SequentialRun.Stop stop) {
        return new SequentialRun(firstStageTrials, maxTrials, looks, stop, List.of(claimLooks),
                List.of(tradeOffLooks));
    }
}

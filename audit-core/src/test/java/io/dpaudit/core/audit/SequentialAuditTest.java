package io.dpaudit.core.audit;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.dpaudit.core.InvalidInputException;
import io.dpaudit.core.bounds.GaussianBound;
import io.dpaudit.core.engine.ProgressListener;
import io.dpaudit.core.engine.ShardedPhase;
import io.dpaudit.core.estimate.ThresholdSelection;
import io.dpaudit.core.testing.ShiftedGaussianSampler;
import java.util.List;
import org.junit.jupiter.api.Test;

/** Sequential audits: stages, looks, stopping, and what each look certifies on. */
class SequentialAuditTest {
    private static AuditSettings settings(long budget, long seed, int threads, ThresholdSelection selection) {
        return new AuditSettings(budget, seed, threads, 0.95, selection, 512, 4096,
                ShardedPhase.DEFAULT_SHARD_TRIALS, List.of(1e-5), List.of(1.0));
    }

    private static AuditResult run(double mu, Claim claim, long budget, long seed, int threads,
            ThresholdSelection selection) {
        AuditPlan plan = AuditPlan.of(new ShiftedGaussianSampler(1, mu), ShiftedGaussianSampler.identity(),
                settings(budget, seed, threads, selection)).withClaims(List.of(claim)).withStopping(Stopping.SEQUENTIAL);
        return Auditor.run(plan, ProgressListener.NONE);
    }

    /** A Gaussian pair with mu = 4 claimed (1, 1e-5)-DP (its true epsilon there is about 25): refuted at once. */
    @Test
    void aBrokenClaimIsRefutedAfterTheFirstStagesAndTheAuditStops() {
        Claim claim = new Claim("(1, 1e-5)", 1.0, 1e-5, "test");
        AuditResult r = run(4, claim, 10_000_000, 7, 1, new ThresholdSelection.HeldOut(0.1));
        SequentialRun seq = r.sequential();
        assertEquals(Verdict.VIOLATED, r.claims().get(0).verdict());
        assertEquals(SequentialRun.Stop.RESOLVED, seq.stop());
        assertTrue(seq.last().trialsPerWorld() <= 3_000, "stopped after " + seq.last().trialsPerWorld());
        assertEquals(seq.last().trialsPerWorld(), r.settings().trialsPerWorld());
        assertEquals(seq.last().look(), seq.claimLooks().get(0));
        assertTrue(r.confidence().isSequential());
        assertEquals(0.95, r.confidence().verdicts(), 0);
    }

    /**
     * The exact claim of a Gaussian pair (mu = 1 at epsilon = 1) is correct: it is never refuted, every look's
     * certifying trials are a stage that chose nothing, and the audit runs until the claim is powered or the budget is
     * spent.
     */
    @Test
    void eachLookCertifiesOnTrialsItsSelectionDidNotSee() {
        GaussianBound truth = new GaussianBound(1);
        Claim exact = new Claim("exact", 1.0, truth.delta(1.0), "test");
        AuditResult r = run(1, exact, 100_000, 3, 2, new ThresholdSelection.HeldOut(0.1));
        SequentialRun seq = r.sequential();
        StageSchedule schedule = StageSchedule.of(Stopping.SEQUENTIAL, 100_000, 0.95);
        for (SequentialRun.Look l : seq.looks()) {
            int k = l.look();
            assertNotEquals(Verdict.VIOLATED, l.claims().get(0), "look " + k);
            assertEquals(schedule.trialsThrough(k), l.trialsPerWorld());
            if (k == 1) {
                assertEquals(100, l.selectionTrials());
                assertEquals(900, l.evaluationTrials());
            } else {
                long chosen = schedule.trialsThrough(schedule.selectionStages(k, 0.1));
                assertEquals(chosen, l.selectionTrials(), "look " + k);
                assertEquals(schedule.trialsThrough(k) - chosen, l.evaluationTrials(), "look " + k);
            }
            assertEquals(schedule.confidence(k), l.confidence(), 0, "look " + k);
        }
        assertTrue(seq.stop() == SequentialRun.Stop.BUDGET
                ? seq.last().trialsPerWorld() == 100_000 && r.claims().get(0).verdict() == Verdict.INCONCLUSIVE
                : r.claims().get(0).verdict() == Verdict.CONSISTENT, seq.stop() + " " + r.claims().get(0).verdict());
    }

    /** With Bonferroni selection nothing is chosen on the data: look k evaluates its tests on all stages so far. */
    @Test
    void bonferroniLooksEvaluateEveryStageSoFar() {
        Claim claim = new Claim("(0.5, 1e-5)", 0.5, 1e-5, "test");
        AuditResult r = run(1, claim, 20_000, 5, 1, new ThresholdSelection.Bonferroni(16));
        for (SequentialRun.Look l : r.sequential().looks()) {
            assertEquals(0, l.selectionTrials());
            assertEquals(l.trialsPerWorld(), l.evaluationTrials());
        }
    }

    @Test
    void theSameSeedGivesTheSameLooksOnAnyThreadCount() {
        Claim claim = new Claim("(1.5, 1e-5)", 1.5, 1e-5, "test");
        AuditResult one = run(1.3, claim, 200_000, 11, 1, new ThresholdSelection.HeldOut(0.1));
        AuditResult two = run(1.3, claim, 200_000, 11, 2, new ThresholdSelection.HeldOut(0.1));
        assertEquals(one.sequential().looks().size(), two.sequential().looks().size());
        for (int k = 0; k < one.sequential().looks().size(); k++) {
            assertEquals(one.sequential().looks().get(k).claims(), two.sequential().looks().get(k).claims());
        }
        assertEquals(one.claims().get(0).deltaLowerBound().delta(), two.claims().get(0).deltaLowerBound().delta(), 0);
        assertEquals(one.epsilonLowerBounds().get(0).epsilon(), two.epsilonLowerBounds().get(0).epsilon(), 0);
        assertEquals(one.streamsUsed(), two.streamsUsed());
    }

    @Test
    void aFixedDesignHasOneLookAndNoRecord() {
        AuditPlan plan = AuditPlan.of(new ShiftedGaussianSampler(1, 1), ShiftedGaussianSampler.identity(),
                settings(5_000, 1, 1, new ThresholdSelection.HeldOut(0.1)))
                .withClaims(List.of(new Claim("c", 1, 1e-5, "test")));
        AuditResult r = Auditor.run(plan, ProgressListener.NONE);
        assertNull(r.sequential());
        assertEquals(5_000, r.settings().trialsPerWorld());
        assertEquals(500, r.selectionTrials());
        assertTrue(!r.confidence().isSequential());
    }

    @Test
    void aSequentialAuditWithoutAClaimIsRefused() {
        AuditPlan plan = AuditPlan.of(new ShiftedGaussianSampler(1, 1), ShiftedGaussianSampler.identity(),
                settings(5_000, 1, 1, new ThresholdSelection.HeldOut(0.1))).withStopping(Stopping.SEQUENTIAL);
        InvalidInputException e = assertThrows(InvalidInputException.class, plan::validate);
        assertTrue(e.getMessage().contains("stopping.rule"), e.getMessage());
        AuditPlan tiny = plan.withClaims(List.of(new Claim("c", 1, 1e-5, "test")))
                .withStopping(Stopping.sequentialFrom(4));
        InvalidInputException f = assertThrows(InvalidInputException.class, tiny::validate);
        assertTrue(f.getMessage().contains("stopping.firstStageTrials"), f.getMessage());
    }
}

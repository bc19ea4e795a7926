package io.dpaudit.core.estimate.profile;

import io.dpaudit.core.estimate.ThresholdSelection;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.dpaudit.core.audit.AuditPlan;
import io.dpaudit.core.audit.AuditResult;
import io.dpaudit.core.audit.AuditSettings;
import io.dpaudit.core.audit.Auditor;
import io.dpaudit.core.audit.Claim;
import io.dpaudit.core.audit.EstimateVerdict;
import io.dpaudit.core.bounds.GaussianBound;
import io.dpaudit.core.bounds.PoissonSubsampledGaussianBound;
import io.dpaudit.core.bounds.PrivacyBound;
import io.dpaudit.core.engine.HistogramBinning;
import io.dpaudit.core.engine.LossBracket;
import io.dpaudit.core.engine.ShardedPhase;
import io.dpaudit.core.engine.ProgressListener;
import io.dpaudit.core.engine.ScoreCounts;
import io.dpaudit.core.testing.ShiftedGaussianLoss;
import io.dpaudit.core.testing.ShiftedGaussianSampler;
import java.util.List;
import org.junit.jupiter.api.Test;

/** The two-sided privacy-loss estimate: exact arithmetic on counts, containment of exact curves, detection. */
class PrivacyLossEstimatorTest {

    static AuditResult estimate(ShiftedGaussianSampler sampler, ShiftedGaussianLoss loss, long trials, long seed,
            List<Claim> claims) {
        AuditSettings s = new AuditSettings(trials, seed, 2, 0.95, new ThresholdSelection.HeldOut(0.1), 512, 4096,
                ShardedPhase.DEFAULT_SHARD_TRIALS, List.of(1e-3), List.of(1.0));
        return Auditor.run(AuditPlan.of(sampler, ShiftedGaussianSampler.identity(), s).withClaims(claims)
                .withLossScorer(loss), ProgressListener.NONE);
    }

    /** Counts of a rank binning give the sample means of (1 - e^{eps - L})_+ exactly (no bracket width). */
    @Test
    void exactCountsGiveTheSampleMeanAsPointEstimate() {
        double[] values = {-1.0, 0.0, 0.5, 2.0};
        HistogramBinning ranks = HistogramBinning.ranks(values);
        // slot r+1 holds rank r
        long[] with = {0, 10, 20, 30, 40};
        long[] without = {0, 40, 30, 20, 10};
        ScoreCounts c = ScoreCounts.of(ranks, with, without);
        PrivacyLossEstimate e = PrivacyLossEstimator.estimate(c, LossBracket.within(0, 0), 0.95,
                new double[] {0.0, 0.25, 1.0});
        for (PrivacyLossEstimate.DeltaInterval d : e.grid()) {
            double a = 0;
            double b = 0;
            for (int r = 0; r < values.length; r++) {
                a += with[r + 1] * Math.max(0, 1 - Math.exp(d.epsilon() - values[r]));
                b += without[r + 1] * Math.max(0, 1 - Math.exp(d.epsilon() + values[r]));
            }
            assertEquals(Math.max(a, b) / 100, d.estimate(), 1e-15, "eps " + d.epsilon());
            assertTrue(d.lower() <= d.estimate() && d.estimate() <= d.upper());
        }
        assertEquals(0, e.tailTrials());
    }

    /** Gaussian (mu = 1) at 10^6 trials: every interval on the grid contains the exact profile. */
    @Test
    void intervalsContainTheExactGaussianProfile() {
        AuditResult r = estimate(new ShiftedGaussianSampler(1, 1), new ShiftedGaussianLoss(1, 1), 1_000_000, 7,
                List.of());
        assertContains(r.estimate(), new GaussianBound(1));
        PrivacyLossEstimate.EpsilonInterval at = r.estimate().epsilonAt(1e-3);
        double exact = new GaussianBound(1).epsilon(1e-3);
        assertTrue(at.lower() <= exact && exact <= at.upper(), at + " vs " + exact);
        assertTrue(at.upper() - at.lower() < 0.1 * exact, "width " + at);
    }

    /** Poisson-subsampled Gaussian (q = 0.1, mu = 2): both directions matter; intervals contain the exact profile. */
    @Test
    void intervalsContainTheExactSubsampledProfile() {
        AuditResult r = estimate(new ShiftedGaussianSampler(0.1, 2), new ShiftedGaussianLoss(0.1, 2), 1_000_000, 8,
                List.of());
        assertContains(r.estimate(), new PoissonSubsampledGaussianBound(0.1, 2));
    }

    /**
     * Planted bug: the mechanism adds noise for mu = 1.25 while the claim is the exact mu = 1 curve at delta = 1e-3.
     * The claim is then violated, and an honest claim at mu = 1.25 is tight, and a claim at twice its epsilon loose.
     */
    @Test
    void threeVerdicts() {
        GaussianBound claimed = new GaussianBound(1);
        GaussianBound truth = new GaussianBound(1.25);
        double eps = claimed.epsilon(1e-3);
        double trueEps = truth.epsilon(1e-3);
        List<Claim> claims = List.of(new Claim("too small noise", eps, 1e-3, "test"),
                new Claim("exact", trueEps, truth.delta(trueEps), "test"),
                new Claim("generous", 2 * trueEps, 1e-3, "test"));
        AuditResult r = estimate(new ShiftedGaussianSampler(1, 1.25), new ShiftedGaussianLoss(1, 1.25), 1_000_000,
                9, claims);
        assertEquals(EstimateVerdict.VIOLATED, r.claims().get(0).estimate().verdict());
        assertEquals(EstimateVerdict.TIGHT, r.claims().get(1).estimate().verdict());
        assertEquals(EstimateVerdict.LOOSE, r.claims().get(2).estimate().verdict());
        PrivacyLossEstimate.EpsilonInterval req = r.claims().get(2).estimate().requiredEpsilon();
        assertTrue(req.lower() <= trueEps && trueEps <= req.upper(), req + " vs " + trueEps);
        assertTrue(r.claims().get(2).estimate().loosenessFactor(claims.get(2)) > 1.8);
    }

    /** Same seed, any thread count: the same numbers; and the audit's own numbers are unchanged by the estimate. */
    @Test
    void deterministicAndIndependentOfTheAudit() {
        ShiftedGaussianSampler m = new ShiftedGaussianSampler(1, 1);
        AuditSettings one = new AuditSettings(300_000, 3, 1, 0.95, new ThresholdSelection.HeldOut(0.1), 512, 4096,
                1 << 16, List.of(1e-3), List.of(1.0));
        AuditResult a = Auditor.run(AuditPlan.of(m, ShiftedGaussianSampler.identity(), one)
                .withLossScorer(new ShiftedGaussianLoss(1, 1)), ProgressListener.NONE);
        AuditResult b = Auditor.run(AuditPlan.of(m, ShiftedGaussianSampler.identity(), one.with(300_000, 3, 2))
                .withLossScorer(new ShiftedGaussianLoss(1, 1)), ProgressListener.NONE);
        AuditResult plain = Auditor.run(AuditPlan.of(m, ShiftedGaussianSampler.identity(), one),
                ProgressListener.NONE);
        assertEquals(a.estimate(), b.estimate());
        assertEquals(plain.epsilonLowerBounds(), a.epsilonLowerBounds());
        assertFalse(a.estimate().grid().isEmpty());
    }

    static void assertContains(PrivacyLossEstimate e, PrivacyBound truth) {
        for (PrivacyLossEstimate.DeltaInterval d : e.grid()) {
            double t = truth.delta(d.epsilon());
            assertTrue(d.lower() <= t && t <= d.upper() * (1 + 1e-9) + 1e-300,
                    "eps " + d.epsilon() + ": exact " + t + " outside [" + d.lower() + ", " + d.upper() + "]");
        }
    }
}

package io.dpaudit.core.audit;

import static org.junit.jupiter.api.Assertions.assertTrue;

import io.dpaudit.core.bounds.GaussianBound;
import io.dpaudit.core.bounds.PoissonSubsampledGaussianBound;
import io.dpaudit.core.bounds.PrivacyBound;
import io.dpaudit.core.engine.ShardedPhase;
import io.dpaudit.core.engine.ProgressListener;
import io.dpaudit.core.estimate.ThresholdSelection;
import io.dpaudit.core.estimate.tradeoff.TradeOffCertification;
import io.dpaudit.core.testing.ShiftedGaussianSampler;
import java.util.List;
import org.apache.commons.math3.distribution.BinomialDistribution;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

/**
 * Soundness of the whole estimator: a correct claim is flagged no more often than {@code 1 - confidence}.
 *
 * <p>Each test runs R independent audits (seeds 1..R) of claims that are exactly on the true privacy profile (the
 * hardest correct claims) and counts violations V. If the auditor is sound, V is stochastically at most
 * Binomial(R, 0.05); the test fails when V exceeds that law's 0.999 quantile, so a sound auditor fails it with
 * probability at most 0.1% (for a random choice of seeds; with the fixed seeds here the outcome is deterministic).
 * An auditor that certified its tests on the data that selected them, or used plug-in rates, fails it (see the
 * negative control).
 */
@Tag("statistical")
class AuditorSoundnessTest {
    private static final int REPEATS = 300;
    private static final long TRIALS = 4_000;

    private static int violations(ShiftedGaussianSampler sampler, PrivacyBound truth, ThresholdSelection selection,
            double epsilon) {
        Claim tight = new Claim("exact", epsilon, truth.delta(epsilon), "test");
        int v = 0;
        for (int seed = 1; seed <= REPEATS; seed++) {
            AuditSettings s = new AuditSettings(TRIALS, seed, 1, 0.95, selection, 512, 4096,
                    ShardedPhase.DEFAULT_SHARD_TRIALS, List.of(), List.of());
            AuditResult r = Auditor.run(AuditPlan.of(sampler, ShiftedGaussianSampler.identity(), s)
                    .withClaims(List.of(tight)), ProgressListener.NONE);
            if (r.anyViolated()) {
                v++;
            }
        }
        System.out.printf("[soundness] %s, %s, epsilon %s: %d of %d correct claims flagged (limit %d)%n",
                sampler.description(), selection.describe(), epsilon, v, REPEATS, threshold());
        return v;
    }

    private static int threshold() {
        return new BinomialDistribution(null, REPEATS, 0.05).inverseCumulativeProbability(0.999);
    }

    @Test
    void heldOutSelectionFlagsCorrectGaussianClaimsRarely() {
        for (double eps : new double[] {0.0, 1.0}) {
            int v = violations(new ShiftedGaussianSampler(1, 1), new GaussianBound(1), new ThresholdSelection.HeldOut(0.1), eps);
            assertTrue(v <= threshold(), "epsilon " + eps + ": " + v + " of " + REPEATS + " correct claims flagged");
        }
    }

    @Test
    void heldOutSelectionFlagsCorrectSubsampledClaimsRarely() {
        // Asymmetric mixture: the add and remove directions differ, so all four test directions are in play.
        int v = violations(new ShiftedGaussianSampler(0.3, 2), new PoissonSubsampledGaussianBound(0.3, 2),
                new ThresholdSelection.HeldOut(0.2), 0.5);
        assertTrue(v <= threshold(), v + " of " + REPEATS + " correct claims flagged");
    }

    /**
     * Negative control: the same test applied to a naive auditor (plug-in rates, threshold chosen and certified on
     * the same trials) must fail, or the test above could not tell a sound auditor from an unsound one.
     */
    @Test
    void aNaivePlugInAuditorFailsTheSameCriterion() {
        GaussianBound truth = new GaussianBound(1);
        double eps = 1.0;
        double claimed = truth.delta(eps);
        ShiftedGaussianSampler sampler = new ShiftedGaussianSampler(1, 1);
        int v = 0;
        for (int seed = 1; seed <= REPEATS; seed++) {
            io.dpaudit.core.rng.RandomStreams streams = new io.dpaudit.core.rng.RandomStreams(seed);
            io.dpaudit.core.engine.HistogramBinning bins = new io.dpaudit.core.engine.HistogramBinning(-6, 7, 512);
            io.dpaudit.core.engine.ScoreCounts c = new io.dpaudit.core.engine.ShardedPhase(1, 1 << 20,
                    ProgressListener.NONE).run("naive", new io.dpaudit.core.engine.IndependentShards(sampler,
                            ShiftedGaussianSampler.identity(), bins), TRIALS, streams);
            long[] up = c.upperTail(io.dpaudit.core.engine.World.WITH_CANARY);
            long[] upPrime = c.upperTail(io.dpaudit.core.engine.World.WITHOUT_CANARY);
            double best = 0;
            for (int k = 0; k < up.length; k++) {
                best = Math.max(best, (double) up[k] / TRIALS - Math.exp(eps) * upPrime[k] / TRIALS);
            }
            if (best > claimed) {
                v++;
            }
        }
        System.out.printf("[soundness] naive plug-in auditor: %d of %d correct claims flagged (limit %d)%n", v,
                REPEATS, threshold());
        assertTrue(v > threshold(), "the criterion must catch the naive auditor: " + v);
    }

    @Test
    void bonferroniFlagsCorrectClaimsRarely() {
        int v = violations(new ShiftedGaussianSampler(1, 1), new GaussianBound(1), new ThresholdSelection.Bonferroni(16), 0.5);
        assertTrue(v <= threshold(), v + " of " + REPEATS + " correct claims flagged");
    }

    /**
     * f-DP claims exactly on the truth ({@code G_1} for the Gaussian with {@code mu = 1}) are flagged no more often than
     * {@code 1 - confidence}, with either way of certifying the curve: the points hold simultaneously.
     */
    @Test
    void exactGdpClaimsAreFlaggedRarely() {
        ShiftedGaussianSampler sampler = new ShiftedGaussianSampler(1, 1);
        TradeOffClaim exact = TradeOffClaim.gdp("exact", 1.0, "test");
        for (TradeOffCertification.Method m : TradeOffCertification.Method.values()) {
            int v = 0;
            for (int seed = 1; seed <= REPEATS; seed++) {
                AuditSettings s = new AuditSettings(TRIALS, seed, 1, 0.95, new ThresholdSelection.HeldOut(0.1), 512,
                        4096, ShardedPhase.DEFAULT_SHARD_TRIALS, List.of(), List.of(),
                        new AuditSettings.TradeOffSettings(m, TradeOffCertification.DEFAULT_GRID));
                AuditResult r = Auditor.run(AuditPlan.of(sampler, ShiftedGaussianSampler.identity(), s)
                        .withTradeOffClaims(List.of(exact)), ProgressListener.NONE);
                if (r.anyViolated()) {
                    v++;
                }
            }
            System.out.printf("[soundness] G_1 claim, %s: %d of %d flagged (limit %d)%n", m.label(), v, REPEATS,
                    threshold());
            assertTrue(v <= threshold(), m.label() + ": " + v + " of " + REPEATS + " exact GDP claims flagged");
        }
    }
}

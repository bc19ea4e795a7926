package io.dpaudit.core.audit;

import static org.junit.jupiter.api.Assertions.assertTrue;

import io.dpaudit.core.bounds.GaussianBound;
import io.dpaudit.core.bounds.PoissonSubsampledGaussianBound;
import io.dpaudit.core.bounds.PrivacyBound;
import io.dpaudit.core.engine.ProgressListener;
import io.dpaudit.core.engine.ShardedPhase;
import io.dpaudit.core.estimate.ThresholdSelection;
import io.dpaudit.core.testing.ShiftedGaussianSampler;
import java.util.List;
import org.apache.commons.math3.distribution.BinomialDistribution;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

/**
 * The false-alarm rate of sequential audits over all their looks: a correct claim is refuted at some look no more
 * often than {@code 1 - confidence}.
 *
 * <p>Each test runs {@value #REPEATS} sequential audits (seeds 1 to {@value #REPEATS}, stages of 1,000 then twice as
 * many up to a budget of {@value #BUDGET} trials per world: five looks unless every claim resolves earlier) of a claim
 * exactly on the pair's true privacy profile, the hardest correct claim, and counts the audits in which any look
 * refuted it. A sound procedure makes that count at most Binomial(200, 0.05) in law; the test fails above that law's
 * 0.999 quantile (21), so a sound auditor fails it with probability at most 0.1% over seeds (with these fixed seeds
 * the outcome is deterministic). What this measures is that no look leaks: a look certifying on trials that chose
 * its test, or carrying a refutation it should not, shows up as flagged exact claims. It cannot show the spending
 * across looks ({@link StageSchedule}) is needed: Clopper–Pearson certification flags these exact claims far less
 * often than its level (0 to 2 in 300 at one look, {@code AuditorSoundnessTest}), so even looks at the whole level each
 * would pass here. The spending is proved (the union bound, {@code docs/how-the-audit-works.md}), not measured.
 */
@Tag("statistical")
class SequentialSoundnessTest {
    private static final int REPEATS = 200;
    private static final long BUDGET = 31_000;

    private static int refuted(ShiftedGaussianSampler sampler, PrivacyBound truth, ThresholdSelection selection,
            double epsilon) {
        Claim exact = new Claim("exact", epsilon, truth.delta(epsilon), "test");
        int refuted = 0;
        int looks = 0;
        for (int seed = 1; seed <= REPEATS; seed++) {
            AuditSettings s = new AuditSettings(BUDGET, seed, 1, 0.95, selection, 512, 4096,
                    ShardedPhase.DEFAULT_SHARD_TRIALS, List.of(), List.of());
            AuditResult r = Auditor.run(AuditPlan.of(sampler, ShiftedGaussianSampler.identity(), s)
                    .withClaims(List.of(exact)).withStopping(Stopping.SEQUENTIAL), ProgressListener.NONE);
            refuted += r.anyViolated() ? 1 : 0;
            looks += r.sequential().looks().size();
        }
        System.out.printf("[sequential soundness] %s, %s, epsilon %s: %d of %d audits refuted a correct claim at some "
                + "look (limit %d); %.2f looks per audit%n", sampler.description(), selection.describe(), epsilon,
                refuted, REPEATS, limit(), (double) looks / REPEATS);
        return refuted;
    }

    private static int limit() {
        return new BinomialDistribution(null, REPEATS, 0.05).inverseCumulativeProbability(0.999);
    }

    @Test
    void heldOutLooksRefuteCorrectGaussianClaimsRarely() {
        int v = refuted(new ShiftedGaussianSampler(1, 1), new GaussianBound(1), new ThresholdSelection.HeldOut(0.1),
                1.0);
        assertTrue(v <= limit(), v + " of " + REPEATS);
    }

    @Test
    void heldOutLooksRefuteCorrectSubsampledClaimsRarely() {
        int v = refuted(new ShiftedGaussianSampler(0.3, 2), new PoissonSubsampledGaussianBound(0.3, 2),
                new ThresholdSelection.HeldOut(0.2), 0.5);
        assertTrue(v <= limit(), v + " of " + REPEATS);
    }

    @Test
    void bonferroniLooksRefuteCorrectGaussianClaimsRarely() {
        int v = refuted(new ShiftedGaussianSampler(1, 1), new GaussianBound(1), new ThresholdSelection.Bonferroni(16),
                0.5);
        assertTrue(v <= limit(), v + " of " + REPEATS);
    }
}

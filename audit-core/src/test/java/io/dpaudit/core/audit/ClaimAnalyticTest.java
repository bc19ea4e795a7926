package io.dpaudit.core.audit;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.dpaudit.core.bounds.BoundKind;
import io.dpaudit.core.bounds.GaussianBound;
import io.dpaudit.core.bounds.PrivacyBound;
import io.dpaudit.core.engine.ProgressListener;
import io.dpaudit.core.engine.ShardedPhase;
import io.dpaudit.core.estimate.ThresholdSelection;
import io.dpaudit.core.testing.ShiftedGaussianSampler;
import java.util.List;
import java.util.Set;
import org.junit.jupiter.api.Test;

/**
 * The analytic evidence: a proven lower bound of the mechanism refutes a claim below it, with no trials to speak of
 * (1,000 per world, where the attack sees nothing at δ = 1e-6), and never a claim above it. The mechanism is the
 * Gaussian with mu = 1 (sigma = 1), whose exact curve stands in for its proven lower bound (it is one: the truth).
 */
class ClaimAnalyticTest {
    /** The Gaussian's exact curve, declared a proven lower bound on the mechanism's δ. */
    private static final PrivacyBound TRUTH = new PrivacyBound() {
        @Override
        public String name() {
            return "exact-gaussian";
        }

        @Override
        public String source() {
            return "the Gaussian mechanism's exact curve, mu = 1";
        }

        @Override
        public BoundKind kind() {
            return BoundKind.LOWER_BOUND;
        }

        @Override
        public double delta(double epsilon) {
            return GaussianBound.exactDelta(epsilon, 1.0);
        }
    };

    private static AuditResult audit(List<Claim> claims) {
        AuditSettings s = new AuditSettings(1000, 3, 1, 0.95, new ThresholdSelection.HeldOut(0.1), 1024, 4096,
                ShardedPhase.DEFAULT_SHARD_TRIALS, List.of(1e-6), List.of());
        return Auditor.run(AuditPlan.of(new ShiftedGaussianSampler(1, 1), ShiftedGaussianSampler.identity(), s)
                .withClaims(claims).withProvenLowerBounds(List.of(TRUTH)), ProgressListener.NONE);
    }

    @Test
    void aProvenLowerBoundRefutesAClaimBelowItAndNoneAbove() {
        double truth = GaussianBound.of(1, 1, 1).epsilon(1e-6); // 4.4, about
        AuditResult r = audit(List.of(new Claim("ten per cent under", 0.9 * truth, 1e-6, "stated"),
                new Claim("one per cent over", 1.01 * truth, 1e-6, "stated"),
                new Claim("pure DP", 10, 0, "stated")));
        ClaimResult under = r.claims().get(0);
        assertEquals(Verdict.VIOLATED, under.verdict());
        assertEquals(Set.of(Evidence.ANALYTIC), under.decidedBy()); // the attack's 1,000 trials see nothing here
        assertEquals("exact-gaussian", under.analytic().bound());
        assertTrue(under.analytic().delta() > 1e-6, under.analytic().toString());
        ClaimResult over = r.claims().get(1);
        assertTrue(over.verdict() != Verdict.VIOLATED, over.toString());
        assertTrue(over.analytic().delta() < 1e-6 && over.analytic().delta() > 0, over.analytic().toString());
        // ε-DP with δ = 0: the Gaussian is no pure-DP mechanism, and its curve is positive at every ε
        assertEquals(Verdict.VIOLATED, r.claims().get(2).verdict());
        assertTrue(r.claims().get(2).refutedBy(Evidence.ANALYTIC));
    }

    @Test
    void onlyProvenLowerBoundsAreEvidence() {
        AuditPlan plan = AuditPlan.of(new ShiftedGaussianSampler(1, 1), ShiftedGaussianSampler.identity(),
                new AuditSettings(1000, 3, 1, 0.95, new ThresholdSelection.HeldOut(0.1), 1024, 4096,
                        ShardedPhase.DEFAULT_SHARD_TRIALS, List.of(1e-6), List.of()));
        assertThrows(IllegalArgumentException.class, () -> plan.withProvenLowerBounds(List.of(GaussianBound.of(1, 1,
                1))));
        List<ClaimAnalytic> none = ClaimAnalytic.of(List.of(new Claim("c", 1, 1e-6, "stated")), List.of());
        assertNull(none.get(0));
    }
}

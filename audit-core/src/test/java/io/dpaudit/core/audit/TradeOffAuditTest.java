package io.dpaudit.core.audit;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.dpaudit.core.engine.ShardedPhase;
import io.dpaudit.core.engine.ProgressListener;
import io.dpaudit.core.estimate.tradeoff.CertifiedTradeOff;
import io.dpaudit.core.estimate.ThresholdSelection;
import io.dpaudit.core.fdp.GaussianTradeOff;
import io.dpaudit.core.testing.ShiftedGaussianSampler;
import java.util.List;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

/**
 * The certified trade-off curve of the Gaussian mechanism ({@code mu = 1}) on fixed seeds: every certified point lies
 * on or above the exact {@code G_1} (it never certifies more leakage than there is), the envelope approaches
 * {@code G_1} as trials grow, and at 10^8 trials per world the GDP lower bound is within 5% of {@code mu}. Each
 * statement holds at 95% confidence for a random seed; the seeds are fixed, so the outcome is reproducible.
 */
@Tag("statistical")
class TradeOffAuditTest {
    private static CertifiedTradeOff audit(long trials, long seed) {
        AuditSettings s = new AuditSettings(trials, seed, 2, 0.95, new ThresholdSelection.HeldOut(0.1), 8192, 65536,
                ShardedPhase.DEFAULT_SHARD_TRIALS, List.of(), List.of());
        return Auditor.run(AuditPlan.of(new ShiftedGaussianSampler(1, 1), ShiftedGaussianSampler.identity(), s),
                ProgressListener.NONE).tradeOff();
    }

    /** The largest {@code beta_u - G_1(alpha_u)} over the envelope's vertices between alpha = 0.01 and 0.99. */
    private static double gap(CertifiedTradeOff c) {
        GaussianTradeOff g = new GaussianTradeOff(1);
        double worst = 0;
        for (CertifiedTradeOff.Point p : c.envelope()) {
            if (p.alpha() >= 0.01 && p.alpha() <= 0.99) {
                worst = Math.max(worst, p.beta() - g.beta(p.alpha()));
            }
        }
        return worst;
    }

    @Test
    void theCertifiedCurveIsAboveTheTruthAndApproachesIt() {
        GaussianTradeOff g = new GaussianTradeOff(1);
        double previousGap = Double.POSITIVE_INFINITY;
        for (long n : new long[] {1_000_000L, 10_000_000L, 100_000_000L}) {
            CertifiedTradeOff c = audit(n, 11);
            for (CertifiedTradeOff.Point p : c.points()) {
                assertTrue(p.beta() >= g.beta(p.alpha()) && p.alpha() >= g.beta(p.beta()), n + ": " + p);
            }
            double gap = gap(c);
            assertTrue(gap < previousGap, n + ": gap " + gap + " not below " + previousGap);
            previousGap = gap;
            System.out.printf("[trade-off] N = %d: mu_lb = %.5f, envelope gap %.3g%n", n, c.gdpMuLowerBound(), gap);
            if (n == 100_000_000L) {
                assertEquals(1.0, c.gdpMuLowerBound(), 0.05);
                assertTrue(c.gdpMuLowerBound() <= 1.0);
            }
        }
    }
}

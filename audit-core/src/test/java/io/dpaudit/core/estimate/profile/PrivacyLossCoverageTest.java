package io.dpaudit.core.estimate.profile;

import static org.junit.jupiter.api.Assertions.assertTrue;

import io.dpaudit.core.audit.AuditResult;
import io.dpaudit.core.bounds.GaussianBound;
import io.dpaudit.core.bounds.PoissonSubsampledGaussianBound;
import io.dpaudit.core.bounds.PrivacyBound;
import io.dpaudit.core.testing.ShiftedGaussianLoss;
import io.dpaudit.core.testing.ShiftedGaussianSampler;
import java.util.List;
import org.apache.commons.math3.distribution.BinomialDistribution;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

/**
 * Coverage of the privacy-loss estimate: over R = 200 independent runs (seeds 1..200) the event "every interval on
 * the grid, and the ε(δ) intervals at δ = 10^-2 and 10^-3, contain the exact profile" must occur in at least the
 * 0.001 quantile of Binomial(R, 0.95) runs. If the estimate's simultaneous coverage is at least its stated 95%, the
 * test fails with probability at most 0.1% (for random seeds; with these fixed seeds it is deterministic). The
 * printed coverage is usually far above 95%: the union bound over the grid and the empirical-Bernstein constants are
 * conservative, which the test does not hide.
 */
@Tag("statistical")
class PrivacyLossCoverageTest {
    private static final int RUNS = 200;
    private static final long TRIALS = 20_000;

    private static int covered(double q, double mu, PrivacyBound truth) {
        int ok = 0;
        for (int seed = 1; seed <= RUNS; seed++) {
            AuditResult r = PrivacyLossEstimatorTest.estimate(new ShiftedGaussianSampler(q, mu),
                    new ShiftedGaussianLoss(q, mu), TRIALS, seed, List.of());
            boolean all = true;
            for (PrivacyLossEstimate.DeltaInterval d : r.estimate().grid()) {
                double t = truth.delta(d.epsilon());
                all &= d.lower() <= t && t <= d.upper() * (1 + 1e-9);
            }
            for (double delta : new double[] {1e-2, 1e-3}) {
                PrivacyLossEstimate.EpsilonInterval e = r.estimate().epsilonAt(delta);
                double t = truth.epsilon(delta);
                all &= e.lower() <= t && t <= e.upper();
            }
            ok += all ? 1 : 0;
        }
        System.out.printf("[coverage] q = %s, mu = %s: %d of %d runs covered the exact profile everywhere "
                + "(limit %d)%n", q, mu, ok, RUNS, limit());
        return ok;
    }

    private static int limit() {
        return new BinomialDistribution(null, RUNS, 0.95).inverseCumulativeProbability(0.001);
    }

    @Test
    void gaussianCoverage() {
        assertTrue(covered(1, 1, new GaussianBound(1)) >= limit());
    }

    @Test
    void subsampledGaussianCoverage() {
        assertTrue(covered(0.2, 2, new PoissonSubsampledGaussianBound(0.2, 2)) >= limit());
    }
}

package io.dpaudit.mechanisms.gaussian;

import static org.junit.jupiter.api.Assertions.assertTrue;

import io.dpaudit.core.accounting.Adjacency;
import io.dpaudit.core.accounting.DpEvent;
import io.dpaudit.core.accounting.GdpAccountant;
import io.dpaudit.core.bounds.PrivacyBound;
import org.junit.jupiter.api.Test;

/**
 * The central-limit approximation's closed-form calibration meets its target and is tight: at the returned sigma the
 * GDP accountant's δ(ε) is at most the target, and 1e-6 less noise exceeds it — from T = 1 to T = 5e5 and ε up to 1000
 * (where searching sigma through the accountant took minutes).
 */
class CentralLimitCalibrationTest {
    private static double delta(double q, double sigma, int rounds, double eps) {
        PrivacyBound b = new GdpAccountant().account("gdp-clt", new DpEvent.SelfComposed(new DpEvent.PoissonSampled(q,
                new DpEvent.Gaussian(sigma, 1.0)), rounds), Adjacency.ADD_REMOVE);
        return b.delta(eps);
    }

    @Test
    void closedFormMeetsTheTargetTightly() {
        double[][] cases = {{0.01, 1, 1, 1e-5}, {0.01, 1000, 1, 1e-5}, {0.01, 500_000, 1, 1e-5}, {0.1, 100, 1000, 1e-5},
            {0.001, 10, 0.1, 1e-10}};
        for (double[] c : cases) {
            double q = c[0];
            int rounds = (int) c[1];
            double eps = c[2];
            double target = c[3];
            double s = PoissonSubsampledGaussian.cltSigma(q, 1.0, rounds, eps, target);
            assertTrue(delta(q, s, rounds, eps) <= target, "meets the target at T = " + rounds + ", eps = " + eps);
            assertTrue(delta(q, s * (1 - 1e-6), rounds, eps) > target, "tight at T = " + rounds + ", eps = " + eps);
        }
    }
}

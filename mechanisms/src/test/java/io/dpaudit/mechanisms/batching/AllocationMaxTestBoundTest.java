package io.dpaudit.mechanisms.batching;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.dpaudit.core.bounds.BoundKind;
import io.dpaudit.core.bounds.GaussianBound;
import io.dpaudit.mechanisms.batching.BatchingParameters.Sampler;
import org.junit.jupiter.api.Test;

/**
 * The max-test lower bounds {@code bnb-max-test} and {@code allocation-max-test} (formula sheet §14.1): exact where a
 * threshold test is optimal, below every proven upper bound, growing with the epochs, and at the value issue 59
 * measured for balls-and-bins at T = 1000, σ = 0.5.
 */
class AllocationMaxTestBoundTest {
    private static AllocationMaxTestBound bound(Sampler sampler, int steps, int epochs, double sigma, int k) {
        return new AllocationMaxTestBound(new BatchingParameters(sampler, steps, epochs, sigma, k, false));
    }

    @Test
    void atOneStepItIsTheGaussianPairsCurve() {
        AllocationMaxTestBound max = bound(Sampler.BALLS_AND_BINS, 1, 1, 1.5, 1);
        GaussianBound exact = GaussianBound.of(1.5, 1.0, 1);
        for (double eps : new double[] {0, 0.5, 1, 2, 4}) {
            double truth = exact.delta(eps);
            double got = max.delta(eps);
            assertTrue(got <= truth * (1 + 1e-12) && got >= truth * (1 - 1e-6), "eps " + eps + ": " + got + " vs "
                    + truth);
        }
        assertEquals(BoundKind.LOWER_BOUND, max.kind());
        assertEquals("bnb-max-test", max.name());
        assertEquals("allocation-max-test", bound(Sampler.RANDOM_ALLOCATION, 10, 1, 1, 2).name());
    }

    @Test
    void ballsAndBinsAtTheIssuesSettingsMatchesItsMeasuredValue() {
        // Issue 59: at T = 1000, sigma = 0.5, eps = 7 the free max test gives delta 3.19e-10 (the truth is near
        // 3.2e-10), where the allocation PLD's lower end gave 4.98e-11.
        double d = bound(Sampler.BALLS_AND_BINS, 1000, 1, 0.5, 1).delta(7);
        assertTrue(d > 3.15e-10 && d < 3.23e-10, "delta " + d);
    }

    @Test
    void itStaysBelowTheDeterministicUpperBoundAndGrowsWithEpochs() {
        for (int k : new int[] {1, 3}) {
            Sampler sampler = k == 1 ? Sampler.BALLS_AND_BINS : Sampler.RANDOM_ALLOCATION;
            double sigma = 0.8;
            AllocationMaxTestBound one = bound(sampler, 100, 1, sigma, k);
            AllocationMaxTestBound two = bound(sampler, 100, 2, sigma, k);
            GaussianBound upper = GaussianBound.of(sigma, 1.0, 2 * k);
            for (double eps : new double[] {0.5, 1, 2, 3}) {
                double d1 = one.delta(eps);
                double d2 = two.delta(eps);
                assertTrue(d1 > 0, "k " + k + " eps " + eps);
                // two epochs' counts are sufficient for the pair of their indicators: at least one epoch's test
                assertTrue(d2 >= d1 * (1 - 1e-9), "k " + k + " eps " + eps + ": " + d2 + " < " + d1);
                assertTrue(d2 <= upper.delta(eps), "k " + k + " eps " + eps + ": above the deterministic bound");
            }
            double e = two.epsilon(1e-6);
            assertTrue(two.delta(e) >= 1e-6 * (1 - 1e-9) && e <= upper.epsilon(1e-6), "epsilon(1e-6) " + e);
        }
    }
}

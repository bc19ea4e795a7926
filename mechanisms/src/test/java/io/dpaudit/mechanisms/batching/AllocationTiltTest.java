package io.dpaudit.mechanisms.batching;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.dpaudit.core.rng.RandomStreams;
import org.apache.commons.rng.UniformRandomProvider;
import org.apache.commons.rng.sampling.distribution.ZigguratSampler;
import org.junit.jupiter.api.Test;

/**
 * {@link AllocationTilt}: its normaliser {@code M(theta) = E_Q[(S/T)^{theta+1}]} against a sum over every assignment of
 * the labels to steps and against the closed form at theta = 1; its draws against the identity {@code E_r[M e^{-theta
 * L}] = 1} (the importance weights' mean under the proposal; 20,000 draws from a fixed seed, failing beyond six standard
 * errors: about 2e-9 for a random seed under the central-limit approximation).
 */
class AllocationTiltTest {
    /** {@code T^{-n} sum over t in [T]^n of prod_t mu_{c_t}}, {@code mu_c = e^{c (c - 1) tau^2 / 2}}. */
    private static double bruteForceM(int steps, double tau, int n) {
        int[] t = new int[n];
        double total = 0;
        long count = (long) Math.pow(steps, n);
        for (long code = 0; code < count; code++) {
            long c = code;
            for (int i = 0; i < n; i++) {
                t[i] = (int) (c % steps);
                c /= steps;
            }
            double log = 0;
            for (int step = 0; step < steps; step++) {
                int m = 0;
                for (int i = 0; i < n; i++) {
                    if (t[i] == step) {
                        m++;
                    }
                }
                log += m * (m - 1.0) * tau * tau / 2;
            }
            total += Math.exp(log);
        }
        return total / count;
    }

    @Test
    void theNormaliserIsTheSumOverEveryAssignmentOfTheLabels() {
        for (int steps : new int[] {1, 2, 3, 5}) {
            for (double sigma : new double[] {0.5, 1.0, 2.0}) {
                for (int theta = 1; theta <= 5; theta++) {
                    double expected = Math.log(bruteForceM(steps, 1 / sigma, theta + 1));
                    double actual = new AllocationTilt(steps, 1.0, sigma, theta).logM();
                    assertEquals(expected, actual, 1e-12 * Math.max(1, Math.abs(expected)),
                            "T " + steps + ", sigma " + sigma + ", theta " + theta);
                }
            }
        }
        double tau = 1 / 0.7;
        assertEquals(Math.log((Math.exp(tau * tau) + 999) / 1000), new AllocationTilt(1000, 1.0, 0.7, 1).logM(),
                1e-13);
    }

    @Test
    void theWeightsHaveMeanOneUnderTheProposal() {
        for (int theta : new int[] {1, 3}) {
            AllocationTilt tilt = new AllocationTilt(50, 1.0, 0.8, theta);
            UniformRandomProvider rng = new RandomStreams(20261129L + theta).next();
            ZigguratSampler.NormalizedGaussian gauss = ZigguratSampler.NormalizedGaussian.of(rng);
            int[] chosen = new int[AllocationTilt.MAX_THETA + 1];
            int[] counts = new int[AllocationTilt.MAX_THETA + 1];
            int n = 20_000;
            double sum = 0;
            double sumSq = 0;
            for (int i = 0; i < n; i++) {
                double w = Math.exp(tilt.logM() - theta * tilt.sampleLoss(rng, gauss, chosen, counts));
                sum += w;
                sumSq += w * w;
            }
            double mean = sum / n;
            double se = Math.sqrt((sumSq / n - mean * mean) / n);
            assertTrue(Math.abs(mean - 1) <= 6 * se, "theta " + theta + ": mean " + mean + ", se " + se);
        }
    }
}

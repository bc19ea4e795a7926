package io.dpaudit.mechanisms.batching;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.dpaudit.core.bounds.BoundKind;
import io.dpaudit.core.bounds.GaussianBound;
import io.dpaudit.core.bounds.PrivacyBound;
import io.dpaudit.mechanisms.batching.BatchingParameters.Sampler;
import org.apache.commons.rng.UniformRandomProvider;
import org.apache.commons.rng.sampling.distribution.ZigguratSampler;
import org.apache.commons.rng.simple.RandomSource;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

/**
 * The two-sided bracket of k-of-T random allocation: {@code allocation-sum-test} ({@link AllocationSumTestBound}, a
 * proven lower bound) and {@code allocation-decomposition-upper} ({@link AllocationDecomposition}, a proven upper
 * bound). Checked where the truth is known (k = T: the Gaussian mechanism over k steps), against a Monte Carlo estimate
 * of the exact curve (the likelihood ratio {@code e_k(w) / C(T, k)} sampled under both worlds; seed fixed, tolerance 6
 * standard errors, so a correct pair of bounds fails it with probability below 1e-8 for any seed), and for what they
 * refuse.
 *
 * <p>In verify's tier: its lattices of up to 2^23 points take 8-9 s, too long for {@code mvn test}.
 */
@Tag("statistical")
class AllocationBracketTest {
    private static BatchingParameters allocation(int steps, int k, double sigma) {
        return new BatchingParameters(Sampler.RANDOM_ALLOCATION, steps, 1, sigma, k, false);
    }

    @Test
    void withEveryStepChosenBothEndsMeetTheGaussianCurve() {
        // k = T = 2: the canary is in both steps, the Gaussian mechanism with mu = sqrt(2) / sigma
        BatchingParameters b = allocation(2, 2, 1.0);
        GaussianBound exact = GaussianBound.of(1.0, 1.0, 2);
        PrivacyBound upper = AllocationDecomposition.upper(b);
        PrivacyBound lower = new AllocationSumTestBound(b, 1 << 18);
        for (double eps : new double[] {0, 0.5, 1, 2, 3}) {
            double truth = exact.delta(eps);
            double up = upper.delta(eps);
            double low = lower.delta(eps);
            assertTrue(up >= truth && up <= truth * 1.01 + 1e-12, "eps " + eps + ": upper " + up + " vs " + truth);
            assertTrue(low <= truth, "eps " + eps + ": lower " + low + " above the truth " + truth);
            assertTrue(low > 0, "eps " + eps + ": the sum test sees nothing");
        }
        assertEquals(BoundKind.UPPER_BOUND, upper.kind());
        assertEquals("allocation-decomposition-upper", upper.name());
        assertEquals(BoundKind.LOWER_BOUND, lower.kind());
        assertEquals("allocation-sum-test", lower.name());
    }

    @Test
    void theBracketHoldsTheExactCurveEstimatedByMonteCarlo() {
        int steps = 12;
        int k = 3;
        double sigma = 1.0;
        BatchingParameters b = allocation(steps, k, sigma);
        PrivacyBound upper = AllocationDecomposition.upper(b);
        PrivacyBound lower = new AllocationSumTestBound(b, 1 << 18);
        double[] epsilons = {0.25, 0.5, 1.0};
        double[][] estimate = exactCurveByMonteCarlo(steps, k, sigma, epsilons, 400_000, 59L);
        for (int i = 0; i < epsilons.length; i++) {
            double mean = estimate[0][i];
            double se = estimate[1][i];
            double low = lower.delta(epsilons[i]);
            double up = upper.delta(epsilons[i]);
            assertTrue(low <= mean + 6 * se, "eps " + epsilons[i] + ": sum test " + low + " above " + mean + " ± " + se);
            assertTrue(up >= mean - 6 * se, "eps " + epsilons[i] + ": decomposition " + up + " below " + mean);
            assertTrue(low > 0.5 * mean, "eps " + epsilons[i] + ": sum test " + low + " far below " + mean);
        }
    }

    @Test
    void atTheIssuesSettingsTheBracketIsWithinFivePercent() {
        // Issue 59, Done means: random allocation k = 2, T = 1000, sigma = 1, delta = 1e-6, a bracket at most 5% wide
        // in epsilon (measured: [0.3524, 0.3637] on the shipped 2^23 points; here 2^22, to halve the time:
        // [0.3442, 0.3637], 5.4%, so the 6% below is that measurement's margin, not the issue's 5%).
        BatchingParameters b = allocation(1000, 2, 1.0);
        double up = AllocationDecomposition.upper(b).epsilon(1e-6);
        double low = new AllocationSumTestBound(b, 1 << 22).epsilon(1e-6);
        double poisson = 0.3910; // poisson-pld at q = k/T (bound random-allocation steps=1000 k=2 sigma=1)
        assertTrue(low <= up, low + " > " + up);
        assertTrue((up - low) / up < 0.06, "[" + low + ", " + up + "]");
        assertTrue(up < poisson, "the decomposition " + up + " is above Poisson accounting here");
    }

    @Test
    void theyAreOfferedOnlyWhereTheirArgumentsHold() {
        assertNotNull(AllocationDecomposition.unsupported(new BatchingParameters(Sampler.BALLS_AND_BINS, 100, 1, 1,
                1, false)));
        assertNotNull(AllocationSumTestBound.unsupported(allocation(100, 1, 1)));
        assertNull(AllocationDecomposition.unsupported(allocation(100, 2, 1)));
        assertNull(AllocationSumTestBound.unsupported(allocation(100, 2, 1)));
        String many = AllocationDecomposition.unsupported(new BatchingParameters(Sampler.RANDOM_ALLOCATION, 100,
                5000, 1, 4, false));
        assertTrue(many != null && many.contains("k E = 20000"), many);
        String small = AllocationSumTestBound.unsupported(allocation(100, 2, 0.1));
        assertTrue(small != null && small.contains("sigma = 0.1"), small);
    }

    /**
     * The exact pair's {@code delta(eps)}, the larger of the two directions, with its standard error: {@code
     * E_P[(1 - e^{eps - L})_+]} and {@code E_Q[(1 - e^{eps + L})_+]}, {@code L = log(e_k(w) / C(T, k))},
     * {@code w_t = e^{(x_t - 1/2)/sigma^2}}.
     */
    private static double[][] exactCurveByMonteCarlo(int steps, int k, double sigma, double[] eps, int n, long seed) {
        UniformRandomProvider rng = RandomSource.XO_RO_SHI_RO_128_PP.create(seed);
        ZigguratSampler.NormalizedGaussian normal = ZigguratSampler.NormalizedGaussian.of(rng);
        double logChoose = 0;
        for (int i = 0; i < k; i++) {
            logChoose += Math.log(steps - i) - Math.log(i + 1);
        }
        double[][] sum = new double[2][eps.length];
        double[][] sumSq = new double[2][eps.length];
        double[] w = new double[steps];
        double[] e = new double[k + 1];
        int[] chosen = new int[k];
        for (int world = 0; world < 2; world++) {
            for (int s = 0; s < n; s++) {
                for (int t = 0; t < steps; t++) {
                    w[t] = sigma * normal.sample();
                }
                if (world == 0) {
                    // the canary in k distinct uniform steps (the first k of a partial Fisher-Yates shuffle)
                    int[] order = new int[steps];
                    for (int t = 0; t < steps; t++) {
                        order[t] = t;
                    }
                    for (int i = 0; i < k; i++) {
                        int j = i + rng.nextInt(steps - i);
                        int tmp = order[i];
                        order[i] = order[j];
                        order[j] = tmp;
                        chosen[i] = order[i];
                        w[chosen[i]] += 1;
                    }
                }
                java.util.Arrays.fill(e, 0);
                e[0] = 1;
                for (int t = 0; t < steps; t++) {
                    double v = Math.exp((w[t] - 0.5) / (sigma * sigma));
                    for (int j = Math.min(k, t + 1); j >= 1; j--) {
                        e[j] += v * e[j - 1];
                    }
                }
                double loss = Math.log(e[k]) - logChoose;
                for (int i = 0; i < eps.length; i++) {
                    double v = world == 0 ? Math.max(0, -Math.expm1(eps[i] - loss))
                            : Math.max(0, -Math.expm1(eps[i] + loss));
                    sum[world][i] += v;
                    sumSq[world][i] += v * v;
                }
            }
        }
        double[][] out = new double[2][eps.length];
        for (int i = 0; i < eps.length; i++) {
            int world = sum[0][i] >= sum[1][i] ? 0 : 1;
            double mean = sum[world][i] / n;
            out[0][i] = mean;
            out[1][i] = Math.sqrt(Math.max(0, sumSq[world][i] / n - mean * mean) / n);
        }
        return out;
    }
}

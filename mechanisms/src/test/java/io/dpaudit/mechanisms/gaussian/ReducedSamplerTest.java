package io.dpaudit.mechanisms.gaussian;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.dpaudit.core.engine.TrialSampler;
import io.dpaudit.core.engine.World;
import io.dpaudit.core.model.MechanismSimulator;
import io.dpaudit.core.rng.RandomStreams;
import org.junit.jupiter.api.Test;

/**
 * The inclusions B of the reduced sampler must form a Bernoulli(q) process across calls, both with geometric-gap
 * sampling (q <= 1/8) and with one coin per value. With sigma = 1e-9 and clip = 1 the output rounds to B exactly.
 *
 * <p>Checks on 2 million values from a fixed seed, each with a 5-sigma tolerance (false-failure probability below
 * 1e-6 per check for a correct sampler): the inclusion count, the count of adjacent pairs (1, 1) — which a gap
 * process that restarted at call boundaries would get wrong — and the mean of the noise in the D' world.
 */
class ReducedSamplerTest {
    /** Parameters of a {@code poisson-subsampled-gaussian}. */
    static GaussianParameters subsampled(double q, double sigma, double clip, int rounds) {
        return new GaussianParameters(GaussianParameters.SUBSAMPLED_TYPE, q, sigma, clip, rounds);
    }

    private static final int VALUES = 2_000_000;

    private static int[] inclusions(double q, long seed) {
        MechanismSimulator sim = ReducedPoissonGaussianSimulator.of(subsampled(q, 1e-9, 1.0, 1));
        TrialSampler s = sim.create(new RandomStreams(seed).next());
        int[] b = new int[VALUES];
        double[] out = new double[997];
        int done = 0;
        int call = 0;
        while (done < VALUES) {
            int n = Math.min(1 + (call++ * 37) % 997, VALUES - done); // uneven call sizes, to cross boundaries
            s.sample(World.WITH_CANARY, out, n);
            for (int i = 0; i < n; i++) {
                b[done + i] = (int) Math.rint(out[i]);
            }
            done += n;
        }
        return b;
    }

    private static void assertBernoulliProcess(double q, long seed) {
        int[] b = inclusions(q, seed);
        long ones = 0;
        long pairs = 0;
        for (int i = 0; i < b.length; i++) {
            assertTrue(b[i] == 0 || b[i] == 1);
            ones += b[i];
            if (i > 0 && b[i] == 1 && b[i - 1] == 1) {
                pairs++;
            }
        }
        double mean = VALUES * q;
        assertEquals(mean, ones, 5 * Math.sqrt(mean * (1 - q)), "inclusions for q=" + q);
        double pairMean = (VALUES - 1) * q * q;
        // Var of the pair count of a Bernoulli process: n p^2 (1 - p^2) + 2 n p^3 (1 - p) (overlapping pairs).
        double pairSd = Math.sqrt((VALUES - 1) * (q * q * (1 - q * q) + 2 * q * q * q * (1 - q)));
        assertEquals(pairMean, pairs, 5 * pairSd, "adjacent inclusions for q=" + q);
    }

    @Test
    void geometricGapsFormABernoulliProcessAcrossCalls() {
        assertBernoulliProcess(0.01, 1);
        assertBernoulliProcess(0.125, 2);
    }

    @Test
    void perValueCoinsFormABernoulliProcess() {
        assertBernoulliProcess(0.4, 3);
    }

    @Test
    void withoutTheCanaryTheOutputIsCentredNoise() {
        MechanismSimulator sim = ReducedPoissonGaussianSimulator.of(subsampled(0.5, 2.0, 1.0, 3));
        double[] out = new double[3 * 100_000];
        sim.create(new RandomStreams(4).next()).sample(World.WITHOUT_CANARY, out, 100_000);
        double s = 0;
        double s2 = 0;
        for (double v : out) {
            s += v;
            s2 += v * v;
        }
        assertEquals(0.0, s / out.length, 5 * 2.0 / Math.sqrt(out.length));
        assertEquals(4.0, s2 / out.length, 5 * 4.0 * Math.sqrt(2.0 / out.length));
    }
}

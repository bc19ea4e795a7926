package io.dpaudit.mechanisms.onerun;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.dpaudit.core.InvalidInputException;
import io.dpaudit.core.law.BinomialTable;
import io.dpaudit.core.rng.RandomStreams;
import org.apache.commons.math3.stat.inference.KolmogorovSmirnovTest;
import org.apache.commons.rng.UniformRandomProvider;
import org.apache.commons.rng.sampling.distribution.ZigguratSampler;
import org.junit.jupiter.api.Test;

/**
 * The faithful one-run simulator (explicit parameters, gradients, clipping, Poisson batches) and the reduced one
 * (the scores' exact law) agree in distribution: two-sample Kolmogorov–Smirnov tests of the included and the excluded
 * canaries' scores, each at level 0.001, on independent streams of fixed seeds. If the two agree, a random seed fails a
 * setting with probability at most 0.2%; with the fixed seeds the outcome is deterministic. The same test refutes a
 * reduced law with the canary's unclipped gradient (a planted bug: 3 K instead of K), so it has the power to see one.
 */
class OneRunSimulatorTest {
    private static final double LEVEL = 1e-3;

    @Test
    void faithfulAndReducedAgree() {
        for (OneRunDpSgd s : new OneRunDpSgd[] {new OneRunDpSgd(3000, 20, 0.2, 2.0, 1.0),
            new OneRunDpSgd(3000, 1, 1.0, 0.5, 2.0), new OneRunDpSgd(3000, 50, 0.05, 1.0, 0.5)}) {
            CanaryScores faithful = FaithfulOneRunSimulator.run(s, 40, 8, new RandomStreams(11).next());
            CanaryScores reduced = ReducedOneRunSimulator.run(s, new RandomStreams(12).next());
            double pIn = ks(faithful.included(), reduced.included());
            double pOut = ks(faithful.excluded(), reduced.excluded());
            assertTrue(pIn > LEVEL && pOut > LEVEL, s + ": KS p-values " + pIn + ", " + pOut);
            assertEquals(3000, faithful.canaries());
            // the coins are fair: |included - m/2| within 4 standard deviations (sqrt(m)/2)
            assertTrue(Math.abs(faithful.included().length - 1500) < 4 * Math.sqrt(3000) / 2);
        }
    }

    @Test
    void theTestSeesAnUnclippedCanary() {
        OneRunDpSgd s = new OneRunDpSgd(3000, 20, 0.2, 2.0, 1.0);
        CanaryScores faithful = FaithfulOneRunSimulator.run(s, 40, 8, new RandomStreams(11).next());
        // the law a simulator that forgot clipping would give: the canary adds its norm 3C per batch, not C
        UniformRandomProvider rng = new RandomStreams(12).next();
        BinomialTable batches = new BinomialTable(s.steps(), s.q());
        ZigguratSampler.NormalizedGaussian normal = ZigguratSampler.NormalizedGaussian.of(rng);
        double[] unclipped = new double[faithful.included().length];
        for (int i = 0; i < unclipped.length; i++) {
            unclipped[i] = FaithfulOneRunSimulator.CANARY_NORM * batches.sample(rng) + s.scoreNoise() * normal.sample();
        }
        assertTrue(ks(faithful.included(), unclipped) < LEVEL);
    }

    @Test
    void reducedScoresHaveTheExactMoments() {
        OneRunDpSgd s = new OneRunDpSgd(200_000, 30, 0.3, 1.5, 1.0);
        CanaryScores r = ReducedOneRunSimulator.run(s, new RandomStreams(5).next());
        // included: mean Tq = 9, variance Tq(1-q) + T sigma^2 = 6.3 + 67.5; excluded: mean 0, variance 67.5
        assertMoments(r.included(), 9.0, 73.8);
        assertMoments(r.excluded(), 0.0, 67.5);
    }

    @Test
    void badSettingsNameTheirField() {
        assertEquals("canaries", field(() -> new OneRunDpSgd(1, 1, 0.5, 1, 1)));
        assertEquals("steps", field(() -> new OneRunDpSgd(10, 0, 0.5, 1, 1)));
        assertEquals("q", field(() -> new OneRunDpSgd(10, 1, 0, 1, 1)));
        assertEquals("q", field(() -> new OneRunDpSgd(10, 1, Double.NaN, 1, 1)));
        assertEquals("sigma", field(() -> new OneRunDpSgd(10, 1, 0.5, -1, 1)));
        assertEquals("sigma", field(() -> new OneRunDpSgd(10, 1, 0.5, 1e-12, 1)));
        assertEquals("clip", field(() -> new OneRunDpSgd(10, 1, 0.5, 1, 0)));
        assertEquals("records", field(() -> FaithfulOneRunSimulator.run(new OneRunDpSgd(10, 1, 0.5, 1, 1), -1, 4,
                new RandomStreams(1).next())));
    }

    /** Mean and variance within 5 standard errors (normal approximation; false failure below 1e-6 each). */
    private static void assertMoments(double[] x, double mean, double variance) {
        double m = 0;
        for (double v : x) {
            m += v;
        }
        m /= x.length;
        double v2 = 0;
        for (double v : x) {
            v2 += (v - m) * (v - m);
        }
        v2 /= x.length - 1;
        assertEquals(mean, m, 5 * Math.sqrt(variance / x.length));
        assertEquals(variance, v2, 5 * variance * Math.sqrt(3.0 / x.length)); // kurtosis <= 4 here
    }

    private static double ks(double[] a, double[] b) {
        return new KolmogorovSmirnovTest().kolmogorovSmirnovTest(a, b);
    }

    private static String field(Runnable r) {
        return assertThrows(InvalidInputException.class, r::run).field();
    }
}

package io.dpaudit.mechanisms.gaussian;

import static org.junit.jupiter.api.Assertions.assertTrue;

import io.dpaudit.core.engine.TrialSampler;
import io.dpaudit.core.engine.World;
import io.dpaudit.core.model.MechanismSimulator;
import io.dpaudit.core.model.OutputModel;
import io.dpaudit.core.rng.RandomStreams;
import java.util.Locale;
import org.apache.commons.math3.stat.inference.KolmogorovSmirnovTest;
import org.apache.commons.rng.UniformRandomProvider;
import org.junit.jupiter.api.Test;

/**
 * The faithful simulator (explicit records, clipping, Poisson sampling, vector noise) and the reduced one (the 1-D
 * sufficient statistic) must give the same distribution of what the adversary uses: the projection of each round's
 * output on the canary direction.
 *
 * <p>Each comparison is a two-sample Kolmogorov–Smirnov test at level 0.001 on 20,000 outputs per simulator and
 * world, from independent streams of a fixed seed. Four comparisons per configuration: if the simulators agree, a
 * random seed fails a configuration with probability at most 0.4%; with the fixed seed the outcome is deterministic.
 * The same test must reject simulators with planted bugs (misreported q, clipping off), which shows it has power.
 */
class SimulatorEquivalenceTest {
    /** Parameters of a {@code poisson-subsampled-gaussian}. */
    static GaussianParameters subsampled(double q, double sigma, double clip, int rounds) {
        return new GaussianParameters(GaussianParameters.SUBSAMPLED_TYPE, q, sigma, clip, rounds);
    }

    private static final int N = 20_000;
    private static final double LEVEL = 0.001;

    /** Per-round projections of {@code n} outputs of {@code sim} in {@code world} (n * rounds values). */
    private static double[] projections(MechanismSimulator sim, World world, int n, UniformRandomProvider rng) {
        OutputModel m = sim.outputModel();
        TrialSampler s = sim.create(rng);
        double[] out = new double[n * m.outputLength()];
        s.sample(world, out, n);
        double[] u = m.linearStatistic().basisRow(0);
        double[] proj = new double[n * m.rounds()];
        for (int b = 0; b < n * m.rounds(); b++) {
            double y = 0;
            for (int j = 0; j < m.roundDimension(); j++) {
                y += out[b * m.roundDimension() + j] * u[j];
            }
            proj[b] = y;
        }
        return proj;
    }

    private static double pValue(MechanismSimulator a, MechanismSimulator b, World w, long seed) {
        RandomStreams streams = new RandomStreams(seed);
        double[] x = projections(a, w, N, streams.next());
        double[] y = projections(b, w, N, streams.next());
        return new KolmogorovSmirnovTest().kolmogorovSmirnovTest(x, y);
    }

    private static MechanismSimulator faithful(double q, double sigma, double clip, int rounds, long seed) {
        GradientDataset data = GradientDataset.worstCase(16, 4, 1.0, RandomStreams.auxiliary(seed));
        return FaithfulPoissonGaussianSimulator.of(data, subsampled(q, sigma, clip, rounds));
    }

    @Test
    void faithfulAndReducedAgreeInBothWorlds() {
        for (double[] c : new double[][] {{0.3, 1.0, 1}, {0.05, 0.7, 3}, {1.0, 2.0, 1}}) {
            double q = c[0];
            double sigma = c[1];
            int rounds = (int) c[2];
            MechanismSimulator f = faithful(q, sigma, 1.0, rounds, 11);
            MechanismSimulator r = ReducedPoissonGaussianSimulator.of(subsampled(q, sigma, 1.0, rounds));
            for (World w : World.values()) {
                double p = pValue(f, r, w, 100 + rounds);
                assertTrue(p > LEVEL, String.format(Locale.ROOT, "q=%s sigma=%s rounds=%d %s: KS p = %.2e", q,
                        sigma, rounds, w.symbol(), p));
            }
        }
    }

    @Test
    void theComparisonDetectsAMisreportedSamplingRate() {
        MechanismSimulator f = faithful(0.3, 1.0, 1.0, 1, 11);
        MechanismSimulator wrong = ReducedPoissonGaussianSimulator.of(subsampled(0.2, 1.0, 1.0, 1));
        double p = pValue(f, wrong, World.WITH_CANARY, 5);
        assertTrue(p < LEVEL, "q = 0.3 vs q = 0.2 not detected: p = " + p);
    }

    @Test
    void theComparisonDetectsMissingClipping() {
        // The canary's gradient has norm 2: clipping at 2 is "clipping off" for it; the reduced model clips at 1.
        MechanismSimulator unclipped = faithful(0.3, 1.0, 2.0, 1, 11);
        MechanismSimulator r = ReducedPoissonGaussianSimulator.of(subsampled(0.3, 1.0, 1.0, 1));
        double p = pValue(unclipped, r, World.WITH_CANARY, 6);
        assertTrue(p < LEVEL, "missing clipping not detected: p = " + p);
    }
}

package io.dpaudit.mechanisms.dpfed;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.dpaudit.core.engine.TrialSampler;
import io.dpaudit.core.engine.World;
import io.dpaudit.core.model.MechanismSimulator;
import io.dpaudit.core.model.OutputModel;
import io.dpaudit.core.model.Parameters;
import io.dpaudit.core.rng.RandomStreams;
import java.util.Map;
import org.apache.commons.math3.stat.inference.KolmogorovSmirnovTest;
import org.junit.jupiter.api.Test;

/**
 * Faithful (explicit client vectors, clipping, selection, noise, smoothing by FFT) against reduced (the sufficient
 * statistic and the second direction) simulators of DP-Fed(-LS).
 *
 * <p>Each comparison is a two-sample Kolmogorov–Smirnov test at level 0.001 on 20,000 rounds per simulator. Per
 * configuration 4 comparisons (2 worlds x 2 projections): a correct pair of simulators fails one with probability at
 * most 0.4% for a random seed; the seeds are fixed, so the outcome is deterministic.
 */
class DpFedSimulatorTest {
    private static final int N = 10_000;
    private static final double LEVEL = 0.001;

    /** Per-round projections on {@code a} (faithful: D-vectors) of n trials. */
    private static double[] project(MechanismSimulator sim, World w, int n, long seed, double[] a) {
        OutputModel m = sim.outputModel();
        TrialSampler s = sim.create(new RandomStreams(seed).next());
        double[] out = new double[n * m.outputLength()];
        s.sample(w, out, n);
        int k = m.roundDimension();
        double[] p = new double[n * m.rounds()];
        for (int b = 0; b < p.length; b++) {
            double y = 0;
            for (int j = 0; j < k; j++) {
                y += out[b * k + j] * a[j];
            }
            p[b] = y;
        }
        return p;
    }

    private static void compare(DpFed m, long seed) {
        MechanismSimulator faithful = m.faithful(new Parameters("simulator.", Map.of("kind", "faithful")),
                RandomStreams.auxiliary(seed));
        MechanismSimulator reduced = m.reduced();
        DpFedGeometry g = m.dpFedParameters().geometry();
        double[][] faithfulDirections = {g.v1, g.u};
        double[][] reducedDirections = {reduced.outputModel().linearStatistic().basisRow(0),
            reduced.outputModel().canaryDirection()};
        for (World w : World.values()) {
            for (int d = 0; d < 2; d++) {
                double[] x = project(faithful, w, N, seed + 1, faithfulDirections[d]);
                double[] y = project(reduced, w, N, seed + 2, reducedDirections[d]);
                double p = new KolmogorovSmirnovTest().kolmogorovSmirnovTest(x, y);
                assertTrue(p > LEVEL, m.type() + " " + m.parameters().values() + " " + w + " direction " + d
                        + ": p = " + p);
            }
        }
    }

    @Test
    void faithfulAndReducedAgree() {
        compare(DpFedBoundsTest.mechanism("dp-fed-ls", "clients", 20, "selected", 5, "sigma", 1.0, "rounds", 2,
                "dimension", 32, "smoothing", 1.0), 501);
        compare(DpFedBoundsTest.mechanism("dp-fed-ls", "clients", 12, "selected", 3, "sigma", 0.7, "clip", 2.0,
                "dimension", 33, "smoothing", 2.0, "others", "orthogonal"), 502);
        compare(DpFedBoundsTest.mechanism("dp-fed-ls", "clients", 15, "fraction", 0.2, "sampling", "poisson",
                "sigma", 0.8, "dimension", 16, "smoothing", 0.5), 503);
        compare(DpFedBoundsTest.mechanism("fixed-size-subsampled-gaussian", "clients", 10, "selected", 4, "sigma",
                1.0, "dimension", 5, "others", "orthogonal"), 504);
    }

    /**
     * The KS comparison has power: a reduced sampler whose sampling rate is misreported (m = 2 instead of 5 of 20,
     * everything else equal) is rejected.
     */
    @Test
    void comparisonDetectsAMisreportedSamplingRate() {
        DpFed truth = DpFedBoundsTest.mechanism("fixed-size-subsampled-gaussian", "clients", 20, "selected", 5,
                "sigma", 0.5, "dimension", 8, "others", "orthogonal");
        DpFed wrong = DpFedBoundsTest.mechanism("fixed-size-subsampled-gaussian", "clients", 20, "selected", 2,
                "sigma", 0.5, "dimension", 8, "others", "orthogonal");
        MechanismSimulator faithful = truth.faithful(new Parameters("simulator.", Map.of("kind", "faithful")),
                RandomStreams.auxiliary(7));
        double[] x = project(faithful, World.WITH_CANARY, N, 8, truth.dpFedParameters().geometry().v1);
        double[] y = project(wrong.reduced(), World.WITH_CANARY, N, 9, new double[] {1});
        assertTrue(new KolmogorovSmirnovTest().kolmogorovSmirnovTest(x, y) < LEVEL);
    }

    /**
     * Uniform selection picks the canary's slot with probability m/K. With almost no noise the statistic reveals
     * it; 200,000 rounds, the count must be within 5 standard deviations of its mean (false failure < 1e-6).
     */
    @Test
    void uniformSelectionPicksTheCanaryWithProbabilityMOverK() {
        DpFed m = DpFedBoundsTest.mechanism("dp-fed", "clients", 10, "selected", 3, "sigma", 1e-6, "dimension", 4,
                "rounds", 4);
        MechanismSimulator faithful = m.faithful(new Parameters("simulator.", Map.of("kind", "faithful")),
                RandomStreams.auxiliary(11));
        int n = 50_000;
        double[] p = project(faithful, World.WITH_CANARY, n, 12, m.dpFedParameters().geometry().u);
        double base = m.dpFedParameters().offset() * m.dpFedParameters().outputScale();
        long hits = 0;
        for (double y : p) {
            if (y - base > m.dpFedParameters().clip() * m.dpFedParameters().outputScale()) {
                hits++;
            }
        }
        double mean = p.length * 0.3;
        double sd = Math.sqrt(p.length * 0.3 * 0.7);
        assertTrue(Math.abs(hits - mean) < 5 * sd, hits + " vs " + mean);
        double[] q = project(faithful, World.WITHOUT_CANARY, 1000, 13, m.dpFedParameters().geometry().u);
        for (double y : q) {
            assertEquals(base, y, 1e-4, "D': every selected client holds -G u");
        }
    }

    /** The reduced block: v1 = A u/|A u| and the canary direction is a unit vector in span{v1, v2}. */
    @Test
    void geometryOfTheSmoothedRelease() {
        DpFed m = DpFedBoundsTest.mechanism("dp-fed-ls", "clients", 20, "selected", 5, "sigma", 1.0, "dimension",
                1000, "smoothing", 1.0);
        DpFedGeometry g = m.dpFedParameters().geometry();
        assertTrue(g.hasSecond());
        double[] c = g.canaryInBlock();
        assertEquals(1.0, c[0] * c[0] + c[1] * c[1], 1e-12);
        assertEquals(3 / Math.sqrt(11), c[0], 1e-12); // A e_1 = 3 e_1 - e_0 - e_2
        // <u, A^{-1} u> = mean of 1/lambda_k = 1/sqrt(1 + 4s) for a long chain
        assertEquals(1 / Math.sqrt(5), DpFedGeometry.dot(g.u, g.inverseU), 1e-9);
        DpFed smooth = DpFedBoundsTest.mechanism("dp-fed-ls", "clients", 20, "selected", 5, "sigma", 1.0,
                "dimension", 100, "smoothing", 1.0, "canary", "smooth");
        assertTrue(!smooth.dpFedParameters().geometry().hasSecond(), "the constant vector is an eigenvector");
    }
}

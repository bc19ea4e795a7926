package io.dpaudit.attacks;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.dpaudit.core.engine.Scorer;
import io.dpaudit.core.engine.TrialSampler;
import io.dpaudit.core.engine.World;
import io.dpaudit.core.law.GaussianMixture;
import io.dpaudit.core.model.MechanismSimulator;
import io.dpaudit.core.model.OutputModel;
import io.dpaudit.core.rng.RandomStreams;
import java.util.Arrays;
import org.apache.commons.rng.UniformRandomProvider;
import org.apache.commons.rng.sampling.distribution.ZigguratSampler;
import org.junit.jupiter.api.Test;

/**
 * The projection attack's sum over rounds drawn from its exact law agrees in distribution with the sum of the
 * per-round projections drawn round by round.
 *
 * <p>Statistical checks use fixed seeds (deterministic); each two-sample Kolmogorov–Smirnov statistic is compared
 * with the critical value of level 1e-4 for its sample sizes, and the first two moments with the exact ones within
 * 5 standard errors, so for a correct sampler a failure would have probability below 1e-4 per comparison.
 */
class ProjectionSumTest {
    private static final int N = 200_000;
    /** sqrt(-ln(1e-4 / 2) / 2): the asymptotic two-sample KS critical value factor at level 1e-4. */
    private static final double KS_FACTOR = Math.sqrt(-Math.log(0.5e-4) / 2);

    /** A simulator of {@code rounds} independent rounds of the 2-D statistic drawn component by component. */
    private static MechanismSimulator roundByRound(int rounds, GaussianMixture with, GaussianMixture without,
            double[] canary) {
        OutputModel model = OutputModel.linear(rounds, with.dimension(), identity(with.dimension()), with, without,
                -1, canary);
        return MechanismSimulator.of(model, "round by round", rng -> sampler(rng, rounds, with, without));
    }

    private static double[][] identity(int k) {
        double[][] id = new double[k][k];
        for (int i = 0; i < k; i++) {
            id[i][i] = 1;
        }
        return id;
    }

    private static TrialSampler sampler(UniformRandomProvider rng, int rounds, GaussianMixture with,
            GaussianMixture without) {
        ZigguratSampler.NormalizedGaussian g = ZigguratSampler.NormalizedGaussian.of(rng);
        return (world, out, trials) -> {
            GaussianMixture m = world == World.WITH_CANARY ? with : without;
            int k = m.dimension();
            for (int t = 0; t < trials * rounds; t++) {
                double u = rng.nextDouble();
                int j = 0;
                double acc = m.weight(0);
                while (u >= acc && j + 1 < m.components()) {
                    acc += m.weight(++j);
                }
                for (int i = 0; i < k; i++) {
                    out[t * k + i] = m.mean(j, i) + m.sd() * g.sample();
                }
            }
        };
    }

    private static double[] scores(MechanismSimulator sim, Scorer scorer, World world, long seed) {
        TrialSampler s = sim.create(new RandomStreams(seed).next());
        double[] out = new double[N * sim.outputLength()];
        s.sample(world, out, N);
        return scorer.score(out, N, new double[N]).clone();
    }

    private static double ks(double[] a, double[] b) {
        double[] x = Arrays.copyOf(a, N);
        double[] y = Arrays.copyOf(b, N);
        Arrays.sort(x);
        Arrays.sort(y);
        int i = 0;
        int j = 0;
        double d = 0;
        while (i < N && j < N) {
            if (x[i] <= y[j]) {
                i++;
            } else {
                j++;
            }
            d = Math.max(d, Math.abs((double) i / N - (double) j / N));
        }
        return d;
    }

    private static void assertSameLaw(MechanismSimulator perRound, double mean, double variance, String what) {
        AttackCatalog.Attack summed = AttackCatalog.create("attack", ProjectionAttack.NAME, perRound, true);
        assertNotNull(summed.simulator(), what + ": no direct sampler");
        assertEquals(1, summed.simulator().outputLength());
        Scorer plain = ProjectionAttack.of(perRound.outputModel());
        for (World w : World.values()) {
            double[] a = scores(perRound, plain, w, 11);
            double[] b = scores(summed.simulator(), summed.scorer(), w, 12);
            double critical = KS_FACTOR * Math.sqrt(2.0 / N);
            double d = ks(a, b);
            assertTrue(d < critical, what + " " + w + ": KS " + d + " >= " + critical);
            if (w == World.WITH_CANARY) {
                double m = Arrays.stream(b).average().orElseThrow();
                double v = Arrays.stream(b).map(x -> (x - m) * (x - m)).sum() / (N - 1);
                assertEquals(mean, m, 5 * Math.sqrt(variance / N), what + ": mean");
                assertEquals(variance, v, 5 * variance * Math.sqrt(2.0 / N) * 1.5, what + ": variance");
            }
        }
    }

    /** One-dimensional Poisson-subsampled Gaussian: S = C Binomial(T, q) + N(0, T s^2). */
    @Test
    void subsampledGaussianSumsMatchRoundByRound() {
        double q = 0.2;
        double s = 0.9;
        int rounds = 12;
        GaussianMixture with = new GaussianMixture(new double[] {1 - q, q}, new double[][] {{0}, {1}}, s);
        GaussianMixture without = GaussianMixture.single(0, s);
        assertSameLaw(roundByRound(rounds, with, without, new double[] {1}), rounds * q,
                rounds * q * (1 - q) + rounds * s * s, "subsampled Gaussian");
    }

    /**
     * The 2-D orthogonal configuration: the canary moves u, the count of other records moves v; the projection on u
     * sees two atoms whatever v does.
     */
    @Test
    void orthogonalSideInformationIsProjectedAway() {
        double s = 1.1;
        int rounds = 7;
        GaussianMixture with = new GaussianMixture(new double[] {0.5, 0.2, 0.2, 0.1},
                new double[][] {{0, 0}, {0, 2}, {1.5, 0}, {1.5, 2}}, s);
        GaussianMixture without = new GaussianMixture(new double[] {0.6, 0.4}, new double[][] {{0, 0}, {0, 2}}, s);
        assertSameLaw(roundByRound(rounds, with, without, new double[] {1, 0}), rounds * 0.3 * 1.5,
                rounds * 0.3 * 0.7 * 1.5 * 1.5 + rounds * s * s, "orthogonal");
    }

    /** Where the per-round term has three atoms, or the projection sees outside the statistic, there is no shortcut. */
    @Test
    void noShortcutWithoutATwoAtomLaw() {
        GaussianMixture three = new GaussianMixture(new double[] {0.5, 0.3, 0.2}, new double[][] {{0}, {1}, {2}}, 1);
        GaussianMixture one = GaussianMixture.single(0, 1);
        MechanismSimulator aligned = roundByRound(5, three, one, new double[] {1});
        assertNull(AttackCatalog.create("attack", ProjectionAttack.NAME, aligned, true).simulator());
        assertNull(AttackCatalog.create("attack", ProjectionAttack.NAME, roundByRound(5,
                new GaussianMixture(new double[] {0.5, 0.5}, new double[][] {{0}, {1}}, 1), one, new double[] {1}),
                false).simulator(), "only when asked");
        GaussianMixture twoD = new GaussianMixture(new double[] {0.5, 0.5}, new double[][] {{0, 0}, {1, 0}}, 1);
        GaussianMixture twoDWithout = new GaussianMixture(new double[] {1}, new double[][] {{0, 0}}, 1);
        OutputModel wide = OutputModel.linear(3, 3, new double[][] {{1, 0, 0}, {0, 1, 0}}, twoD, twoDWithout, -1,
                new double[] {0.6, 0, 0.8});
        MechanismSimulator outside = MechanismSimulator.of(wide, "wide", rng -> (w, out, n) -> { });
        assertNull(AttackCatalog.create("attack", ProjectionAttack.NAME, outside, true).simulator());
    }
}

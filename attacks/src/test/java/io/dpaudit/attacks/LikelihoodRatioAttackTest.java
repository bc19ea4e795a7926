package io.dpaudit.attacks;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.dpaudit.core.engine.Scorer;
import io.dpaudit.core.law.GaussianMixture;
import io.dpaudit.core.model.OutputModel;
import org.apache.commons.rng.UniformRandomProvider;
import org.apache.commons.rng.simple.RandomSource;
import org.junit.jupiter.api.Test;

class LikelihoodRatioAttackTest {
    private static final GaussianMixture SUBSAMPLED =
            new GaussianMixture(new double[] {0.9, 0.1}, new double[][] {{0}, {1}}, 0.8);
    private static final GaussianMixture NOISE = GaussianMixture.single(0, 0.8);

    /** Exact LLR of one value: log(0.9 + 0.1 exp((2y - 1)/(2 s^2))), the densities' ratio in closed form. */
    private static double exactLlr(double y) {
        double s = 0.8;
        double a = (2 * y - 1) / (2 * s * s);
        return a > 30 ? a + Math.log(0.1) + Math.log1p(9 * Math.exp(-a)) : Math.log(0.9 + 0.1 * Math.exp(a));
    }

    @Test
    void tabulatedLogRatioIsCloseToExactInsideAndExactOutside() {
        TabulatedLogRatio t = new TabulatedLogRatio(SUBSAMPLED, NOISE);
        assertTrue(t.maxInterpolationError() < 1e-4, "error " + t.maxInterpolationError());
        assertTrue(t.nonDecreasing());
        UniformRandomProvider rng = RandomSource.XO_SHI_RO_256_PP.create(1L);
        for (int i = 0; i < 10_000; i++) {
            double y = -8 + 17 * rng.nextDouble();
            assertEquals(exactLlr(y), t.value(y), 1.01 * t.maxInterpolationError() + 1e-12, "y=" + y);
        }
        double far = t.hi() + 3;
        assertEquals(exactLlr(far), t.value(far), 1e-9 * Math.abs(exactLlr(far)));
    }

    @Test
    void oneRoundUsesTheStatisticItselfAndSeveralRoundsSumTheLlr() {
        Scorer one = LikelihoodRatioAttack.of(OutputModel.ofStatistic(1, SUBSAMPLED, NOISE));
        assertInstanceOf(LikelihoodRatioAttack.OrderEquivalentScorer.class, one);
        double[] out = {0.3, -1.2};
        assertSame(out, one.score(out, 2, new double[2]), "no copy for the order-equivalent score");

        Scorer three = LikelihoodRatioAttack.of(OutputModel.ofStatistic(3, SUBSAMPLED, NOISE));
        assertInstanceOf(LikelihoodRatioAttack.TabulatedScorer.class, three);
        double[] outputs = {0.1, 2.0, -0.5, 1.0, 1.0, 1.0};
        double[] scores = three.score(outputs, 2, new double[2]);
        assertEquals(exactLlr(0.1) + exactLlr(2.0) + exactLlr(-0.5), scores[0], 1e-4);
        assertEquals(3 * exactLlr(1.0), scores[1], 1e-4);
    }

    @Test
    void aNonMonotoneRatioIsNotReplacedByTheStatistic() {
        // Canary shifts by -1 or +1 with equal odds: the LLR is U-shaped in y.
        GaussianMixture twoSided =
                new GaussianMixture(new double[] {0.5, 0.5}, new double[][] {{-1}, {1}}, 1.0);
        GaussianMixture noise = GaussianMixture.single(0, 1.0);
        assertFalse(new TabulatedLogRatio(twoSided, noise).nonDecreasing());
        Scorer s = LikelihoodRatioAttack.of(OutputModel.ofStatistic(1, twoSided, noise));
        assertInstanceOf(LikelihoodRatioAttack.TabulatedScorer.class, s);
        double[] sc = s.score(new double[] {-2, 2}, 2, new double[2]);
        assertEquals(sc[0], sc[1], 1e-9);
    }

    @Test
    void projectedOutputsAreScoredOnTheCanaryDirection() {
        double[][] basis = {{0.6, 0.8}};
        OutputModel m = OutputModel.linear(2, 2, basis, SUBSAMPLED, NOISE, -1, null);
        Scorer s = LikelihoodRatioAttack.of(m);
        double[] outputs = {0.6, 0.8, 3, -2.25}; // projections 1.0 and 0.0
        assertEquals(exactLlr(1.0) + exactLlr(0.0), s.score(outputs, 1, new double[1])[0], 1e-4);
        assertEquals(1.0, ProjectionAttack.of(m).score(outputs, 1, new double[1])[0], 1e-12);
    }

    @Test
    void twoDimensionalStatisticsUseTheExactMixtureRatio() {
        GaussianMixture with = new GaussianMixture(new double[] {0.5, 0.5},
                new double[][] {{0, 0}, {1, 1}}, 1.0);
        GaussianMixture without = new GaussianMixture(new double[] {1.0}, new double[][] {{0, 0}},
                1.0);
        Scorer s = LikelihoodRatioAttack.of(OutputModel.ofStatistic(1, with, without));
        double y1 = 0.4;
        double y2 = -0.7;
        double expected = Math.log(0.5 + 0.5 * Math.exp(y1 + y2 - 1));
        // The side-information ratios are linear in v here, so only the tabulated log-sum-exp errs (at most 1.2e-7).
        assertEquals(expected, s.score(new double[] {y1, y2}, 1, new double[1])[0],
                ShiftedMixtureScorer.SOFTPLUS_ERROR + 1e-12);
        assertTrue(ShiftedMixtureScorer.SOFTPLUS_ERROR < 1.3e-7, "softplus error " + ShiftedMixtureScorer.SOFTPLUS_ERROR);
    }

    /**
     * The shifted 2-D mixture (random participation's orthogonal configuration: u moves by c with the canary, v counts
     * the client's other sampled records): every score, over 1 and 3 rounds and outputs far out in both coordinates,
     * is within the scorer's stated loss bracket of the exact LLR from the mixtures' densities, and the bracket is
     * honest but not vacuous (per round at most 1e-2 here).
     */
    @Test
    void shiftedMixturesAreScoredWithinTheStatedError() {
        double s = 1.065;
        double c = 1.0;
        int d = 6;
        double r = 0.1;
        double join = 0.05;
        // v = K C + noise, K ~ Binomial(d, r) when the client joins (else 0); u = c B' + noise, B' ~ Bernoulli(r).
        int comps = d + 2;
        double[] wWithout = new double[comps - 1];
        double[][] mWithout = new double[comps - 1][];
        double[] wWith = new double[2 * (comps - 1)];
        double[][] mWith = new double[2 * (comps - 1)][];
        for (int k = 0; k <= d; k++) {
            double pk = binomial(d, k, r) * join + (k == 0 ? 1 - join : 0);
            wWithout[k] = pk;
            mWithout[k] = new double[] {0, k * c};
            double inc = join * r * binomial(d, k, r);
            wWith[2 * k] = pk - inc;
            mWith[2 * k] = new double[] {0, k * c};
            wWith[2 * k + 1] = inc;
            mWith[2 * k + 1] = new double[] {c, k * c};
        }
        GaussianMixture with = new GaussianMixture(wWith, mWith, s);
        GaussianMixture without = new GaussianMixture(wWithout, mWithout, s);
        UniformRandomProvider rng = RandomSource.XO_SHI_RO_256_PP.create(7L);
        for (int rounds : new int[] {1, 3}) {
            Scorer scorer = LikelihoodRatioAttack.of(OutputModel.ofStatistic(rounds, with, without));
            assertInstanceOf(ShiftedMixtureScorer.class, scorer);
            double perRound = ((ShiftedMixtureScorer) scorer).perRoundError();
            assertTrue(perRound < 1e-2, "per-round error " + perRound);
            int trials = 20_000;
            double[] outputs = new double[trials * rounds * 2];
            for (int i = 0; i < outputs.length; i++) {
                // spread over the table and beyond it, and into the far tails of u
                outputs[i] = (i % 2 == 0 ? -30 : -45) + (i % 2 == 0 ? 60 : 100) * rng.nextDouble();
            }
            double[] scores = scorer.score(outputs, trials, new double[trials]);
            double[] x = new double[2];
            for (int i = 0; i < trials; i++) {
                double exact = 0;
                for (int t = 0; t < rounds; t++) {
                    x[0] = outputs[(i * rounds + t) * 2];
                    x[1] = outputs[(i * rounds + t) * 2 + 1];
                    exact += with.logDensityUnnormalized(x, 0) - without.logDensityUnnormalized(x, 0);
                }
                double lower = scorer.lossBracket().lower(scores[i]);
                double upper = scorer.lossBracket().upper(scores[i]);
                assertTrue(lower <= exact && exact <= upper, "rounds " + rounds + ", trial " + i + ": exact " + exact
                        + " outside [" + lower + ", " + upper + "]");
            }
        }
    }

    private static double binomial(int n, int k, double p) {
        double c = 1;
        for (int i = 0; i < k; i++) {
            c = c * (n - i) / (i + 1);
        }
        return c * Math.pow(p, k) * Math.pow(1 - p, n - k);
    }
}

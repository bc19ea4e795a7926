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
        assertEquals(expected, s.score(new double[] {y1, y2}, 1, new double[1])[0], 1e-12);
    }
}

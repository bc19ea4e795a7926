package io.dpaudit.attacks.learned;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.dpaudit.core.blackbox.BlackBoxMechanism;
import io.dpaudit.core.blackbox.BlackBoxSampler;
import io.dpaudit.core.engine.ProgressListener;
import io.dpaudit.core.engine.Scorer;
import org.apache.commons.rng.UniformRandomProvider;
import org.apache.commons.rng.sampling.distribution.ZigguratSampler;
import org.apache.commons.rng.simple.RandomSource;
import org.junit.jupiter.api.Test;

/**
 * The learned distinguisher's models on samples whose best test is known: a shifted Gaussian (the log-likelihood ratio
 * is linear), a discrete output (the exact-match ratio is the plug-in likelihood ratio), a one-dimensional output whose
 * ratio is not monotone (only the histogram can follow it). Fixed seeds; each property holds by a wide margin.
 */
class LearnedDistinguisherTest {
    private static final BlackBoxMechanism<Double> GAUSSIAN = (mean, rng) ->
            new double[] {mean + ZigguratSampler.NormalizedGaussian.of(rng).sample()};

    private static TrainingSample sample(BlackBoxMechanism<Double> m, double a, double b, int n, long seed) {
        BlackBoxSampler<Double> s = new BlackBoxSampler<>(m, a, b, 1, "test");
        return TrainingSample.draw(s, n, RandomSource.XO_SHI_RO_256_PP.create(seed));
    }

    @Test
    void logisticRegressionRecoversTheLinearLogLikelihoodRatio() {
        // N(1, 1) against N(0, 1): log-likelihood ratio x - 1/2.
        TrainingSample s = sample(GAUSSIAN, 1.0, 0.0, 200_000, 1);
        LogisticModel m = LogisticModel.fit(s);
        double[] x = {0.0, 1.0, 2.0, -1.0};
        for (double v : x) {
            assertEquals(v - 0.5, m.score(new double[] {v}, 0), 0.05, "log-odds at " + v);
        }
        assertEquals(LearnedDistinguisher.validationLoss(m, s), 0.6931 - 0.1, 0.02, "better than chance");
    }

    @Test
    void exactMatchIsThePlugInRatioOfDiscreteOutputs() {
        // Randomized response with e^1 : 1 odds: log ratio +1 on output 1, -1 on output 0.
        double p = Math.E / (1 + Math.E);
        BlackBoxMechanism<Double> rr = (bit, rng) -> new double[] {rng.nextDouble() < p ? bit : 1 - bit};
        TrainingSample s = sample(rr, 1.0, 0.0, 200_000, 2);
        ExactMatchModel m = ExactMatchModel.fit(s);
        assertNotNull(m);
        assertEquals(1.0, m.score(new double[] {1.0}, 0), 0.03);
        assertEquals(-1.0, m.score(new double[] {0.0}, 0), 0.03);
        assertEquals(0.0, m.score(new double[] {7.0}, 0), "an output never seen scores 0");
        assertEquals(0.0, m.score(new double[] {-0.0}, 0) - m.score(new double[] {0.0}, 0), "-0.0 is 0.0");
        assertNull(ExactMatchModel.fit(sample(GAUSSIAN, 1.0, 0.0, 10_000, 3)), "continuous outputs: no table");
    }

    @Test
    void histogramFollowsARatioThatIsNotMonotone() {
        // |N(0, 1)| against N(0, 1) folded differently: D is N(0, 1), D' is N(0, 2^2): the ratio peaks at 0.
        BlackBoxMechanism<Double> scale = (sd, rng) ->
                new double[] {sd * ZigguratSampler.NormalizedGaussian.of(rng).sample()};
        TrainingSample s = sample(scale, 1.0, 2.0, 200_000, 4);
        HistogramModel h = HistogramModel.fit(s);
        LogisticModel l = LogisticModel.fit(s);
        // Exact log ratio log 2 - 3 x^2 / 8; each bin holds ~100 outputs per world (sd ~0.14 of one bin's log ratio),
        // so compare the average over 21 points in [-0.5, 0.5], which fall in 21 different bins (sd ~0.03).
        double fitted = 0;
        double exact = 0;
        for (int i = 0; i <= 20; i++) {
            double v = -0.5 + 0.05 * i;
            fitted += h.score(new double[] {v}, 0) / 21;
            exact += (Math.log(2) - 3 * v * v / 8) / 21;
        }
        assertEquals(exact, fitted, 0.1);
        assertTrue(h.score(new double[] {3.0}, 0) < 0 && h.score(new double[] {-3.0}, 0) < 0, "both tails favour D'");
        // Here the squares let logistic regression express it too; both beat chance.
        assertTrue(LearnedDistinguisher.validationLoss(h, s) < 0.68);
        assertTrue(LearnedDistinguisher.validationLoss(l, s) < 0.68);
    }

    @Test
    void trainingIsAFunctionOfTheSeedAndChoosesTheBetterModel() {
        double p = Math.E / (1 + Math.E);
        BlackBoxMechanism<Double> rr = (bit, rng) -> new double[] {rng.nextDouble() < p ? bit : 1 - bit};
        BlackBoxSampler<Double> s = new BlackBoxSampler<>(rr, 1.0, 0.0, 1, "rr");
        UniformRandomProvider a = RandomSource.XO_SHI_RO_256_PP.create(9L);
        UniformRandomProvider b = RandomSource.XO_SHI_RO_256_PP.create(9L);
        Scorer x = new LearnedDistinguisher().train(s, 50_000, a, ProgressListener.NONE);
        Scorer y = new LearnedDistinguisher().train(s, 50_000, b, ProgressListener.NONE);
        double[] out = {1.0, 0.0, 1.0};
        double[] sx = x.score(out, 3, new double[3]).clone();
        double[] sy = y.score(out, 3, new double[3]).clone();
        assertEquals(sx[0], sy[0]);
        assertEquals(sx[1], sy[1]);
        assertTrue(x.mayBeDiscrete());
        // Randomized response's two outputs are ordered the same by every candidate, so the tie goes to the value
        // itself (oriented towards D): its scores rank, they are not log-odds.
        assertTrue(sx[0] > sx[1], "output 1 looks more like D than output 0");
    }

    /**
     * A one-sided tail (1 + Exp(1) against 2 + Exp(1), the shape of noisy max returning the value): outputs below 2
     * never come from D', so the best tests are thresholds on the value's lower end. The tail criterion keeps the value
     * (or a model as good in the tail), whose validation tail bound is far above the logistic model's, which log-loss
     * preferred (fixed seed; 8.35 against 4.33 when written).
     */
    @Test
    void aPlainThresholdOnTheValueIsNeverBeatenByAFittedModel() {
        BlackBoxMechanism<Double> shifted = (base, rng) -> new double[] {base - Math.log(rng.nextDouble())};
        TrainingSample s = sample(shifted, 1.0, 2.0, 100_000, 5);
        double value = LearnedDistinguisher.tailBound(ValueModel.fit(s), s);
        double logistic = LearnedDistinguisher.tailBound(LogisticModel.fit(s), s);
        assertTrue(value > logistic + 0.2, "value " + value + " against logistic " + logistic);
        BlackBoxSampler<Double> sampler = new BlackBoxSampler<>(shifted, 1.0, 2.0, 1, "test");
        Scorer learned = new LearnedDistinguisher().train(sampler, 100_000, RandomSource.XO_SHI_RO_256_PP.create(5),
                io.dpaudit.core.engine.ProgressListener.NONE);
        assertTrue(learned.description().startsWith("learned: minus the output's value")
                || learned.description().startsWith("learned: histogram"), learned.description());
    }

    /**
     * For an audit's budget, the exact-match model's counts are refitted on a twentieth of the trials (streamed): with
     * 2000 held outputs and an audit of 4·10^7 trials, on 2·10^6 outputs per world, every output's plug-in log-ratio is
     * within 0.011 (about five standard errors) of the truth; the held sample alone is not (fixed seed).
     */
    @Test
    void theExactMatchCountsGrowWithTheAuditsBudget() {
        double[] p = {0.2, 0.3, 0.5};
        double[] q = {0.25, 0.3, 0.45};
        BlackBoxMechanism<Double> threeOutputs = (x, rng) -> {
            double[] law = x == 1.0 ? p : q;
            double u = rng.nextDouble();
            // two coordinates, like sparse vector's flags: the value itself is no candidate, exact-match is
            return new double[] {u < law[0] ? 0 : u < law[0] + law[1] ? 1 : 2, 1};
        };
        BlackBoxSampler<Double> s = new BlackBoxSampler<>(threeOutputs, 1.0, 0.0, 2, "three outputs");
        Scorer held = new LearnedDistinguisher().train(s, 2000, RandomSource.XO_SHI_RO_256_PP.create(4L),
                ProgressListener.NONE);
        Scorer counted = new LearnedDistinguisher().forAuditOf(40_000_000L).train(s, 2000,
                RandomSource.XO_SHI_RO_256_PP.create(4L), ProgressListener.NONE);
        assertTrue(counted.description().contains("counted on 2000000 further outputs per world"),
                counted.description());
        double heldError = 0;
        for (int k = 0; k < 3; k++) {
            double truth = Math.log(p[k] / q[k]);
            double[] out = {k, 1};
            assertEquals(truth, counted.score(out, 1, new double[1])[0], 0.011, "output " + k);
            heldError = Math.max(heldError, Math.abs(held.score(out, 1, new double[1])[0] - truth));
        }
        assertTrue(heldError > 0.011, "the held sample alone: largest error " + heldError);
    }
}

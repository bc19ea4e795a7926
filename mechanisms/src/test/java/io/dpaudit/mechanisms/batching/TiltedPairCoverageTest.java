package io.dpaudit.mechanisms.batching;

import static org.junit.jupiter.api.Assertions.assertTrue;

import io.dpaudit.core.bounds.GaussianBound;
import io.dpaudit.core.bounds.PrivacyBound;
import io.dpaudit.core.engine.ProgressListener;
import io.dpaudit.core.estimate.profile.PrivacyLossEstimate;
import io.dpaudit.core.rng.RandomStreams;
import io.dpaudit.mechanisms.batching.BatchingParameters.Sampler;
import java.util.List;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

/**
 * Coverage of the importance-sampled estimates of k-of-T random allocation and of the shuffle's lower-bound pair
 * (statistical tier), as {@code AllocationImportanceEstimatorTest} does for balls-and-bins: 20 seeds per configuration,
 * each interval stated at 95% simultaneous confidence, so a configuration misses in at most 1 seed in expectation; the
 * test fails at 5 or more misses of 20 (probability at most 0.26% per configuration if the intervals hold,
 * Binomial(20, 0.05)). Against the exact Gaussian curve where the pair is Gaussian (T = k = 2: the canary in every step;
 * the shuffle's pair at T = 1 over two epochs), and against certified brackets where it is not, all at a delta near
 * 1e-10: k = 2 of T = 100 between the max test and the decomposition's upper end (a wide bracket: [1.8e-14, 4.6e-10]);
 * the shuffle's pair at T = 100,
 * sigma = 0.5 between the max test and the Gaussian of one known step (which meet there: no amplification).
 */
@Tag("statistical")
class TiltedPairCoverageTest {
    private static final int SEEDS = 20;
    private static final int MAX_MISSES = 4;
    private static final long SAMPLES = 20_000;

    private static PrivacyLossEstimate.DeltaInterval estimate(TiltedPairImportanceEstimator est, double eps,
            long seed) {
        return est.estimate(List.of(eps), List.of(), 0.95, new RandomStreams(seed), 2, ProgressListener.NONE)
                .deltaAt(eps);
    }

    private static int missesOf(double lo, double hi, double eps, long firstSeed,
            java.util.function.Supplier<TiltedPairImportanceEstimator> est, String label) {
        int misses = 0;
        double widest = 0;
        for (int s = 0; s < SEEDS; s++) {
            PrivacyLossEstimate.DeltaInterval d = estimate(est.get(), eps, firstSeed + s);
            if (d.upper() < lo || d.lower() > hi) {
                misses++;
            }
            widest = Math.max(widest, d.upper() / d.lower());
        }
        System.out.printf("[importance coverage] %s: %d misses of %d against [%.4g, %.4g]; widest upper/lower %.3g%n",
                label, misses, SEEDS, lo, hi, widest);
        return misses;
    }

    @Test
    void randomAllocationCoversTheExactGaussianCurveWhereTheCanaryIsInEveryStep() {
        double sigma = 0.5;
        double eps = 21; // delta 2.7e-10 at mu = sqrt(2)/sigma
        double truth = GaussianBound.exactDelta(eps, Math.sqrt(2) / sigma);
        assertTrue(truth > 1e-11 && truth < 1e-9, "truth " + truth);
        int misses = missesOf(truth, truth, eps, 5900, () -> TiltedPairImportanceEstimator.allocation(2, 2, 1, sigma,
                SAMPLES), "2 of T = 2");
        assertTrue(misses <= MAX_MISSES, misses + " misses of " + SEEDS);
    }

    @Test
    void randomAllocationMeetsTheCertifiedBracket() {
        BatchingParameters b = new BatchingParameters(Sampler.RANDOM_ALLOCATION, 100, 1, 0.5, 2, false);
        PrivacyBound upper = AllocationDecomposition.upper(b);
        PrivacyBound lower = new AllocationMaxTestBound(b);
        double eps = 13.0; // delta about 1e-10 (the estimate's epsilon(1e-10): 12.98)
        double hi = upper.delta(eps);
        double lo = lower.delta(eps);
        // the max test is weak for k = 2 (1.8e-14 here; the canary's two steps are not one large maximum): this bracket
        // catches gross errors only; the exact curve at T = k and the unbiasedness checks of TiltedPairTest do the rest
        assertTrue(lo > 1e-15 && hi < 1e-9, "bracket [" + lo + ", " + hi + "]");
        int misses = missesOf(lo, hi, eps, 5920, () -> TiltedPairImportanceEstimator.allocation(100, 2, 1, 0.5,
                SAMPLES), "2 of T = 100");
        assertTrue(misses <= MAX_MISSES, misses + " misses of " + SEEDS + " against [" + lo + ", " + hi + "]");
    }

    @Test
    void theShufflePairCoversTheExactGaussianCurveAtOneStep() {
        double sigma = 0.5;
        double eps = 21; // two epochs of N(2, s^2) against N(1, s^2): mu = sqrt(2)/sigma, delta 2.7e-10
        double truth = GaussianBound.exactDelta(eps, Math.sqrt(2) / sigma);
        int misses = missesOf(truth, truth, eps, 5940, () -> new TiltedPairImportanceEstimator(
                new ShuffleTiltedPair(1, sigma), 2, SAMPLES, "1 step"), "shuffle pair, T = 1, E = 2");
        assertTrue(misses <= MAX_MISSES, misses + " misses of " + SEEDS);
    }

    @Test
    void theShufflePairMeetsItsCertifiedBracket() {
        BatchingParameters b = new BatchingParameters(Sampler.SHUFFLED, 100, 1, 0.5, 1, false);
        double eps = 14.2; // delta about 1e-10
        double lo = new ShuffleMaxTestBound(b).delta(eps);
        double hi = GaussianBound.exactDelta(eps, 1 / 0.5);
        assertTrue(lo > 1e-11 && hi < 1e-9 && hi / lo < 1.1, "bracket [" + lo + ", " + hi + "]");
        int misses = missesOf(lo, hi, eps, 5960, () -> new TiltedPairImportanceEstimator(new ShuffleTiltedPair(100,
                0.5), 1, SAMPLES, "100 steps"), "shuffle pair, T = 100");
        assertTrue(misses <= MAX_MISSES, misses + " misses of " + SEEDS + " against [" + lo + ", " + hi + "]");
    }
}

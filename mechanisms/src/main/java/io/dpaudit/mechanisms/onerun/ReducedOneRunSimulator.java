package io.dpaudit.mechanisms.onerun;

import io.dpaudit.core.law.BinomialTable;
import org.apache.commons.rng.UniformRandomProvider;
import org.apache.commons.rng.sampling.distribution.ZigguratSampler;

/**
 * The scores of a one-run DP-SGD audit drawn from their exact law ({@link OneRunDpSgd}): per canary, its fair coin
 * {@code b} ({@code nextBoolean()}), the number of batches that held it {@code K ~ Binomial(T, q)} when included (one
 * {@code nextDouble()}, inversion on an exact table), and {@code (sigma / C) sqrt(T) Z} with one ziggurat normal:
 * {@code 2 + b} draws per canary whatever T, where the faithful simulator draws T normals per coordinate.
 */
public final class ReducedOneRunSimulator {
    private ReducedOneRunSimulator() {
    }

    /** One training run's canary scores. */
    public static CanaryScores run(OneRunDpSgd setting, UniformRandomProvider rng) {
        int m = setting.canaries();
        BinomialTable batches = new BinomialTable(setting.steps(), setting.q());
        ZigguratSampler.NormalizedGaussian normal = ZigguratSampler.NormalizedGaussian.of(rng);
        double noise = setting.scoreNoise();
        boolean[] coins = new boolean[m];
        double[] scores = new double[m];
        for (int i = 0; i < m; i++) {
            coins[i] = rng.nextBoolean();
            int k = coins[i] ? batches.sample(rng) : 0;
            scores[i] = k + noise * normal.sample();
        }
        return CanaryScores.split(coins, scores);
    }
}

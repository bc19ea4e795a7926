package io.dpaudit.core.estimate;

import static org.junit.jupiter.api.Assertions.assertTrue;

import org.apache.commons.math3.distribution.BinomialDistribution;
import org.apache.commons.rng.UniformRandomProvider;
import org.apache.commons.rng.simple.RandomSource;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/**
 * Validity of {@link ConditionalEpsilonBound}: over R = 2000 independent pairs of binomial counts (one fixed seed per
 * setting) with known rates on the boundary {@code p = e^eps q + delta}, the bound may exceed {@code eps} in at most
 * the 0.999 quantile of Binomial(R, a) runs. If the bound has its stated confidence, each setting fails with
 * probability at most 0.1% over seeds; with these fixed seeds the outcome is deterministic. Settings cover rare and
 * common events, unequal trial numbers, rates where the binomial correction {@code (1 - q)/(1 - r q)} matters
 * (q = 0.3, 0.6) and δ > 0 near its Berger–Boos corner.
 */
@Tag("statistical")
class ConditionalEpsilonBoundCoverageTest {
    private static final int RUNS = 2000;

    @ParameterizedTest
    @CsvSource({
        "2000, 2000, 0.05, 0.7, 0, 0.05, 11",
        "500, 500, 0.3, 0.5, 0, 0.05, 12",
        "3000, 3000, 0.6, 0.4, 0, 0.05, 13",
        "200, 200, 0.02, 1.5, 0, 0.05, 14",
        "100000, 70000, 0.001, 1.0, 0, 0.05, 15",
        "20000, 20000, 0.01, 0.3, 0, 0.2, 16",
        "100000, 100000, 0.01, 0.5, 0.0001, 0.05, 17",
        "50000, 50000, 0.002, 1.0, 0.0005, 0.05, 18",
    })
    void exceedsTheTrueValueNoMoreOftenThanItsLevel(int n, int m, double q, double eps, double delta, double level,
            long seed) {
        double p = Math.exp(eps) * q + delta;
        UniformRandomProvider rng = RandomSource.XO_RO_SHI_RO_128_PP.create(seed);
        // inversion of the binomial distribution functions (exact up to their ~1e-14 accuracy)
        BinomialDistribution positives = new BinomialDistribution(null, n, p);
        BinomialDistribution negatives = new BinomialDistribution(null, m, q);
        int exceed = 0;
        for (int i = 0; i < RUNS; i++) {
            int x = positives.inverseCumulativeProbability(rng.nextDouble());
            int y = negatives.inverseCumulativeProbability(rng.nextDouble());
            if (ConditionalEpsilonBound.epsilon(x, n, y, m, delta, level) > eps) {
                exceed++;
            }
        }
        int limit = new BinomialDistribution(null, RUNS, level).inverseCumulativeProbability(0.999);
        System.out.printf("[conditional bound] n %d, m %d, q %s, eps %s, delta %s, level %s: %d of %d above eps"
                + " (limit %d)%n", n, m, q, eps, delta, level, exceed, RUNS, limit);
        assertTrue(exceed <= limit, exceed + " of " + RUNS + " runs above eps, limit " + limit);
    }
}

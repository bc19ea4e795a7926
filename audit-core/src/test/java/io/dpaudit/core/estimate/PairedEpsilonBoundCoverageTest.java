package io.dpaudit.core.estimate;

import static org.junit.jupiter.api.Assertions.assertTrue;

import org.apache.commons.math3.distribution.BinomialDistribution;
import org.apache.commons.rng.UniformRandomProvider;
import org.apache.commons.rng.simple.RandomSource;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/**
 * Validity of {@link PairedEpsilonBound}: over R = 2000 independent sets of coupled counts (one fixed seed per setting)
 * drawn from cell probabilities on the boundary {@code P = e^eps Q + delta} ({@code p11} and {@code p01} given,
 * {@code p10 = e^eps (p11 + p01) - p11 + delta}), the bound may exceed {@code eps} in at most the 0.999 quantile of
 * Binomial(R, a) runs, for each share of the level {@code kappa_U} may take, and for the marginal form at each share of
 * its other world's limit; likewise {@link PairedDeltaBound}'s two forms at {@code eps} may exceed {@code delta}. If
 * the bounds have their stated confidence, each of the 120 checks fails with probability at most 0.1% over seeds (at
 * most 12% for the class); with these fixed seeds the outcome is deterministic. Settings:
 * strong coupling with a rare event (sparse vector Algorithm 1's regime), weak coupling (few trials with both),
 * common events, few counts, δ > 0, a large error level, monotone coupling ({@code p01 = 0}: a Laplace tail), where
 * {@code kappa} carries the evidence, and disjoint supports ({@code p11 = 0}), where the marginal form is nearly
 * exact.
 */
@Tag("statistical")
class PairedEpsilonBoundCoverageTest {
    private static final int RUNS = 2000;
    /** Every share of the level {@code kappa_U} may take (paired form). */
    private static final double[] SHARES = PairedEpsilonBound.KAPPA_SHARES;
    /** Every share of the level the other world's limit may take (marginal form). */
    private static final double[] OTHER = PairedEpsilonBound.OTHER_SHARES;

    @ParameterizedTest
    @CsvSource({
        "100000, 0.02, 0.001, 0.09, 0, 0.05, 21",
        "10000, 0.3, 0.05, 0.5, 0, 0.05, 22",
        "20000, 0.001, 0.02, 0.3, 0, 0.05, 23",
        "2000, 0.005, 0.002, 1.0, 0, 0.05, 24",
        "100000, 0.01, 0.002, 0.2, 0.001, 0.05, 25",
        "50000, 0.05, 0.0005, 0.02, 0.0002, 0.05, 26",
        "20000, 0.02, 0.004, 0.1, 0, 0.2, 27",
        "1000000, 0.0005, 0.00002, 0.05, 0, 0.05, 28",
        "100000, 0.1, 0, 0.1, 0, 0.05, 29",
        "5000, 0.02, 0, 0.5, 0, 0.05, 30",
        "100000, 0, 0.0005, 1.0, 0, 0.05, 31",
        "1000000, 0, 0.00001, 3.0, 0, 0.2, 32",
    })
    void exceedsTheTrueValueNoMoreOftenThanItsLevel(int n, double p11, double p01, double eps, double delta,
            double level, long seed) {
        double p10 = Math.exp(eps) * (p11 + p01) - p11 + delta;
        UniformRandomProvider rng = RandomSource.XO_RO_SHI_RO_128_PP.create(seed);
        int[] exceed = new int[SHARES.length];
        int[] exceedMarginal = new int[OTHER.length];
        // the delta forms at eps: above the true delta of the test
        int[] deltaExceed = new int[SHARES.length];
        int[] deltaExceedMarginal = new int[OTHER.length];
        for (int i = 0; i < RUNS; i++) {
            // the multinomial as successive binomials, each by inversion
            int both = new BinomialDistribution(null, n, p11).inverseCumulativeProbability(rng.nextDouble());
            int flaggedOnly = new BinomialDistribution(null, n - both, p10 / (1 - p11))
                    .inverseCumulativeProbability(rng.nextDouble());
            int otherOnly = new BinomialDistribution(null, n - both - flaggedOnly, p01 / (1 - p11 - p10))
                    .inverseCumulativeProbability(rng.nextDouble());
            for (int k = 0; k < SHARES.length; k++) {
                if (PairedEpsilonBound.epsilon(both, flaggedOnly, otherOnly, n, delta, level, SHARES[k]) > eps) {
                    exceed[k]++;
                }
            }
            for (int k = 0; k < OTHER.length; k++) {
                if (PairedEpsilonBound.marginalEpsilon(both, flaggedOnly, otherOnly, n, delta, level, OTHER[k]) > eps) {
                    exceedMarginal[k]++;
                }
                if (PairedDeltaBound.marginalDelta(both, flaggedOnly, otherOnly, n, eps, level, OTHER[k]) > delta) {
                    deltaExceedMarginal[k]++;
                }
            }
            for (int k = 0; k < SHARES.length; k++) {
                if (PairedDeltaBound.delta(both, flaggedOnly, otherOnly, n, eps, level, SHARES[k]) > delta) {
                    deltaExceed[k]++;
                }
            }
        }
        int limit = new BinomialDistribution(null, RUNS, level).inverseCumulativeProbability(0.999);
        for (int k = 0; k < SHARES.length; k++) {
            System.out.printf("[paired bound] n %d, p11 %s, p01 %s, eps %s, delta %s, level %s, kappa share %s: %d of %d"
                    + " above eps (limit %d)%n", n, p11, p01, eps, delta, level, SHARES[k], exceed[k], RUNS, limit);
            assertTrue(exceed[k] <= limit, exceed[k] + " of " + RUNS + " runs above eps, limit " + limit);
        }
        for (int k = 0; k < OTHER.length; k++) {
            System.out.printf("[paired bound] n %d, p11 %s, p01 %s, eps %s, delta %s, level %s, marginal form, other "
                    + "share %s: %d of %d above eps (limit %d)%n", n, p11, p01, eps, delta, level, OTHER[k],
                    exceedMarginal[k], RUNS, limit);
            assertTrue(exceedMarginal[k] <= limit, exceedMarginal[k] + " of " + RUNS + " runs above eps (marginal), "
                    + "limit " + limit);
        }
        for (int k = 0; k < SHARES.length + OTHER.length; k++) {
            boolean marginal = k >= SHARES.length;
            int count = marginal ? deltaExceedMarginal[k - SHARES.length] : deltaExceed[k];
            System.out.printf("[paired bound] n %d, p11 %s, p01 %s, eps %s, delta %s, level %s, delta bound, %s share "
                    + "%s: %d of %d above delta (limit %d)%n", n, p11, p01, eps, delta, level,
                    marginal ? "marginal form, other" : "paired form, kappa",
                    marginal ? OTHER[k - SHARES.length] : SHARES[k], count, RUNS, limit);
            assertTrue(count <= limit, count + " of " + RUNS + " runs above delta, limit " + limit);
        }
    }
}

package io.dpaudit.core.estimate.profile;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.dpaudit.core.law.GaussianMixture;
import io.dpaudit.core.rng.RandomStreams;
import java.util.List;
import java.util.function.DoubleUnaryOperator;
import org.apache.commons.math3.distribution.NormalDistribution;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

/**
 * Coverage of the importance-sampled intervals: 200 seeded runs at each of two settings, the exact curve checked at
 * every grid point of every run (a run misses when any of its ~160 simultaneous intervals does).
 *
 * <p>With simultaneous confidence 95% a run misses with probability at most 0.05, so misses ~ Binomial(200, ≤ 0.05)
 * and the test fails when more than 19 runs miss: its false-failure rate is at most P[Bin(200, 0.05) ≥ 20] = 0.0036
 * (0.0072 for both settings), lower still since Bonferroni and empirical Bernstein are conservative. The seeds are
 * fixed (1..200), so the test is deterministic; the rate above is what a change of seeds would risk.
 *
 * <p>In the same runs, a claim 10% below the true ε at δ = 1e-10 must come out violated (the estimate's lower δ at the
 * claim's ε above 1e-10) in every run, and the correct claim (the true ε) never.
 */
@Tag("statistical")
class TiltedProfileCoverageTest {
    static final NormalDistribution N01 = new NormalDistribution(null, 0, 1);
    static final int RUNS = 200;
    static final int MAX_MISSES = 19;

    /** Φ(x), accurate in both tails. */
    static double cdf(double x) {
        return N01.cumulativeProbability(x);
    }

    /** Exact δ(ε) of one round of (1-q) N(0,1) + q N(1,1) against N(0,1), the larger direction, in closed form. */
    static double subsampledDelta(double q, double epsilon) {
        double e = Math.exp(epsilon);
        // D || D': the loss exceeds ε beyond x1 = 1/2 + log((e^ε - (1-q))/q).
        double x1 = 0.5 + Math.log((e - (1 - q)) / q);
        double a = (1 - q) * cdf(-x1) + q * cdf(1 - x1) - e * cdf(-x1);
        // D' || D: below x2 = 1/2 + log((e^-ε - (1-q))/q) when e^-ε > 1-q.
        double b = 0;
        if (Math.exp(-epsilon) > 1 - q) {
            double x2 = 0.5 + Math.log((Math.exp(-epsilon) - (1 - q)) / q);
            b = cdf(x2) - e * ((1 - q) * cdf(x2) + q * cdf(x2 - 1));
        }
        return Math.max(Math.max(a, b), 0);
    }

    static double epsilonAt(DoubleUnaryOperator delta, double target) {
        double lo = 0;
        double hi = 50;
        for (int i = 0; i < 200; i++) {
            double mid = 0.5 * (lo + hi);
            if (delta.applyAsDouble(mid) > target) {
                lo = mid;
            } else {
                hi = mid;
            }
        }
        return 0.5 * (lo + hi);
    }

    @Test
    void gaussianMechanism() {
        coverage(GaussianMixture.single(1, 1), e -> TiltedProfileEstimatorTest.gaussianDelta(1, e), 20_000);
    }

    @Test
    void subsampledGaussian() {
        double q = 0.05;
        coverage(new GaussianMixture(new double[] {1 - q, q}, new double[][] {{0}, {1}}, 1),
                e -> subsampledDelta(q, e), 20_000);
    }

    private static void coverage(GaussianMixture with, DoubleUnaryOperator exact, long samples) {
        GaussianMixture without = GaussianMixture.single(0, 1);
        double delta = 1e-10;
        double truth = epsilonAt(exact, delta);
        double planted = 0.9 * truth;
        int misses = 0;
        int plantedCaught = 0;
        int correctFlagged = 0;
        for (int seed = 1; seed <= RUNS; seed++) {
            PrivacyLossEstimate est = TiltedProfileEstimator.estimate(with, without, 1, List.of(planted, truth),
                    List.of(delta), samples, 0.95, new RandomStreams(seed), 2).estimate();
            boolean miss = false;
            for (PrivacyLossEstimate.DeltaInterval d : est.grid()) {
                double x = exact.applyAsDouble(d.epsilon());
                miss |= !(d.lower() <= x && x <= d.upper());
            }
            misses += miss ? 1 : 0;
            plantedCaught += est.deltaAt(planted).lower() > delta ? 1 : 0;
            correctFlagged += est.deltaAt(truth).lower() > delta ? 1 : 0;
        }
        assertTrue(misses <= MAX_MISSES, misses + " of " + RUNS + " runs missed the exact curve");
        assertEquals(RUNS, plantedCaught, "a claim 10% below the true epsilon caught in every run");
        assertEquals(0, correctFlagged, "the correct claim is never violated");
    }
}

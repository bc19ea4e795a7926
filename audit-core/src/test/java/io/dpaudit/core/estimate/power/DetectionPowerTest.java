package io.dpaudit.core.estimate.power;

import io.dpaudit.core.estimate.ClopperPearson;
import io.dpaudit.core.estimate.DeltaLowerBound;
import io.dpaudit.core.estimate.SelectedTest;
import io.dpaudit.core.estimate.TestDirection;
import io.dpaudit.core.estimate.tradeoff.CertifiedTradeOff;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.dpaudit.core.fdp.GaussianTradeOff;
import io.dpaudit.core.fdp.TradeOffFunction;
import io.dpaudit.core.numerics.Normal;
import java.util.ArrayList;
import java.util.List;
import org.apache.commons.math3.distribution.BinomialDistribution;
import org.apache.commons.math3.random.Well19937c;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

/**
 * The power statements mean what they say: a mechanism at the detectable size is flagged with probability at least
 * 0.9. Checked by simulating the audit's counts (binomial draws, fixed seeds) at the stated size, 2000 repetitions;
 * each check allows the 0.9 minus four standard errors of 2000 Bernoulli(0.9) draws (0.873), a false-failure rate
 * below 1e-4 were the detection probability exactly 0.9 (the union bound makes it higher).
 */
class DetectionPowerTest {
    private static final int REPETITIONS = 2000;
    private static final double FLOOR = 0.9 - 4 * Math.sqrt(0.9 * 0.1 / REPETITIONS);

    private static SelectedTest test(long tp, long fp, long n, double level) {
        return new SelectedTest(TestDirection.UPPER_TAIL_FLAGS_D, 0, 0.0, tp, fp, n, n,
                ClopperPearson.lower(tp, n, level), ClopperPearson.upper(fp, n, level), level);
    }

    /** The fraction of simulated audits that flag a claim when the true rates are (e^eps b + delta, b). */
    private static double flagRate(long n, double b, double epsilon, double delta, double claimDelta, double level,
            int seed) {
        BinomialDistribution x = new BinomialDistribution(new Well19937c(seed), (int) n,
                Math.min(1, Math.exp(epsilon) * b + delta));
        BinomialDistribution y = new BinomialDistribution(new Well19937c(seed + 1000), (int) n, b);
        int flagged = 0;
        for (int i = 0; i < REPETITIONS; i++) {
            double lb = ClopperPearson.lower(x.sample(), n, level) - Math.exp(epsilon)
                    * ClopperPearson.upper(y.sample(), n, level);
            flagged += lb > claimDelta ? 1 : 0;
        }
        return (double) flagged / REPETITIONS;
    }

    @Test
    @Tag("statistical") // repeated simulation or a slow sweep: verify's tier, not the unit tier
    void aMechanismAtTheDetectableDeltaIsFlaggedWithProbabilityAtLeast90Percent() {
        double[][] settings = {
            // n, false positives observed, epsilon, claimed delta, level
            {100_000, 30, 1.0, 1e-4, 0.025},
            {100_000, 0, 0.5, 1e-5, 0.025},
            {1_000_000, 2000, 0.2, 1e-5, 0.025},
            {50_000, 500, 2.0, 0, 0.0005},
        };
        int seed = 1;
        for (double[] s : settings) {
            long n = (long) s[0];
            SelectedTest t = test(0, (long) s[1], n, s[4]);
            double detectable = DetectionPower.detectableDelta(t, s[2], s[3]);
            assertTrue(Double.isFinite(detectable) && detectable > s[3], "detectable " + detectable);
            double rate = flagRate(n, s[1] / n, s[2], detectable, s[3], s[4], seed++);
            assertTrue(rate >= FLOOR, "flagged " + rate + " at the detectable delta " + detectable);
        }
    }

    @Test
    void detectableDeltaShrinksWithTrialsAndIsInfiniteWhenNothingCanBeSeen() {
        double a = 0.025;
        double small = DetectionPower.detectableDelta(test(0, 30, 100_000, a), 1.0, 1e-4);
        double large = DetectionPower.detectableDelta(test(0, 300, 1_000_000, a), 1.0, 1e-4);
        assertTrue(large < small, large + " vs " + small);
        // e^eps times the false-positive bound already exceeds 1: no true-positive rate can help.
        assertEquals(Double.POSITIVE_INFINITY, DetectionPower.detectableDelta(test(0, 50_000, 100_000, a), 1000,
                1e-5));
        // A claim of delta 0.9999 cannot be exceeded by any lower bound on 10 trials.
        assertEquals(Double.POSITIVE_INFINITY, DetectionPower.detectableDelta(test(0, 0, 10, a), 0, 0.9999));
    }

    /**
     * Tests no number of trials can make sensitive enough end the search with 0, not an exception: before the search
     * stopped at 10^15 trials per world it went to 10^18, where Clopper–Pearson limits fail ("no sign change"), and
     * these seven cases threw (the JUnit assertions' message of an inconclusive audit would have been an error).
     */
    @Test
    void hopelessTestsEndTheSearchWithZero() {
        long[][] cases = {{1000, 100}, {30000, 0}, {30000, 10}, {30000, 100}, {50000, 0}, {50000, 10}};
        for (long[] c : cases) {
            SelectedTest t = test(c[0], c[0], 100_000, 0.025);
            double epsilon = c[1] / 100.0;
            assertEquals(0, DetectionPower.trialsToResolve(t, epsilon, 1e-9), "fp " + c[0] + ", eps " + epsilon);
        }
        assertEquals(0, DetectionPower.trialsToResolve(test(50000, 50000, 100_000, 0.025), 0, 0.5));
    }

    @Test
    void trialsToResolveMakeTheSameTestConclusive() {
        SelectedTest t = test(300, 30, 100_000, 0.025);
        assertFalse(EpsilonPower.powered(new DeltaLowerBound(1.0, 0, t), 1.0, 1e-5));
        long needed = DetectionPower.trialsToResolve(t, 1.0, 1e-5);
        assertTrue(needed > 100_000, "needed " + needed);
        long scale = needed / 100_000;
        SelectedTest more = test(300 * scale, 30 * scale, needed, 0.025);
        assertTrue(EpsilonPower.powered(new DeltaLowerBound(1.0, 0, more), 1.0, 1e-5));
        SelectedTest half = test(300 * scale / 2, 30 * scale / 2, needed / 2, 0.025);
        assertTrue(scale == 2 || !EpsilonPower.powered(new DeltaLowerBound(1.0, 0, half), 1.0, 1e-5),
                "the smallest factor");
    }

    @Test
    void upperQuantileMatchesTheBinomialDefinition() {
        BinomialDistribution d = new BinomialDistribution(null, 1000, 0.03);
        assertEquals(d.inverseCumulativeProbability(0.95), DetectionPower.upperQuantile(1000, 0.03, 0.95));
        assertEquals(0, DetectionPower.upperQuantile(1000, 0.0, 0.95));
        assertEquals(1000, DetectionPower.upperQuantile(1000, 1.0, 0.95));
        long q = DetectionPower.upperQuantile(10_000_000_000L, 1e-6, 0.95); // n beyond int: mean 10^4
        assertTrue(q > 10_100 && q < 10_200, "quantile " + q);
    }

    /**
     * The search from the normal approximation finds what plain bisection over the whole range {@code [0, n]} finds,
     * on 400 random cases (n from 1 to 10^9, rates log-uniform from 1e-9, four probabilities; fixed seed).
     */
    @Test
    void upperQuantileAgreesWithBisectionOverTheWholeRange() {
        java.util.SplittableRandom rng = new java.util.SplittableRandom(2026);
        double[] probs = {0.5, 0.9, 0.95, 0.99995};
        for (int i = 0; i < 400; i++) {
            long n = (long) Math.ceil(Math.pow(10, 9 * rng.nextDouble()));
            double r = Math.pow(10, -9 * rng.nextDouble());
            double prob = probs[i % probs.length];
            long lo = -1;
            long hi = n;
            while (hi - lo > 1) {
                long mid = lo + (hi - lo) / 2;
                if (DetectionPower.cdf(mid, n, r) >= prob) {
                    hi = mid;
                } else {
                    lo = mid;
                }
            }
            assertEquals(hi, DetectionPower.upperQuantile(n, r, prob), "n " + n + ", r " + r + ", prob " + prob);
        }
    }


    /**
     * The bracketed search of the smallest count whose Clopper–Pearson lower limit exceeds a target finds what
     * bisection over {@code [0, n]} finds, on 400 random cases (n from 2 to 10^9, targets log-uniform from 1e-9 up to
     * just below the limit of {@code n}, levels 1e-2 to 1e-7; fixed seed).
     */
    @Test
    void smallestCountAboveAgreesWithBisectionOverTheWholeRange() {
        java.util.SplittableRandom rng = new java.util.SplittableRandom(20261129L);
        int checked = 0;
        for (int i = 0; i < 400; i++) {
            long n = 1 + (long) Math.ceil(Math.pow(10, 9 * rng.nextDouble()));
            double a = Math.pow(10, -2 - 5 * rng.nextDouble());
            double target = Math.pow(10, -9 * rng.nextDouble());
            if (!(ClopperPearson.lower(n, n, a) > target)) {
                continue;
            }
            long lo = 0;
            long hi = n;
            while (hi - lo > 1) {
                long mid = lo + (hi - lo) / 2;
                if (ClopperPearson.lower(mid, n, a) > target) {
                    hi = mid;
                } else {
                    lo = mid;
                }
            }
            assertEquals(hi, DetectionPower.smallestCountAbove(n, a, target),
                    "n " + n + ", a " + a + ", target " + target);
            checked++;
        }
        assertTrue(checked > 300, "cases checked: " + checked);
    }
    /**
     * The one-evaluation test the trade-off power's bisection uses agrees with the quantile itself: at, one below and
     * one above the quantile, over random (n, r) spanning nine decades each, and at the edge rates 0 and 1.
     */
    @Test
    void upperQuantileAtMostAgreesWithTheQuantile() {
        java.util.SplittableRandom rng = new java.util.SplittableRandom(20261127L);
        double[] probs = {0.5, 0.95, 0.99995};
        for (int i = 0; i < 300; i++) {
            long n = (long) Math.ceil(Math.pow(10, 9 * rng.nextDouble()));
            double r = Math.pow(10, -9 * rng.nextDouble());
            double prob = probs[i % probs.length];
            long q = DetectionPower.upperQuantile(n, r, prob);
            for (long y = q - 1; y <= q + 1; y++) {
                assertEquals(q <= y, DetectionPower.upperQuantileAtMost(y, n, r, prob),
                        "y " + y + ", n " + n + ", r " + r + ", prob " + prob);
            }
        }
        for (double r : new double[] {0.0, -1.0, Double.NaN, 1.0, 2.0}) {
            long q = DetectionPower.upperQuantile(50, r, 0.95);
            for (long y = -1; y <= 51; y++) {
                assertEquals(q <= y, DetectionPower.upperQuantileAtMost(y, 50, r, 0.95), "r " + r + ", y " + y);
            }
        }
    }

    /**
     * The f-DP power: a Gaussian pair at the detectable mu, with tests at the certified points' type I rates, is
     * refuted with probability at least 0.9. The curve is certified from the expected counts of a Gaussian pair at
     * the claimed mu (64 thresholds spanning the scores), Clopper–Pearson at the Bonferroni level.
     */
    @Test
    @Tag("statistical") // repeated simulation or a slow sweep: verify's tier, not the unit tier
    void aGaussianPairAtTheDetectableMuIsRefutedWithProbabilityAtLeast90Percent() {
        long n = 100_000;
        double claimMu = 1.0;
        double level = 0.05 / (4 * 64);
        double[] thresholds = new double[64];
        for (int i = 0; i < 64; i++) {
            thresholds[i] = -3 + 7.0 * i / 63;
        }
        CertifiedTradeOff curve = certify(thresholds, claimMu, n, level, null);
        TradeOffFunction f = new GaussianTradeOff(claimMu);
        TradeOffPower power = TradeOffPower.of(curve, f, f, claimMu);
        assertEquals(claimMu, power.claimMu());
        assertTrue(power.mu() > claimMu && power.mu() < 1.3, "mu " + power.mu());
        assertFalse(power.inconclusive());
        // Simulate the alternative N(mu*, 1) against N(0, 1), its thresholds shifted by mu* - mu so that its tests
        // have the certified points' type I rates (the model's assumption).
        double[] shifted = new double[thresholds.length];
        for (int i = 0; i < shifted.length; i++) {
            shifted[i] = thresholds[i] + power.mu() - claimMu;
        }
        Well19937c rng = new Well19937c(42);
        int refuted = 0;
        for (int r = 0; r < 500; r++) {
            CertifiedTradeOff alt = certify(shifted, power.mu(), n, level, rng);
            refuted += alt.refute(f, f) != null ? 1 : 0;
        }
        double floor = 0.9 - 4 * Math.sqrt(0.09 / 500);
        assertTrue(refuted / 500.0 >= floor, "refuted " + refuted + " of 500");
        // A larger sample detects a smaller gap.
        TradeOffPower more = TradeOffPower.of(certify(thresholds, claimMu, 10 * n, level, null), f, f, claimMu);
        assertTrue(more.muGap() < power.muGap(), more.muGap() + " vs " + power.muGap());
    }

    /**
     * A certified curve from the scores N(mu, 1) in world D and N(0, 1) in world D' ("reject D when score < t" has
     * type I rate P(N(mu,1) < t)): expected counts when {@code rng} is null, binomial draws otherwise.
     */
    private static CertifiedTradeOff certify(double[] thresholds, double mu, long n, double level, Well19937c rng) {
        List<CertifiedTradeOff.Point> points = new ArrayList<>();
        for (double t : thresholds) {
            double a = Normal.cdf(t - mu);  // P_D(score < t): rejecting D below t errs when D is true
            double b = Normal.sf(t);        // P_D'(score >= t): D' taken for D
            long ka = rng == null ? Math.round(a * n) : new BinomialDistribution(rng, (int) n, a).sample();
            long kb = rng == null ? Math.round(b * n) : new BinomialDistribution(rng, (int) n, b).sample();
            points.add(new CertifiedTradeOff.Point(ClopperPearson.upper(ka, n, level), ClopperPearson.upper(kb, n,
                    level), "t = " + t, (double) ka / n, (double) kb / n));
        }
        return new CertifiedTradeOff("test", 0.95, points, n, n, (k, trials) -> ClopperPearson.upper(k, trials,
                level));
    }

    /**
     * The binomial distribution function at 10^13 trials, where the scaled tests of the "would resolve" search go:
     * against the Poisson limit at 50 digits (mpmath's regularized incomplete gamma; it differs from the binomial by
     * about 1e-9 relative here) to 1e-7. commons-math3's regularized beta function, used before at every size, was 5e-4
     * and 4e-5 relative off.
     */
    @Test
    void theDistributionFunctionHoldsAtTenToTheThirteenTrials() {
        long n = 10_000_000_000_000L;
        double[][] rows = {{1000, 1100, 0.0011752305681365552962}, {100000, 101000, 0.00081720781367723884234}};
        for (double[] r : rows) {
            double cdf = DetectionPower.cdf((long) r[0], n, r[1] / n);
            assertTrue(Math.abs(cdf / r[2] - 1) < 1e-7, r[0] + ": " + cdf + " against " + r[2]);
        }
    }
}

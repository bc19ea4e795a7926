package io.dpaudit.core.estimate.onerun;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.dpaudit.core.InvalidInputException;
import io.dpaudit.core.fdp.EpsilonDeltaTradeOff;
import io.dpaudit.core.fdp.GaussianTradeOff;
import io.dpaudit.core.numerics.Normal;
import org.junit.jupiter.api.Test;

/**
 * The one-run f-DP bound: the worked examples of its javadoc, the greedy law against an independent solution of the
 * same optimisation, and its relation to Steinke et al.'s binomial bound.
 */
class OneRunFdpBoundTest {
    /** One canary, one guess: the guess is right exactly when the coin says "included", probability 1/2. */
    @Test
    void oneCanaryOneGuessIsExactlyAHalf() {
        for (double mu : new double[] {0.1, 1, 5}) {
            assertEquals(0.5, OneRunFdpBound.pValue(1, 1, 1, new GaussianTradeOff(mu)), 1e-9); // the 1e-9 slack
        }
        assertEquals(0.5, OneRunFdpBound.pValue(1, 1, 1, new EpsilonDeltaTradeOff(3, 0)), 1e-9);
    }

    /**
     * Two canaries, one guess (derived by hand in the class javadoc): {@code t + g(t) <= 1}, so the p-value is
     * {@code Phi(mu/2)} for mu-GDP and {@code e^eps/(1 + e^eps)} for eps-DP.
     */
    @Test
    void twoCanariesOneGuessGiveTheBestSingleTestsAccuracy() {
        for (double mu : new double[] {0.2, 1, 3}) {
            double p = OneRunFdpBound.pValue(2, 1, 1, new GaussianTradeOff(mu));
            assertEquals(Normal.cdf(mu / 2), p, 1e-9);
            assertTrue(p >= Normal.cdf(mu / 2) - 1e-12, "rounded up");
        }
        for (double eps : new double[] {0.5, 2}) {
            assertEquals(Math.exp(eps) / (1 + Math.exp(eps)),
                    OneRunFdpBound.pValue(2, 1, 1, new EpsilonDeltaTradeOff(eps, 0)), 1e-9);
        }
    }

    /**
     * Two canaries, one guessed in and one out (the two-sided normalisation 1/m, derived in the class javadoc): the
     * greedy law puts t at c = 2, 2 g(t) at c = 1 and max(0, g(t + g(t)) - g(t)) at c = 0, so the p-value is the t at
     * which their sum is 1. For eps-DP, g(x) = x e^-eps below q = e^eps/(1 + e^eps), and the sum is t (1 + e^-eps)^2:
     * the p-value is q^2, the probability that randomized response gets both coins right. For mu-GDP the same sum is
     * solved here by bisection, apart from the class's code.
     */
    @Test
    void twoSidedGuessesOnTwoCanariesMatchTheHandDerivation() {
        for (double eps : new double[] {0.5, 2}) {
            double q = Math.exp(eps) / (1 + Math.exp(eps));
            assertEquals(q * q, OneRunFdpBound.pValue(2, 2, 2, new EpsilonDeltaTradeOff(eps, 0),
                    GuessSides.TWO_SIDED), 1e-9);
        }
        for (double mu : new double[] {0.5, 1, 3}) {
            java.util.function.DoubleUnaryOperator g = x -> Normal.cdf(Normal.quantile(x) - mu);
            double lo = 0;
            double hi = 1;
            for (int i = 0; i < 200; i++) {
                double t = 0.5 * (lo + hi);
                double gt = g.applyAsDouble(t);
                double total = t + 2 * gt + Math.max(0, g.applyAsDouble(t + gt) - gt);
                if (total <= 1) {
                    lo = t;
                } else {
                    hi = t;
                }
            }
            assertEquals(lo, OneRunFdpBound.pValue(2, 2, 2, new GaussianTradeOff(mu), GuessSides.TWO_SIDED), 1e-8);
        }
    }

    /** The two-sided constraints are the one-sided ones at half the rates: never tighter for the same counts. */
    @Test
    void twoSidedPValuesAreNeverBelowOneSidedOnes() {
        long[][] cases = {{100, 20, 15}, {1000, 100, 80}, {1000, 500, 300}, {50, 10, 10}};
        for (long[] c : cases) {
            for (double mu : new double[] {0.5, 2}) {
                double one = OneRunFdpBound.pValue(c[0], c[1], c[2], new GaussianTradeOff(mu));
                double two = OneRunFdpBound.pValue(c[0], c[1], c[2], new GaussianTradeOff(mu), GuessSides.TWO_SIDED);
                assertTrue(two >= one - 1e-12, java.util.Arrays.toString(c) + " mu " + mu + ": " + two + " < " + one);
            }
        }
    }

    /**
     * The greedy law against a direct numerical maximisation of {@code P(C >= v)} over all laws of {@code C} subject to
     * every constraint {@code H_j >= g(R_j)}, {@code R_j <= 1} and total mass at most 1 — a convex programme solved
     * with SciPy's SLSQP from 20 random starts (not the greedy argument), computed for this test on 2026-11-26.
     */
    @Test
    void theGreedyLawIsTheMaximumOfTheConvexProgramme() {
        double[][] cases = {
            {2, 1, 1, 1.0, 0.6914624613},
            {10, 3, 3, 0.5, 0.2990444331},
            {20, 6, 5, 0.8, 0.6221248060},
            {50, 6, 6, 2.0, 0.9235424663},
            {100, 8, 7, 0.6, 0.500139067514},
            {30, 4, 4, 1.0, 0.557297274368},
            {40, 10, 8, 0.4, 0.301996329246},
            {10, 3, 2, 1.0, 1.0},
        };
        for (double[] c : cases) {
            double p = OneRunFdpBound.pValue((long) c[0], (long) c[1], (long) c[2], new GaussianTradeOff(c[3]));
            assertEquals(c[4], p, 1e-8, java.util.Arrays.toString(c));
        }
    }

    /**
     * For pure DP a randomized-response canary makes Steinke et al.'s binomial p-value exact, so no valid bound may
     * certify more: the f-DP route with the (eps, 0) trade-off stays at or below {@link OneRunBound} (and within 3% of
     * it on these counts: 2.3% below on the smallest, 200 canaries).
     */
    @Test
    void pureDpNeverBeatsTheExactBinomial() {
        long[][] cases = {{1000, 100, 90}, {1000, 500, 400}, {10_000, 100, 100}, {100_000, 1000, 950}, {200, 50, 40}};
        for (long[] c : cases) {
            double fdp = OneRunFdpBound.epsilonLowerBound(c[0], c[1], c[2], 0, 0.05);
            double binomial = OneRunBound.epsilonLowerBound(c[0], c[1], c[2], 0, 0.05);
            assertTrue(fdp <= binomial + 1e-9, fdp + " > " + binomial);
            assertTrue(fdp >= 0.97 * binomial, fdp + " << " + binomial);
        }
    }

    /**
     * With δ > 0 the trade-off route charges δ inside each test instead of Steinke et al.'s {@code 2 m delta} term: at
     * 10^5 canaries it certifies more (values of the Python prototype of this class, 2026-11-26: 2.689 against 2.495).
     */
    @Test
    void approximateDpChargesDeltaPerTest() {
        double fdp = OneRunFdpBound.epsilonLowerBound(100_000, 1000, 950, 1e-5, 0.05);
        double binomial = OneRunBound.epsilonLowerBound(100_000, 1000, 950, 1e-5, 0.05);
        assertEquals(2.6891, fdp, 2e-3);
        assertTrue(fdp > binomial + 0.15, fdp + " vs " + binomial);
    }

    /** The μ bound: monotone in the evidence, 0 without it, and refuting exactly below itself. */
    @Test
    void theMuBoundIsTheEdgeOfRefutation() {
        double a = OneRunFdpBound.gdpMuLowerBound(1000, 100, 90, 0.05);
        double b = OneRunFdpBound.gdpMuLowerBound(1000, 100, 99, 0.05);
        assertEquals(0.6567, a, 2e-4); // the prototype's value
        assertTrue(b > a);
        assertTrue(OneRunFdpBound.refutes(1000, 100, 90, new GaussianTradeOff(a), 0.05));
        assertTrue(!OneRunFdpBound.refutes(1000, 100, 90, new GaussianTradeOff(a * (1 + 1e-6)), 0.05));
        assertEquals(0.0, OneRunFdpBound.gdpMuLowerBound(1000, 100, 50, 0.05));
        assertEquals(0.0, OneRunFdpBound.gdpMuLowerBound(1000, 0, 0, 0.05));
    }

    /** The closed forms of {@code g} against the interface's bisection on the same curves, and their edge values. */
    @Test
    void closedFormsOfTheLeastTypeOneErrorAgreeWithBisection() {
        io.dpaudit.core.fdp.TradeOffFunction[] curves = {new GaussianTradeOff(0.7), new GaussianTradeOff(3),
            new EpsilonDeltaTradeOff(1.5, 1e-3), new EpsilonDeltaTradeOff(0.2, 0)};
        for (io.dpaudit.core.fdp.TradeOffFunction f : curves) {
            io.dpaudit.core.fdp.TradeOffFunction generic = f::beta;
            for (double power : new double[] {1e-6, 0.01, 0.3, 0.5, 0.9, 0.999}) {
                assertEquals(generic.leastAlphaAtPower(power), f.leastAlphaAtPower(power), 1e-12, f + " at " + power);
            }
            assertEquals(0.0, f.leastAlphaAtPower(0.0));
        }
        // a large epsilon does not overflow: e^1000 (1 - power) is never formed
        assertEquals(Math.exp(-1000) * 0.5, new EpsilonDeltaTradeOff(1000, 0).leastAlphaAtPower(0.5), 1e-300);
    }

    @Test
    void badCountsAreRefusedByName() {
        assertThrows(InvalidInputException.class, () -> OneRunFdpBound.gdpMuLowerBound(10, 11, 1, 0.05));
        assertThrows(InvalidInputException.class, () -> OneRunFdpBound.gdpMuLowerBound(10, 5, 6, 0.05));
        assertThrows(InvalidInputException.class, () -> OneRunFdpBound.gdpMuLowerBound(10, 5, 2, 1.5));
        assertThrows(InvalidInputException.class, () -> OneRunFdpBound.epsilonLowerBound(10, 5, 2, 1.0, 0.05));
    }
}

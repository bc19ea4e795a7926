package io.dpaudit.core.estimate;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.math.BigDecimal;
import java.math.BigInteger;
import java.math.MathContext;
import org.apache.commons.math3.special.Gamma;
import org.junit.jupiter.api.Test;

class ConditionalEpsilonBoundTest {

    /**
     * Worked by hand: 7 positives in all, 10 trials per world, odds ratio 1 (the central hypergeometric law, Fisher's
     * exact test). The weights {@code C(10, k) C(10, 7 - k)} for k = 0..7 are 120, 2100, 11340, 25200, 25200, 11340,
     * 2100, 120, summing to {@code C(20, 7) = 77520}; so {@code P(X >= 6) = (2100 + 120) / 77520} and
     * {@code P(X = 7) = 120 / 77520}.
     */
    @Test
    void centralTailMatchesFishersExactTestByHand() {
        assertEquals(2220.0 / 77520, ConditionalEpsilonBound.upperTail(6, 10, 10, 7, 1.0), 1e-14);
        assertEquals(120.0 / 77520, ConditionalEpsilonBound.upperTail(7, 10, 10, 7, 1.0), 1e-15);
        assertEquals(1.0, ConditionalEpsilonBound.upperTail(0, 10, 10, 7, 1.0));
        assertEquals(0.0, ConditionalEpsilonBound.upperTail(8, 10, 10, 7, 1.0));
    }

    /** Against exact rational arithmetic on small supports, for odds ratios on both sides of 1 and unequal worlds. */
    @Test
    void tailMatchesExactArithmetic() {
        long[][] cases = {{30, 40, 25}, {50, 50, 3}, {12, 80, 60}, {200, 150, 180}};
        double[] psis = {0.3, 1.0, 1.7, 12.0, 400.0};
        for (long[] c : cases) {
            for (double psi : psis) {
                for (long x = Math.max(0, c[2] - c[1]); x <= Math.min(c[0], c[2]); x += 3) {
                    double exact = exactTail(x, c[0], c[1], c[2], psi);
                    double got = ConditionalEpsilonBound.upperTail(x, c[0], c[1], c[2], psi);
                    assertTrue(got >= exact * (1 - 1e-12) && got <= exact * (1 + 1e-9) + 1e-21,
                            () -> "n, m, s = " + c[0] + ", " + c[1] + ", " + c[2] + " psi " + psi + ": " + got
                                    + " against " + exact);
                }
            }
        }
    }

    /**
     * At 10^8 trials per world, against the tail summed from log-gamma terms over the law's bulk (the log-gamma values
     * are near 2·10^9, so their differences carry about 1e-7 of rounding: the tolerance is 1e-5 relative).
     */
    @Test
    void tailMatchesLogGammaSumsAtLargeCounts() {
        long n = 100_000_000L;
        long m = 120_000_000L;
        long s = 5_000_000L;
        double psi = 1.09;
        double mean = ConditionalEpsilonBound.mode(n, m, s, psi, 0, s);
        for (double z : new double[] {-2, 0, 1.5, 3, 5}) {
            long x = Math.round(mean + z * 1150);
            double expected = logGammaTail(x, n, m, s, psi, (long) mean);
            double got = ConditionalEpsilonBound.upperTail(x, n, m, s, psi);
            assertEquals(expected, got, 1e-5 * expected + 1e-18, "z = " + z);
        }
    }

    /**
     * The bound's defining property, checked from outside: the p-value at the bound rejects, a hair above it does not.
     */
    @Test
    void boundIsTheEdgeOfTheRejectedRange() {
        long x = 4_680_000;
        long y = 4_320_000;
        long n = 200_000_000;
        double level = 0.1;
        double e = ConditionalEpsilonBound.epsilon(x, n, y, n, 0.0, level);
        double qUpper = ClopperPearson.upper(y, n, ConditionalEpsilonBound.NUISANCE_SHARE * level);
        double testLevel = level * (1 - ConditionalEpsilonBound.NUISANCE_SHARE);
        assertTrue(pValue(x, n, y, n, e, qUpper) <= testLevel);
        assertTrue(pValue(x, n, y, n, e + 1e-9, qUpper) > testLevel * (1 - 1e-9));
    }

    private static double pValue(long x, long n, long y, long m, double e0, double qUpper) {
        double r = Math.exp(e0);
        return ConditionalEpsilonBound.upperTail(x, n, m, x + y, r * (1 - qUpper) / (1 - r * qUpper));
    }

    /**
     * Where the gain comes from: the counts of DP-Sniper's sparse vector Algorithm 1 pair at 2·10^8 trials per world
     * (event probability 0.024, true ratio e^0.0878, expected counts), and a rare event at 10^7. The conditional bound
     * must exceed the ratio of two Clopper–Pearson limits at the same level, by the margins the normal approximations
     * in the class comment predict (0.00064 and 0.12 at these counts; asserted with room: 0.0004 and 0.08).
     */
    @Test
    void tighterThanTwoClopperPearsonLimits() {
        long n = 200_000_000;
        long y = Math.round(n * 0.024);
        long x = Math.round(n * 0.024 * Math.exp(0.0878));
        double cp = Math.log(ClopperPearson.lower(x, n, 0.05) / ClopperPearson.upper(y, n, 0.05));
        double conditional = ConditionalEpsilonBound.epsilon(x, n, y, n, 0.0, 0.1);
        assertTrue(conditional > cp + 0.0004 && conditional < 0.0878, () -> conditional + " against " + cp);

        long rareN = 10_000_000;
        double cpRare = Math.log(ClopperPearson.lower(272, rareN, 0.025) / ClopperPearson.upper(100, rareN, 0.025));
        double rare = ConditionalEpsilonBound.epsilon(272, rareN, 100, rareN, 0.0, 0.05);
        assertTrue(rare > cpRare + 0.08 && rare < 1.0, () -> rare + " against " + cpRare);
    }

    /** With δ the bound concerns {@code log((p - delta) / q)} and shrinks as δ grows. */
    @Test
    void deltaLowersTheBound() {
        long n = 10_000_000;
        double previous = Double.POSITIVE_INFINITY;
        for (double delta : new double[] {0, 1e-9, 1e-6, 1e-4, 1e-3}) {
            double e = ConditionalEpsilonBound.epsilon(30_000, n, 10_000, n, delta, 0.05);
            assertTrue(e <= previous, "delta " + delta);
            previous = e;
        }
        assertTrue(ConditionalEpsilonBound.epsilon(30_000, n, 10_000, n, 1e-9, 0.05) > 1.0);
        // 0.003 - 0.001 = 0.002 against 0.001: at most log 2 = 0.69
        assertTrue(ConditionalEpsilonBound.epsilon(30_000, n, 10_000, n, 1e-3, 0.05) < Math.log(2));
        assertEquals(0.0, ConditionalEpsilonBound.epsilon(30_000, n, 0, n, 1e-6, 0.05),
                "no false positives: q_L = 0 and delta / q_L is unbounded");
    }

    @Test
    void givesNothingWithoutEvidence() {
        assertEquals(0.0, ConditionalEpsilonBound.epsilon(0, 1000, 0, 1000, 0, 0.05));
        assertEquals(0.0, ConditionalEpsilonBound.epsilon(100, 1000, 120, 1000, 0, 0.05));
        assertEquals(0.0, ConditionalEpsilonBound.epsilon(1000, 1000, 1000, 1000, 0, 0.05));
    }

    /** All positives, no false positives: bounded by the cap {@code log(1 / q_U)}, finite. */
    @Test
    void separatedWorldsGiveTheCap() {
        long n = 1_000_000;
        double e = ConditionalEpsilonBound.epsilon(n, n, 0, n, 0, 0.05);
        double cap = -Math.log(ClopperPearson.upper(0, n, 0.05 * ConditionalEpsilonBound.NUISANCE_SHARE));
        assertTrue(e <= cap && e > cap - 0.01, () -> e + " against cap " + cap);
    }

    @Test
    void rejectsBadCounts() {
        assertThrows(IllegalArgumentException.class, () -> ConditionalEpsilonBound.epsilon(11, 10, 0, 10, 0, 0.05));
        assertThrows(IllegalArgumentException.class, () -> ConditionalEpsilonBound.epsilon(1, 10, -1, 10, 0, 0.05));
        assertThrows(IllegalArgumentException.class, () -> ConditionalEpsilonBound.epsilon(1, 10, 1, 10, 0, 1.0));
    }

    static double exactTail(long x, long n, long m, long s, double psi) {
        MathContext mc = MathContext.DECIMAL128;
        BigDecimal p = new BigDecimal(psi);
        BigDecimal total = BigDecimal.ZERO;
        BigDecimal tail = BigDecimal.ZERO;
        for (long k = Math.max(0, s - m); k <= Math.min(n, s); k++) {
            BigDecimal w = new BigDecimal(binomial(n, k).multiply(binomial(m, s - k))).multiply(p.pow((int) k, mc), mc);
            total = total.add(w, mc);
            if (k >= x) {
                tail = tail.add(w, mc);
            }
        }
        return tail.divide(total, mc).doubleValue();
    }

    private static BigInteger binomial(long n, long k) {
        BigInteger r = BigInteger.ONE;
        for (long i = 0; i < k; i++) {
            r = r.multiply(BigInteger.valueOf(n - i)).divide(BigInteger.valueOf(i + 1));
        }
        return r;
    }

    private static double logGammaTail(long x, long n, long m, long s, double psi, long centre) {
        double ref = logTerm(centre, n, m, s, psi);
        double total = 0;
        double tail = 0;
        for (long k = Math.max(0, centre - 40_000); k <= Math.min(s, centre + 40_000); k++) {
            double w = Math.exp(logTerm(k, n, m, s, psi) - ref);
            total += w;
            if (k >= x) {
                tail += w;
            }
        }
        return tail / total;
    }

    private static double logTerm(long k, long n, long m, long s, double psi) {
        return logChoose(n, k) + logChoose(m, s - k) + k * Math.log(psi);
    }

    private static double logChoose(long n, long k) {
        return Gamma.logGamma(n + 1.0) - Gamma.logGamma(k + 1.0) - Gamma.logGamma(n - k + 1.0);
    }
}

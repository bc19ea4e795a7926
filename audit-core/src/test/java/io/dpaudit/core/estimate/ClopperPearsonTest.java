package io.dpaudit.core.estimate;

import static io.dpaudit.core.testing.ReferenceData.assertRelative;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import io.dpaudit.core.testing.ReferenceData;
import org.apache.commons.math3.distribution.BinomialDistribution;
import org.junit.jupiter.api.Test;

class ClopperPearsonTest {
    @Test
    void matchesScipyBetaQuantilesAndErrsOutward() {
        for (JsonNode row : ReferenceData.load("numerics_reference.json").get("clopperPearson")) {
            long k = row.get("k").longValue();
            long n = row.get("n").longValue();
            double a = row.get("alpha").doubleValue();
            double lo = row.get("lower").doubleValue();
            double hi = row.get("upper").doubleValue();
            double myLo = ClopperPearson.lower(k, n, a);
            double myHi = ClopperPearson.upper(k, n, a);
            String what = "k=" + k + ", n=" + n + ", a=" + a;
            if (lo == 0) {
                assertEquals(0.0, myLo, what);
            } else {
                assertRelative(lo, myLo, 1e-8, "lower " + what);
                assertTrue(myLo <= lo * (1 + 1e-12), "lower bound must not exceed the exact one: " + what);
            }
            if (hi == 1) {
                assertEquals(1.0, myHi, what);
            } else {
                assertRelative(hi, myHi, 1e-8, "upper " + what);
                assertTrue(myHi >= hi * (1 - 1e-12), "upper bound must not be below the exact one: " + what);
            }
        }
    }

    /**
     * Tiny error levels (a confidence of 1 - 1e-15 spread over many bounds) keep their precision: the upper bound is
     * solved on the Beta distribution's upper tail instead of at {@code 1 - a}, which rounds {@code a} to a multiple
     * of 1.1e-16 (and to 0 below 5.6e-17: an internal error before). References: SciPy 1.17's {@code betainccinv(k + 1,
     * n - k, a)} and {@code betaincinv(k, n - k + 1, a)} (Boost), whose tails give back {@code a} to 1e-12 relative or
     * better ({@code betaincc}, {@code betainc}); the first row also by mpmath at 50 digits, to 4e-14.
     */
    @Test
    void tinyErrorLevelsKeepTheirPrecision() {
        double[][] rows = {
            {2000, 10000, 1e-20, 0.23876350676434316, 0.1646852341878477},
            {5000, 1e6, 1e-12, 0.0055133188326848956, 0.004519715731469429},
            {1500, 1e5, 1e-300, 0.03392520550559155, 0.0048367584640464124},
            {60000, 1e5, 1e-40, 0.6204987408105498, 0.5792643938063904},
        };
        for (double[] r : rows) {
            long k = (long) r[0];
            long n = (long) r[1];
            String what = "k=" + k + ", n=" + n + ", a=" + r[2];
            double upper = ClopperPearson.upper(k, n, r[2]);
            double lower = ClopperPearson.lower(k, n, r[2]);
            assertTrue(upper >= r[3] && upper <= r[3] * (1 + 2e-9), "upper " + upper + " " + what);
            assertTrue(lower <= r[4] && lower >= r[4] * (1 - 2e-9), "lower " + lower + " " + what);
        }
        // The two routes agree where they meet (2^-20), and a = 1e-17 no longer rounds to a level of 0.
        double at = ClopperPearson.upper(3000, 10000, 0x1p-20);
        double below = ClopperPearson.upper(3000, 10000, Math.nextDown(0x1p-20));
        assertRelative(at, below, 1e-9, "the two routes at 2^-20");
        assertTrue(ClopperPearson.upper(3000, 10000, 1e-17) > ClopperPearson.upper(3000, 10000, 1e-16));
    }

    /**
     * Bounds within {@code e^-40} of 1, which no double below 1 resolves: the search used to end in "no sign change"
     * (an internal error at a confidence of 1 - 1e-15); they are now bracketed by 1 on their safe side. With one
     * failure in 90,000 trials at {@code a = 1e-20} the upper bound is {@code (1 - a)^(1/90000)}, 1 - 1.1e-25: 1 as a
     * double.
     */
    @Test
    void boundsBeyondWhatADoubleResolvesAreOne() {
        assertEquals(1.0, ClopperPearson.upper(89_999, 90_000, 1e-20));
        double lower = ClopperPearson.lower(ClopperPearson.MAX_TRIALS, ClopperPearson.MAX_TRIALS, 0.05);
        double exact = Math.exp(Math.log(0.05) / ClopperPearson.MAX_TRIALS);
        assertTrue(lower < exact && lower >= exact * (1 - 2e-9), lower + " vs " + exact);
    }

    /**
     * At the largest size, 10^13 trials, with few successes: each bound lies outside the true one by about its outward
     * margin of 1e-9 (at least 5e-10, at most 3e-9). References: the Poisson limits at 50 digits (mpmath, bisection of
     * the regularized incomplete gamma function), which differ from the binomial ones by about p, 1e-10 here, and which
     * SciPy's Boost-based quantiles match to 1e-11. commons-math3's regularized beta function, used for every size
     * before, put the upper bound at k = 1001 and a = 1e-12 3.6e-7 relative below the truth, on the unsafe side.
     */
    @Test
    void atTenToTheThirteenTrialsTheBoundsKeepTheirMargin() {
        double[][] rows = {
            {1001, 1e-12, 1.2410865642143792e-10, 7.943281703650049e-11},
            {5000, 1e-12, 5.514739692591111e-10, 4.5186288861791937e-10},
            {1001, 1e-6, 1.1597280913915709e-10, 8.577395464777528e-11},
            {20000, 1e-29, 2.1636071751373046e-09, 1.844886436706524e-09},
        };
        for (double[] r : rows) {
            long k = (long) r[0];
            String what = "k=" + k + ", a=" + r[1];
            double upper = ClopperPearson.upper(k, ClopperPearson.MAX_TRIALS, r[1]);
            double lower = ClopperPearson.lower(k, ClopperPearson.MAX_TRIALS, r[1]);
            assertTrue(upper >= r[2] * (1 + 5e-10) && upper <= r[2] * (1 + 3e-9), "upper " + (upper / r[2] - 1) + " "
                    + what);
            assertTrue(lower <= r[3] * (1 - 5e-10) && lower >= r[3] * (1 - 3e-9), "lower " + (lower / r[3] - 1) + " "
                    + what);
        }
    }

    /** Beyond {@link ClopperPearson#MAX_TRIALS} the limits are refused, not computed imprecisely. */
    @Test
    void moreTrialsThanTheLimitsResolveAreRefused() {
        long n = ClopperPearson.MAX_TRIALS + 1;
        assertThrows(IllegalArgumentException.class, () -> ClopperPearson.lower(n / 2, n, 0.05));
        assertThrows(IllegalArgumentException.class, () -> ClopperPearson.upper(n / 2, n, 0.05));
    }

    /**
     * The defining property, checked exactly (no simulation): for every true p on a grid, the probability over
     * k ~ Binomial(n, p) that the lower bound exceeds p is at most a, and likewise for the upper bound.
     */
    @Test
    void coverageIsAtLeastTheConfidenceForEveryP() {
        int n = 40;
        double a = 0.05;
        double[] lower = new double[n + 1];
        double[] upper = new double[n + 1];
        for (int k = 0; k <= n; k++) {
            lower[k] = ClopperPearson.lower(k, n, a);
            upper[k] = ClopperPearson.upper(k, n, a);
        }
        for (int i = 1; i < 1000; i++) {
            double p = i / 1000.0;
            BinomialDistribution bin = new BinomialDistribution(null, n, p);
            double missLow = 0;
            double missHigh = 0;
            for (int k = 0; k <= n; k++) {
                if (lower[k] > p) {
                    missLow += bin.probability(k);
                }
                if (upper[k] < p) {
                    missHigh += bin.probability(k);
                }
            }
            assertTrue(missLow <= a + 1e-12, "lower bound misses p=" + p + " with probability " + missLow);
            assertTrue(missHigh <= a + 1e-12, "upper bound misses p=" + p + " with probability " + missHigh);
        }
    }

    @Test
    void medianEstimatesSitBetweenTheNinetyFivePercentBounds() {
        for (long k : new long[] {0, 1, 7, 500, 999, 1000}) {
            assertTrue(ClopperPearson.medianLower(k, 1000) >= ClopperPearson.lower(k, 1000, 0.025));
            assertTrue(ClopperPearson.medianUpper(k, 1000) <= ClopperPearson.upper(k, 1000, 0.025));
        }
    }

    @Test
    void rejectsImpossibleCounts() {
        assertThrows(IllegalArgumentException.class, () -> ClopperPearson.lower(5, 4, 0.05));
        assertThrows(IllegalArgumentException.class, () -> ClopperPearson.upper(-1, 4, 0.05));
        assertThrows(IllegalArgumentException.class, () -> ClopperPearson.upper(1, 4, 0));
    }
}

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

package io.dpaudit.core.numerics;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.junit.jupiter.api.Test;

class SafeRoundingTest {
    /** Up moves every finite non-zero value up by at least one ulp and at most about 1e-10 relative; down mirrors it. */
    @Test
    void valuesMoveOutwardByTheMargin() {
        for (double x : new double[] {1e-300, 3e-17, 0.25, 1.0, 7.3, 1e200, -1e-300, -0.5, -4e10,
            Double.MIN_VALUE}) {
            double up = SafeRounding.up(x);
            double down = SafeRounding.down(x);
            assertTrue(up > x && down < x, "outward at " + x);
            if (Math.abs(x) > 1e-290) {
                assertTrue(up - x <= 1.0000001e-10 * Math.abs(x) + Math.ulp(x) * 2, "margin up at " + x);
                assertTrue(x - down <= 1.0000001e-10 * Math.abs(x) + Math.ulp(x) * 2, "margin down at " + x);
                assertTrue(up - x >= 1e-10 * Math.abs(x), "at least the margin at " + x);
            }
        }
    }

    @Test
    void zeroInfinitiesAndNaNAreUnchanged() {
        for (double x : new double[] {0.0, Double.POSITIVE_INFINITY, Double.NEGATIVE_INFINITY}) {
            assertEquals(x, SafeRounding.up(x));
            assertEquals(x, SafeRounding.down(x));
        }
        assertTrue(Double.isNaN(SafeRounding.up(Double.NaN)));
        assertTrue(Double.isNaN(SafeRounding.down(Double.NaN)));
    }

    @Test
    void probabilitiesAreCappedAtOne() {
        assertEquals(1.0, SafeRounding.upProbability(1.0));
        assertEquals(1.0, SafeRounding.upProbability(Math.nextDown(1.0)));
        assertTrue(SafeRounding.upProbability(0.3) > 0.3);
        assertEquals(0.0, SafeRounding.upProbability(0.0));
    }
}

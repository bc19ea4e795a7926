package io.dpaudit.core.numerics;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.junit.jupiter.api.Test;

class LogSpaceTest {
    private static final double NEG = Double.NEGATIVE_INFINITY;

    @Test
    void addIsLogSumExpWithMinusInfinityAsZero() {
        assertEquals(Math.log(5), LogSpace.add(Math.log(2), Math.log(3)), 1e-15);
        assertEquals(-1000 + Math.log(2), LogSpace.add(-1000, -1000), 1e-12);
        assertEquals(7.0, LogSpace.add(7.0, NEG));
        assertEquals(7.0, LogSpace.add(NEG, 7.0));
        assertEquals(NEG, LogSpace.add(NEG, NEG));
        assertEquals(800.0, LogSpace.add(800, -800), 0.0, "the smaller term vanishes, no overflow");
    }

    @Test
    void subtractIsExactNearCancellationAndNaNBelow() {
        assertEquals(Math.log(1), LogSpace.subtract(Math.log(3), Math.log(2)), 1e-15);
        // log(e^0 - e^-1e-12) = log(1 - e^-1e-12) ~ log(1e-12)
        assertEquals(Math.log(1e-12), LogSpace.subtract(0, -1e-12), 1e-9);
        assertEquals(NEG, LogSpace.subtract(2, 2));
        assertEquals(3.0, LogSpace.subtract(3, NEG));
        assertTrue(Double.isNaN(LogSpace.subtract(1, 2)));
    }

    /**
     * {@code oneMinusExp} against {@code 1 - e^x} in 40-digit decimals (e^x from its series) on both sides of the
     * switch at {@code -ln 2}: within 2 ulps of the exact value.
     */
    @Test
    void oneMinusExpIsWithinTwoUlps() {
        double[] xs = {-1e-300, -1e-12, -1e-3, -0.5, -0.6931471805599453, -0.6931471805599454, -0.7, -1, -3, -20, -40,
            -700, -745.2, NEG};
        java.math.MathContext mc = new java.math.MathContext(40);
        for (double x : xs) {
            double exact;
            if (x == NEG) {
                exact = 1.0;
            } else if (x < -40) {
                exact = 1.0; // e^x below 2^-57: 1 - e^x rounds to 1
            } else {
                java.math.BigDecimal bx = new java.math.BigDecimal(x);
                java.math.BigDecimal term = java.math.BigDecimal.ONE;
                java.math.BigDecimal sum = java.math.BigDecimal.ZERO; // sum_{k >= 1} x^k / k! = e^x - 1
                for (int k = 1; k < 400; k++) {
                    term = term.multiply(bx, mc).divide(java.math.BigDecimal.valueOf(k), mc);
                    sum = sum.add(term, mc);
                }
                exact = sum.negate().doubleValue();
            }
            double got = LogSpace.oneMinusExp(x);
            assertTrue(Math.abs(got - exact) <= 2 * Math.ulp(exact), x + ": " + got + " vs " + exact);
        }
    }

    @Test
    void log1mExpIsAccurateAtBothEnds() {
        assertEquals(Math.log(1e-20), LogSpace.log1mExp(-1e-20), 1e-12);
        assertEquals(-Math.exp(-50), LogSpace.log1mExp(-50), 1e-30);
        assertEquals(Math.log(1 - Math.exp(-0.7)), LogSpace.log1mExp(-0.7), 1e-15);
        assertEquals(NEG, LogSpace.log1mExp(0));
        assertEquals(0.0, LogSpace.log1mExp(NEG), 0.0);
        assertTrue(Double.isNaN(LogSpace.log1mExp(1e-300)));
    }

    @Test
    void sumHandlesEmptyRangesInfinitiesAndHugeSpreads() {
        double[] x = {NEG, Math.log(1), Math.log(2), -1e6, NEG};
        assertEquals(Math.log(3), LogSpace.sum(x, 0, x.length), 1e-15);
        assertEquals(NEG, LogSpace.sum(x, 0, 1));
        assertEquals(NEG, LogSpace.sum(x, 2, 2));
        assertEquals(Double.POSITIVE_INFINITY, LogSpace.sum(new double[] {1, Double.POSITIVE_INFINITY}, 0, 2));
        assertEquals(-1e6, LogSpace.sum(new double[] {-1e6}, 0, 1));
    }
}

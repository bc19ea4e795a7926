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

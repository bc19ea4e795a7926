package io.dpaudit.core;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.function.DoubleUnaryOperator;
import org.junit.jupiter.api.Test;

/** Every rule of {@link Checks} against NaN, both infinities, zero, negatives and its boundaries. */
class ChecksTest {
    private static final double NAN = Double.NaN;
    private static final double INF = Double.POSITIVE_INFINITY;

    private static void rejects(DoubleUnaryOperator rule, double value, String rendered) {
        InvalidInputException e = assertThrows(InvalidInputException.class, () -> rule.applyAsDouble(value),
                "accepted " + value);
        assertTrue(e.getMessage().startsWith("f = " + rendered + ": "), e.getMessage());
        assertFalse(e.getMessage().contains("\n"));
        assertEquals("f", e.field());
    }

    private static void accepts(DoubleUnaryOperator rule, double value) {
        assertEquals(value, rule.applyAsDouble(value), 0.0);
    }

    @Test
    void finite() {
        DoubleUnaryOperator r = v -> Checks.finite("f", v);
        rejects(r, NAN, "nan");
        rejects(r, INF, "inf");
        rejects(r, -INF, "-inf");
        accepts(r, 0);
        accepts(r, -1e300);
    }

    @Test
    void positive() {
        DoubleUnaryOperator r = v -> Checks.positive("f", v);
        rejects(r, NAN, "nan");
        rejects(r, INF, "inf");
        rejects(r, -INF, "-inf");
        rejects(r, 0, "0");
        rejects(r, -0.0, "0");
        rejects(r, -1, "-1");
        accepts(r, Double.MIN_VALUE);
        accepts(r, 1e300);
    }

    @Test
    void nonNegative() {
        DoubleUnaryOperator r = v -> Checks.nonNegative("f", v);
        rejects(r, NAN, "nan");
        rejects(r, INF, "inf");
        rejects(r, -INF, "-inf");
        rejects(r, -1e-300, "-1.0E-300");
        accepts(r, 0);
        accepts(r, 1000);
    }

    @Test
    void samplingProbability() {
        DoubleUnaryOperator r = v -> Checks.samplingProbability("f", v);
        rejects(r, NAN, "nan");
        rejects(r, INF, "inf");
        rejects(r, 0, "0");
        rejects(r, Math.nextUp(1.0), "1.0000000000000002");
        rejects(r, -0.5, "-0.5");
        accepts(r, 1);
        accepts(r, 1e-12);
    }

    @Test
    void deltaConfidenceAndOpenUnitInterval() {
        for (DoubleUnaryOperator r : new DoubleUnaryOperator[] {v -> Checks.delta("f", v),
            v -> Checks.confidence("f", v), v -> Checks.openUnitInterval("f", v)}) {
            rejects(r, NAN, "nan");
            rejects(r, INF, "inf");
            rejects(r, -INF, "-inf");
            rejects(r, 0, "0");
            rejects(r, 1, "1");
            rejects(r, -0.1, "-0.1");
            accepts(r, Double.MIN_VALUE);
            accepts(r, Math.nextDown(1.0));
        }
    }

    @Test
    void integersAndWholeNumbers() {
        assertEquals(3L, Checks.atLeast("f", 3L, 3L));
        assertThrows(InvalidInputException.class, () -> Checks.atLeast("f", 2L, 3L));
        assertEquals(5, Checks.inRange("f", 5, 5, 7));
        assertThrows(InvalidInputException.class, () -> Checks.inRange("f", 8, 5, 7));
        assertThrows(InvalidInputException.class, () -> Checks.inRange("f", 4, 5, 7));
        assertEquals(42L, Checks.wholeNumber("f", 42.0));
        assertEquals(-3L, Checks.wholeNumber("f", -3.0));
        for (double bad : new double[] {NAN, INF, -INF, 1.5, 0x1p54}) {
            assertThrows(InvalidInputException.class, () -> Checks.wholeNumber("f", bad), "accepted " + bad);
        }
    }

    @Test
    void formatIsShortestRoundTripAndNamesNonFinite() {
        assertEquals("nan", Checks.format(NAN));
        assertEquals("inf", Checks.format(INF));
        assertEquals("-inf", Checks.format(-INF));
        assertEquals("3", Checks.format(3.0));
        assertEquals("0.1", Checks.format(0.1));
        assertEquals("1.0E-5", Checks.format(1e-5));
        assertEquals("1.0E15", Checks.format(1e15));
    }

    /** Trials from 1 to 10^13 per world, the most Clopper-Pearson limits are computed for; the message names both. */
    @Test
    void trialsUpToTenToTheThirteen() {
        assertEquals(1, Checks.trials("trials", 1));
        assertEquals(10_000_000_000_000L, Checks.trials("trials", 10_000_000_000_000L));
        assertThrows(InvalidInputException.class, () -> Checks.trials("trials", 0));
        InvalidInputException e = assertThrows(InvalidInputException.class,
                () -> Checks.trials("--trials", 10_000_000_000_001L));
        assertTrue(e.getMessage().startsWith("--trials = 10000000000001: must be at most 10^13 per world"),
                e.getMessage());
    }
}

package io.dpaudit.mechanisms.batching;

import static org.junit.jupiter.api.Assertions.assertTrue;

import java.math.BigDecimal;
import java.math.MathContext;
import org.junit.jupiter.api.Test;

/**
 * {@link ReadSums}, deterministic: over masses spanning 300 orders of magnitude (a lattice's tail), every range read
 * by blocks lies within its stated rounding of the exact value (BigDecimal), at ranges with ragged ends on both sides,
 * within one block, and up to the top; and the bound is not vacuous: under 1e-9 of {@code a M1 + w M0} over every
 * point above the range's start (what it is stated relative to; it is 8 (blocks + 1024) u of it, 9.6e-13 here).
 */
class ReadSumsTest {
    private static final int LENGTH = 50 * ReadSums.BLOCK + 333;

    private static double mass(int j) {
        // a falling tail with a wiggle, from 1e-3 down to about 1e-303
        return 1e-3 * Math.exp(-j * (300 * Math.log(10) / LENGTH)) * (1.5 + Math.sin(j * 0.37));
    }

    @Test
    void everyRangeLiesWithinItsRoundingOfTheExactSum() {
        ReadSums sums = ReadSums.of(LENGTH, ReadSumsTest::mass);
        int[][] ranges = {{0, LENGTH}, {5, 17}, {1000, 1030}, {1023, 5000}, {3 * ReadSums.BLOCK, 9 * ReadSums.BLOCK},
            {777, LENGTH}, {40_000, 40_001}, {12_345, 12_345 + 2 * ReadSums.BLOCK + 7}};
        double a = 0.37;
        double w = 5.5e3;
        double[] out = new double[2];
        for (int[] r : ranges) {
            double slack = sums.range(r[0], r[1], out, a, w, ReadSumsTest::mass);
            BigDecimal exact = BigDecimal.ZERO;
            for (int j = r[0]; j < r[1]; j++) {
                BigDecimal v = new BigDecimal(mass(j));
                exact = exact.add(v.multiply(new BigDecimal(a).multiply(BigDecimal.valueOf(j))
                        .subtract(new BigDecimal(w))), MathContext.DECIMAL128);
            }
            double read = a * out[1] - w * out[0];
            double off = Math.abs(new BigDecimal(read).subtract(exact).doubleValue());
            assertTrue(off <= slack, "range " + r[0] + ".." + r[1] + ": off by " + off + " > " + slack);
            double above = 0;
            for (int j = r[0]; j < LENGTH; j++) {
                above += mass(j) * (a * j + w);
            }
            assertTrue(slack <= 1e-9 * above, "range " + r[0] + ".." + r[1] + ": slack " + slack + " against " + above);
        }
    }
}

package io.dpaudit.core.numerics;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.math.BigDecimal;
import java.math.MathContext;
import org.junit.jupiter.api.Test;

/**
 * {@link BinomialTail#logCdf} against the tail summed exactly in 60-digit decimal arithmetic from the same
 * (double) {@code p}: sizes from 10 to 10^8, 0 to 1000 successes, {@code p} from 1e-9 to 1 - 1e-9 (including sums
 * that must be rescaled many times, and terms that underflow).
 */
class BinomialTailTest {
    private static final MathContext MC = new MathContext(60);
    private static final double LN10 = Math.log(10);

    /** {@code log P(Binomial(n, p) <= k)}, summed in 60-digit decimals. */
    private static double exactLogCdf(long k, long n, double p) {
        BigDecimal bp = new BigDecimal(p);
        BigDecimal q = BigDecimal.ONE.subtract(bp);
        BigDecimal term = q.pow((int) n, MC);
        BigDecimal sum = term;
        BigDecimal odds = bp.divide(q, MC);
        for (long i = 1; i <= k; i++) {
            term = term.multiply(BigDecimal.valueOf(n - i + 1)).divide(BigDecimal.valueOf(i), MC).multiply(odds, MC);
            sum = sum.add(term, MC);
        }
        // log of a decimal far outside double range: mantissa in [1, 10) times a power of ten.
        int exponent = sum.precision() - sum.scale() - 1;
        double mantissa = sum.movePointLeft(exponent).doubleValue();
        return Math.log(mantissa) + exponent * LN10;
    }

    @Test
    void matchesTheExactTailToTwelveDigits() {
        long[] sizes = {10, 1_000, 2_000, 1_000_000, 100_000_000};
        long[] successes = {0, 1, 5, 100, 999, 1000};
        double[] rates = {1e-9, 1e-4, 0.01, 0.3, 0.5, 0.9, 1 - 1e-9};
        int checked = 0;
        for (long n : sizes) {
            for (long k : successes) {
                if (k >= n) {
                    continue;
                }
                for (double p : rates) {
                    double expected = exactLogCdf(k, n, p);
                    double actual = BinomialTail.logCdf(k, n, p);
                    String what = "n=" + n + " k=" + k + " p=" + p + ": " + actual + " vs " + expected;
                    assertTrue(Math.abs(actual - expected) <= 1e-12 * Math.max(1, Math.abs(expected)), what);
                    checked++;
                }
            }
        }
        assertEquals(182, checked);
    }

    @Test
    void edgeRates() {
        assertEquals(0.0, BinomialTail.logCdf(3, 10, 0.0));
        assertEquals(Double.NEGATIVE_INFINITY, BinomialTail.logCdf(3, 10, 1.0));
        // A rate so small that every term after the first underflows: P(X <= k) = (1 - p)^n to double precision.
        assertEquals(10 * Math.log1p(-1e-300), BinomialTail.logCdf(5, 10, 1e-300), 0.0);
    }
}

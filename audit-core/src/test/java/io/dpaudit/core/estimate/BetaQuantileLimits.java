package io.dpaudit.core.estimate;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.apache.commons.math3.distribution.BetaDistribution;

/**
 * One-sided Clopper–Pearson limits computed independently of {@link ClopperPearson}, from commons-math's beta
 * quantiles, for tests that check a bound against its formula by hand.
 */
final class BetaQuantileLimits {
    private BetaQuantileLimits() {
    }

    /** The lower limit of a proportion {@code k / n} at error level {@code a}. */
    static double cpLower(long k, long n, double a) {
        return k == 0 ? 0.0 : new BetaDistribution(null, k, n - k + 1.0, 1e-15).inverseCumulativeProbability(a);
    }

    /** The upper limit of a proportion {@code k / n} at error level {@code a}. */
    static double cpUpper(long k, long n, double a) {
        return k == n ? 1.0 : new BetaDistribution(null, k + 1.0, n - k, 1e-15).inverseCumulativeProbability(1 - a);
    }

    /**
     * {@code bound} agrees with {@code expected} within 1e-7 relative and lies on the safe side: dp-audit's limits are
     * moved outward by 1e-9 relative, which {@code kappa = t / (1 - t)} magnifies to about 1e-8.
     */
    static void assertCloseBelow(double expected, double bound) {
        assertEquals(expected, bound, 1e-7 * Math.abs(expected));
        assertTrue(bound <= expected, bound + " above " + expected);
    }
}

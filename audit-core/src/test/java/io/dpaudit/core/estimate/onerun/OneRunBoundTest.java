package io.dpaudit.core.estimate.onerun;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.junit.jupiter.api.Test;

/**
 * The one-run bound against an independent computation of the same formula (SciPy's binomial survival function, the
 * p-value as jax_privacy's {@code _one_run_p_value} writes it, Brent's method for the crossing; values computed for
 * this test on 2026-11-26), and the shape the bound's validity argument relies on.
 */
class OneRunBoundTest {
    @Test
    void pValuesAgreeWithAnIndependentComputation() {
        // p-values carry a 1e-12 allowance against round-off
        assertEquals(0.07155624680483674, OneRunBound.pValue(1000, 100, 80, 1.0, 0), 2e-12);
        assertEquals(0.07300911594917776, OneRunBound.pValue(1000, 100, 80, 1.0, 1e-5), 2e-12);
        assertEquals(0.05195947534661101, OneRunBound.pValue(10000, 500, 400, 1.2, 1e-6), 2e-12);
        assertEquals(0.22425899756611564, OneRunBound.pValue(1000, 100, 95, 2.5, 1e-5), 2e-12);
        assertEquals(0.4601077275228089, OneRunBound.pValue(200, 50, 30, 0.3, 1e-3), 2e-12);
    }

    @Test
    void epsilonBoundsAgreeAndAreRoundedDown() {
        double[][] cases = {
            {1000, 100, 80, 0, 0.05, 0.9583920452920994},
            {1000, 100, 80, 1e-5, 0.05, 0.9553185349552623},
            {10000, 500, 400, 1e-6, 0.05, 1.1979686462746586},
            {100000, 1000, 990, 1e-5, 0.01, 1.5073711264150262},
        };
        for (double[] c : cases) {
            double e = OneRunBound.epsilonLowerBound((long) c[0], (long) c[1], (long) c[2], c[3], c[4]);
            assertTrue(e <= c[5] + 1e-12, "above the reference: " + e + " > " + c[5]);
            assertEquals(c[5], e, 1e-6);
        }
    }

    @Test
    void nothingIsCertifiedWithoutEvidence() {
        assertEquals(0.0, OneRunBound.epsilonLowerBound(1000, 100, 50, 0, 0.05));
        assertEquals(0.0, OneRunBound.epsilonLowerBound(1000, 0, 0, 1e-5, 0.05));
        assertEquals(0.0, OneRunBound.epsilonLowerBound(10, 1, 1, 0, 0.05)); // one right guess proves nothing
    }

    /**
     * The p-value increases with epsilon along a grid of 0.01 wherever it was evaluated here (so the first crossing the
     * bound searches for is the only one), at delta = 0 (a binomial tail, provably) and delta > 0.
     */
    @Test
    void thePValueIncreasesWithEpsilon() {
        long[][] counts = {{1000, 100, 80}, {10000, 500, 400}, {1000, 50, 50}, {100000, 2000, 1500}, {200, 100, 60}};
        for (long[] c : counts) {
            for (double delta : new double[] {0, 1e-6, 1e-3}) {
                double previous = -1;
                for (double eps = 0; eps <= 8; eps += 0.01) {
                    double p = OneRunBound.pValue(c[0], c[1], c[2], eps, delta);
                    assertTrue(p >= previous - 1e-15, java.util.Arrays.toString(c) + " delta " + delta + " eps " + eps);
                    previous = p;
                }
            }
        }
    }
}

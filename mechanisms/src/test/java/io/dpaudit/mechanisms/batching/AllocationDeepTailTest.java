package io.dpaudit.mechanisms.batching;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.dpaudit.core.bounds.GaussianBound;
import org.junit.jupiter.api.Test;

/**
 * The closed-form deep-tail bracket ({@link AllocationDeepTail}) where the exact curve is known — one step (the
 * Gaussian mechanism) and two steps (a quadrature, {@link AllocationPldTest#removeDelta}) — and at T = 10^4, σ = 0.7,
 * where it must contain the max test's proven lower bound and be as narrow as its derivation promises. Closed forms
 * only (no lattice): fast and deterministic.
 */
class AllocationDeepTailTest {
    @Test
    void atOneStepBothEndsAreTheGaussianCurve() {
        for (double sigma : new double[] {0.5, 1.0}) {
            AllocationDeepTail tail = new AllocationDeepTail(1, sigma);
            for (double eps : new double[] {1, 3, 5, 7}) {
                double exact = GaussianBound.exactDelta(eps, 1 / sigma);
                double lo = tail.removeLower(eps);
                double hi = tail.removeUpper(eps);
                assertTrue(lo <= exact && exact <= hi, "sigma " + sigma + " eps " + eps + ": [" + lo + ", " + hi
                        + "] misses " + exact);
                // at one step there is no rest: both ends are the call itself, off only by the rounding allowance
                assertEquals(exact, hi, 1e-8 * exact, "sigma " + sigma + " eps " + eps);
                assertEquals(exact, lo, 1e-8 * exact, "sigma " + sigma + " eps " + eps);
            }
        }
    }

    @Test
    void atTwoStepsTheBracketHoldsTheQuadrature() {
        for (double sigma : new double[] {0.7, 1.0}) {
            AllocationDeepTail tail = new AllocationDeepTail(2, sigma);
            for (double eps : new double[] {1, 2, 3, 4, 5}) {
                double exact = AllocationPldTest.removeDelta(2, sigma, eps);
                double lo = tail.removeLower(eps);
                double hi = tail.removeUpper(eps);
                assertTrue(lo <= exact * (1 + 1e-6) && exact <= hi * (1 + 1e-6), "sigma " + sigma + " eps " + eps
                        + ": [" + lo + ", " + hi + "] misses the quadrature " + exact);
            }
        }
    }

    @Test
    void atTenThousandStepsItPinsDeltaOfSevenAndNine() {
        AllocationDeepTail tail = new AllocationDeepTail(10_000, 0.7);
        AllocationMaxTestBound max = new AllocationMaxTestBound(AllocationTailBoundTest.bnb(10_000, 0.7));
        for (double eps : new double[] {7, 9}) {
            double lo = tail.removeLower(eps);
            double hi = tail.removeUpper(eps);
            double proven = max.delta(eps);
            // measured: [1.23087e-27, 1.23098e-27] at 7 and [1.25234e-34, 1.25236e-34] at 9 (variance bound alone);
            // the max test 1.231e-27 and 1.252e-34; the lattices' upper end alone floored at 3.468e-20
            assertTrue(proven <= hi && lo <= hi, "eps " + eps + ": [" + lo + ", " + hi + "], max test " + proven);
            assertTrue(hi <= 1.001 * lo, "eps " + eps + ": [" + lo + ", " + hi + "] wider than 0.1%");
        }
    }

    @Test
    void extremeInputIsRefusedOrBoundedNeverOptimistic() {
        AllocationDeepTail tail = new AllocationDeepTail(1000, 0.5);
        // e^eps would overflow the threshold c: refused, not an underflowed zero
        assertEquals(Double.POSITIVE_INFINITY, tail.removeUpper(1000));
        assertEquals(0.0, tail.removeLower(1000));
        // at or below zero the single term does not carry the event: refused
        assertEquals(Double.POSITIVE_INFINITY, tail.removeUpper(0));
        assertEquals(0.0, tail.removeLower(-1));
        // far out but computable: a positive upper end (the true delta underflows; zero would be optimistic)
        double far = tail.removeUpper(400);
        assertTrue(far > 0 && far < 1e-300, "eps 400: " + far);
        // large sigma: the call's two terms cancel; refused or still above the Gaussian mechanism's curve at T = 1
        AllocationDeepTail flat = new AllocationDeepTail(1, 20);
        double hi = flat.removeUpper(0.01);
        assertTrue(hi >= GaussianBound.exactDelta(0.01, 1 / 20.0), "sigma 20: " + hi);
    }
}

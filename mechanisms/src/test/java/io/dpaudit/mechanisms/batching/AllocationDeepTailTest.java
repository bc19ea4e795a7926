package io.dpaudit.mechanisms.batching;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.dpaudit.core.bounds.GaussianBound;
import io.dpaudit.core.numerics.Normal;
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
    void atTwoStepsTheSurvivalBoundsHoldTheQuadrature() {
        long iLo = 0;
        double h = AllocationPld.LOSS_GRID;
        for (double sigma : new double[] {0.7, 1.0}) {
            AllocationDeepTail tail = new AllocationDeepTail(2, sigma);
            double[] lattice = new double[(int) Math.round(13 / h) + 2];
            java.util.Arrays.fill(lattice, 1e-7); // below SURVIVAL_FROM everywhere: computed from the grid's start
            double[] upper = tail.survivalUpper(lattice, iLo);
            double[] lower = tail.survivalLower(lattice, iLo);
            for (double u : new double[] {2, 4, 6, 8, 10, 12}) {
                int i = (int) Math.round(u / h);
                double exact = twoStepSurvival(sigma, u);
                // upper entry i + 1 bounds G at grid point i; lower entry i is at most G there
                assertTrue(upper[i + 1] >= exact * (1 - 1e-9), "sigma " + sigma + " u " + u + ": upper "
                        + upper[i + 1] + " below the quadrature " + exact);
                assertTrue(lower[i] <= exact * (1 + 1e-9), "sigma " + sigma + " u " + u + ": lower " + lower[i]
                        + " above the quadrature " + exact);
                // measured (sigma 0.7 and 1): lower/exact 0.918 and 0.913 at u = 2, above 0.9999 from u = 6;
                // upper/exact 1.93 and 2.12 at u = 2 (the lattices are far better there), 1.0041 and 1.0037 at u = 8,
                // 1.0001 at u = 12: the split is for the tail
                if (u >= 8) {
                    assertTrue(upper[i + 1] <= 1.005 * lower[i], "u " + u + ": [" + lower[i] + ", " + upper[i + 1] + "]");
                }
            }
        }
    }

    /**
     * {@code P_P(L > u)} at T = 2: {@code P(w' + w > c)}, {@code c = 2 e^{tau^2/2 + u}}, {@code log w' ~ N(tau^2, tau^2)}
     * and {@code log w ~ N(0, tau^2)}, as one integral over {@code x = log w} of {@code P(w' > c - e^x)}, by Simpson's
     * rule on pieces that halve towards {@code log c}, where the integrand climbs to 1 (checked against scipy's adaptive
     * quadrature: 1.5302981e-16 at σ = 0.7, u = 12, 1.6906031e-34 at σ = 1).
     */
    static double twoStepSurvival(double sigma, double u) {
        double tau = 1 / sigma;
        double logC = Math.log(2) + tau * tau / 2 + u;
        double c = Math.exp(logC);
        java.util.function.DoubleUnaryOperator f = x -> {
            double k = c - Math.exp(x);
            double p = k <= 0 ? 1 : Normal.sf((Math.log(k) - tau * tau) / tau);
            return p * Normal.pdf(x / tau) / tau;
        };
        double sum = simpson(f, -12 * tau, logC - 1, 20_000);
        for (int k = 0; k < 50; k++) {
            sum += simpson(f, logC - Math.pow(2, -k), logC - Math.pow(2, -k - 1), 200);
        }
        return sum + Normal.sf(logC / tau);
    }

    /** Composite Simpson's rule on {@code [a, b]} with {@code n} (even) intervals. */
    static double simpson(java.util.function.DoubleUnaryOperator f, double a, double b, int n) {
        double step = (b - a) / n;
        double sum = f.applyAsDouble(a) + f.applyAsDouble(b);
        for (int i = 1; i < n; i++) {
            sum += (i % 2 == 1 ? 4 : 2) * f.applyAsDouble(a + i * step);
        }
        return sum * step / 3;
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

package io.dpaudit.core.bounds;

import static io.dpaudit.core.testing.ReferenceData.assertRelative;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.dpaudit.core.accounting.Adjacency;
import io.dpaudit.core.accounting.DpEvent;
import io.dpaudit.core.accounting.PldAccountant;
import io.dpaudit.core.law.DiscreteLaw;
import org.junit.jupiter.api.Test;

class DiscretePairProfileTest {
    private static DiscreteLaw law(double... p) {
        return DiscreteLaw.ofProbabilities(p, i -> "atom " + i);
    }

    /** Randomized response with eps0: delta(eps) = (e^eps0 - e^eps)/(1 + e^eps0) below eps0, 0 above, both ways. */
    @Test
    void randomizedResponseHasItsClosedForm() {
        double eps0 = 1.3;
        double p1 = Math.exp(eps0) / (1 + Math.exp(eps0));
        DiscretePairProfile rr = new DiscretePairProfile("rr", "test", BoundKind.UPPER_BOUND, law(1 - p1, p1),
                law(p1, 1 - p1), 0.0);
        for (double eps : new double[] {0, 0.2, 0.9, 1.2999, 1.3, 2}) {
            double expected = eps >= eps0 ? 0 : (Math.exp(eps0) - Math.exp(eps)) / (1 + Math.exp(eps0));
            assertEquals(expected, rr.remove(eps), 1e-15, "remove at " + eps);
            assertEquals(expected, rr.add(eps), 1e-15, "add at " + eps);
            assertTrue(rr.delta(eps) >= expected);
        }
        assertRelative(eps0, rr.epsilon(1e-12), 1e-9, "epsilon at tiny delta");
    }

    /** An atom only one law has is a loss of +inf: it enters the profile at every epsilon, in one direction only. */
    @Test
    void atomsOfOneLawOnlyCountAtEveryEpsilon() {
        DiscretePairProfile p = new DiscretePairProfile("x", "test", BoundKind.PAIR_PROFILE, law(0.5, 0.3, 0.2),
                law(0.5, 0.5, 0.0), 1e-12);
        assertEquals(0.2 + 1e-12, p.remove(50), 1e-17);
        assertEquals(1e-12, p.add(50), 1e-17);
        // eps = 0: total variation 0.2 both ways, plus the allowance.
        assertEquals(0.2 + 1e-12, p.remove(0), 1e-15);
        assertEquals(0.2 + 1e-12, p.add(0), 1e-15);
    }

    /**
     * T-fold randomized response: the privacy loss is {@code eps0 (2J - T)} with {@code J ~ Binomial(T, p1)}, so
     * {@code delta_T(eps) = sum_j Bin(j) (1 - e^{eps - eps0(2j - T)})_+} exactly. The PLD of the discrete pair brackets
     * it: the pessimistic composition (losses rounded up) lies above, the optimistic one below, both within the
     * grid's reach.
     */
    @Test
    void discreteCompositionBracketsTheExactBinomialCurve() {
        double eps0 = 0.7;
        int t = 40;
        double p1 = Math.exp(eps0) / (1 + Math.exp(eps0));
        DpEvent round = DpEvent.DiscreteLoss.ofPair("rr", new double[] {1 - p1, p1}, new double[] {p1, 1 - p1});
        DpEvent composed = new DpEvent.SelfComposed(round, t);
        PrivacyBound upper = new PldAccountant().account("up", composed, Adjacency.ADD_REMOVE);
        PrivacyBound lower = PldAccountant.optimisticDiscrete().account("lo", composed, Adjacency.ADD_REMOVE);
        assertEquals(BoundKind.UPPER_BOUND, upper.kind());
        assertEquals(BoundKind.LOWER_BOUND, lower.kind());
        for (double eps : new double[] {0, 1, 2.5, 5, 10}) {
            double exact = exactRandomizedResponse(eps0, t, eps);
            double up = upper.delta(eps);
            double lo = lower.delta(eps);
            assertTrue(up >= exact * (1 - 1e-12), "pessimistic below exact at " + eps + ": " + up + " < " + exact);
            assertTrue(lo <= exact * (1 + 1e-12), "optimistic above exact at " + eps + ": " + lo + " > " + exact);
            // Rounding each of 40 losses by at most h = 1e-4 moves the total loss by at most 4e-3.
            assertTrue(up <= exact * Math.exp(4.1e-3) + 1e-14, eps + ": " + up + " vs " + exact);
        }
    }

    /**
     * The optimistic composition is a proven lower bound, also where the FFT's round-off matters: 100-fold randomized
     * response with eps0 = 0.05 has its losses on every 10^4-th grid point (h = 1e-5), a comb whose inverse transform
     * leaves round-off on every point, which summed over the tail is larger than the answer's last digits and, deep in
     * the tail, than the answer. Checked against the exact binomial curve from ε = 0.05 to 4.85 (between the loss's atoms;
     * the last, at loss 5, has mass 9e-30), and ε(1e-10) against the exact curve. Before the allowance was subtracted (2026-11-30) this failed
     * at once: δ(0.05) = 0.178310067 against the exact 0.178310018.
     */
    @Test
    void optimisticCompositionIsAProvenLowerBoundDeepInTheTail() {
        double eps0 = 0.05;
        int t = 100;
        double p1 = Math.exp(eps0) / (1 + Math.exp(eps0));
        DpEvent round = DpEvent.DiscreteLoss.ofPair("rr", new double[] {1 - p1, p1}, new double[] {p1, 1 - p1});
        DpEvent composed = new DpEvent.SelfComposed(round, t);
        PrivacyBound lower = PldAccountant.optimisticDiscrete().account("lo", composed, Adjacency.ADD_REMOVE);
        assertEquals(BoundKind.LOWER_BOUND, lower.kind());
        int checked = 0;
        for (int i = 0; i < 25; i++) {
            double eps = 0.05 + 0.2 * i; // between the atoms of the loss, 0.1 apart
            double exact = exactRandomizedResponse(eps0, t, eps);
            double lo = lower.delta(eps);
            assertTrue(lo <= exact * (1 + 1e-13), "above the exact curve at eps = " + eps + ": " + lo + " > " + exact);
            if (exact > 1e-30) {
                // the grid (h = 1e-5) moves each of the 100 losses down by less than h: by at most 1e-3 in all
                assertTrue(lo >= exactRandomizedResponse(eps0, t, eps + 1e-3) * (1 - 1e-6), "uselessly low at " + eps
                        + ": " + lo + " against " + exact);
                checked++;
            }
        }
        assertTrue(checked >= 20, "too few points checked: " + checked);
        double e = lower.epsilon(1e-10);
        assertTrue(exactRandomizedResponse(eps0, t, e) >= 1e-10, "epsilon(1e-10) = " + e + " too high");
    }

    /** {@code delta_T(eps)} of T-fold randomized response, each binomial mass from its logarithm. */
    private static double exactRandomizedResponse(double eps0, int t, double eps) {
        double p1 = Math.exp(eps0) / (1 + Math.exp(eps0));
        double sum = 0;
        for (int j = 0; j <= t; j++) {
            double loss = eps0 * (2 * j - t);
            if (loss > eps) {
                double logBin = logChoose(t, j) + j * Math.log(p1) + (t - j) * Math.log1p(-p1);
                sum += Math.exp(logBin) * -Math.expm1(eps - loss);
            }
        }
        return sum;
    }

    private static double logChoose(int n, int k) {
        double s = 0;
        for (int i = 1; i <= k; i++) {
            s += Math.log(n - k + i) - Math.log(i);
        }
        return s;
    }
}

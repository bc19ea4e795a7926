package io.dpaudit.runner.analysis;

import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.dpaudit.core.accounting.ProfileComposition;
import io.dpaudit.core.bounds.GaussianBound;
import io.dpaudit.core.bounds.PrivacyBound;
import org.junit.jupiter.api.Test;

/**
 * When the reports call a bound "below the exact curve": below it beyond rounding and beyond the exact curve's
 * numerical bracket. The exact curve here is a Gaussian profile composed 20 times by the PLD accountant (as the shipped
 * exact curves of PriFedSync are), which lies a little above the closed form {@code G(mu sqrt 20)}; the closed form,
 * a correct and tight bound, used to be printed "(below the exact curve)".
 */
class BelowExactCurveTest {
    private static final double MU = 0.5;
    private static final int ROUNDS = 20;
    private static final PrivacyBound EXACT = ProfileComposition.compose(new GaussianBound(MU), ROUNDS);

    private static boolean below(PrivacyBound bound, double delta) {
        double e = bound.epsilon(delta);
        double ratio = e / EXACT.epsilon(delta);
        return LoosenessAnalysis.belowExact(EXACT, delta, e, ratio);
    }

    @Test
    void aTightCorrectBoundWithinTheCompositionsDiscretisationIsNotBelow() {
        GaussianBound tight = new GaussianBound(MU * Math.sqrt(ROUNDS));
        for (double delta : new double[] {1e-3, 1e-5, 1e-8}) {
            double ratio = tight.epsilon(delta) / EXACT.epsilon(delta);
            assertTrue(Looseness.below(ratio), "the composed curve lies above the closed form: ratio " + ratio);
            assertFalse(below(tight, delta), "delta " + delta + ": ratio " + ratio);
            assertTrue(Looseness.mark(ratio, false).contains("numerical error"));
        }
    }

    @Test
    void aBoundTwentyPercentBelowIsBelow() {
        GaussianBound optimistic = new GaussianBound(0.8 * MU * Math.sqrt(ROUNDS));
        for (double delta : new double[] {1e-3, 1e-5, 1e-8}) {
            assertTrue(below(optimistic, delta), "delta " + delta);
        }
        assertTrue(Looseness.mark(0.8, true).equals("below the exact curve"));
    }

    /** The exact curve's bracket in ε contains the closed form, and a closed form's bracket is itself. */
    @Test
    void theBracketInEpsilonHoldsTheTruth() {
        GaussianBound truth = new GaussianBound(MU * Math.sqrt(ROUNDS));
        for (double delta : new double[] {1e-3, 1e-5, 1e-8}) {
            double exact = EXACT.epsilon(delta);
            double low = LoosenessAnalysis.exactEpsilonLowerEnd(EXACT, delta, exact);
            double e = truth.epsilon(delta);
            assertTrue(low <= e && e <= exact && low < exact, "delta " + delta + ": [" + low + ", " + exact
                    + "] against the closed form " + e);
            double own = LoosenessAnalysis.exactEpsilonLowerEnd(truth, delta, e);
            assertTrue(own <= e && own >= e * (1 - 1e-6), "closed form: " + own + " against " + e);
        }
        assertTrue(Double.isNaN(LoosenessAnalysis.exactEpsilonLowerEnd(EXACT, 1e-5, Double.NaN)));
        assertTrue(Looseness.mark(0.99999, false, 2.5, 2.6).endsWith("its ε lies in [2.500, 2.600]"));
    }

    @Test
    void aLooseOrInfiniteBoundIsNotBelow() {
        assertFalse(below(new GaussianBound(1.2 * MU * Math.sqrt(ROUNDS)), 1e-5));
        assertFalse(LoosenessAnalysis.belowExact(EXACT, 1e-5, Double.POSITIVE_INFINITY, Double.POSITIVE_INFINITY));
        assertFalse(LoosenessAnalysis.belowExact(EXACT, 1e-5, 1.0, Double.NaN));
    }
}

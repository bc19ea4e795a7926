package io.dpaudit.core.fdp;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.dpaudit.core.bounds.BoundKind;
import io.dpaudit.core.bounds.DiscretePairProfile;
import io.dpaudit.core.bounds.GaussianBound;
import io.dpaudit.core.bounds.LabelledBound;
import io.dpaudit.core.bounds.PrivacyBound;
import io.dpaudit.core.law.DiscreteLaw;
import org.junit.jupiter.api.Test;

class BoundTradeOffTest {
    /** A GDP bound is its G_mu; the same curve recovered from its profile lies just below it. */
    @Test
    void gaussianBoundsAreExactAndTheirProfilesConvertFromBelow() {
        GaussianBound g = new GaussianBound(1.0);
        assertEquals(0.740488977158556, BoundTradeOff.of(g).beta(0.05), 1e-12);
        PrivacyBound profileOnly = new LabelledBound("x", BoundKind.UPPER_BOUND, new PrivacyBound() {
            @Override
            public String name() {
                return "p";
            }

            @Override
            public String source() {
                return "p";
            }

            @Override
            public double delta(double epsilon) {
                return g.delta(epsilon);
            }
        }, "p");
        TradeOffFunction f = BoundTradeOff.of(profileOnly);
        for (double a : new double[] {1e-6, 1e-3, 0.05, 0.3, 0.7, 0.99}) {
            double exact = new GaussianTradeOff(1.0).beta(a);
            assertTrue(f.beta(a) <= exact + 1e-12, "safe side at " + a);
            assertEquals(exact, f.beta(a), 2e-3, "close at " + a);
        }
    }

    /** The exact curve of a pair of discrete laws: randomized response with eps0 = 1 is f_{1,0}. */
    @Test
    void aPairProfileGivesThePairsCurve() {
        double p = Math.exp(1) / (1 + Math.exp(1));
        DiscreteLaw a = DiscreteLaw.ofProbabilities(new double[] {1 - p, p}, i -> "b" + i);
        DiscreteLaw b = DiscreteLaw.ofProbabilities(new double[] {p, 1 - p}, i -> "b" + i);
        TradeOffFunction f = BoundTradeOff.of(new DiscretePairProfile("rr", "rr", BoundKind.PAIR_PROFILE, a, b, 0));
        EpsilonDeltaTradeOff truth = new EpsilonDeltaTradeOff(1, 0);
        for (double x : new double[] {0, 0.1, 1 - p, 0.5, 0.9}) {
            assertEquals(truth.beta(x), f.beta(x), 1e-12, "alpha " + x);
        }
    }
}

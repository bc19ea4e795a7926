package io.dpaudit.core.bounds;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.junit.jupiter.api.Test;

/** A tabulated profile is exact at its nodes, above the profile between them, and close to it on a fine table. */
class TabulatedProfileTest {
    @Test
    void exactAtNodesAboveBetweenAndClose() {
        for (double mu : new double[] {0.3, 1.0, 4.0}) {
            GaussianBound g = new GaussianBound(mu);
            TabulatedProfile t = new TabulatedProfile(g, 16, 1024);
            for (int i = 0; i <= 1024; i += 17) {
                assertEquals(g.delta(i * 16.0 / 1024), t.delta(i * 16.0 / 1024), 0.0);
            }
            double worst = 0;
            for (int i = 0; i < 5000; i++) {
                double eps = 16.0 * (i + 0.37) / 5000;
                double exact = g.delta(eps);
                double tab = t.delta(eps);
                assertTrue(tab >= exact, "mu " + mu + " eps " + eps + ": " + tab + " < " + exact);
                worst = Math.max(worst, tab - exact);
            }
            // Chord error of a smooth curve on a step of 1/64: second order, far below 1e-4 here.
            assertTrue(worst < 1e-4, "mu " + mu + ": largest excess " + worst);
            // Beyond the table: the last node's value (non-increasing profile).
            assertEquals(t.delta(16), t.delta(100), 0.0);
            assertTrue(t.delta(100) >= g.delta(100));
        }
    }
}

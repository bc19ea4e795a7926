package io.dpaudit.core.estimate;

import static io.dpaudit.core.estimate.BetaQuantileLimits.assertCloseBelow;
import static io.dpaudit.core.estimate.BetaQuantileLimits.cpLower;
import static io.dpaudit.core.estimate.BetaQuantileLimits.cpUpper;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.junit.jupiter.api.Test;

/**
 * {@link PairedDeltaBound} against its formulas with Clopper–Pearson limits computed independently (commons-math's beta
 * quantiles; agreement within 1e-7 relative and on the safe side, as in {@link PairedEpsilonBoundTest}), what coupling
 * buys for δ, and extreme ε.
 */
class PairedDeltaBoundTest {

    @Test
    void pairedFormWorkedExample() {
        // 10^6 coupled trials: both worlds in S in 20 000, only the flagged one in 1 300, only the other in 900; at
        // eps = 0.005 the plug-in delta is P - e^eps Q = 0.0213 - 1.005013 * 0.0209 = 2.95e-4.
        // By hand: level 0.05, kappa share 0.5: g = 0.025, g_d = 0.0025, pi_L at 0.0225;
        // c_L = pi_L + kappa_U - e^eps (1 - pi_L + kappa_U), delta_L = d_L c_L.
        double eps = 0.005;
        double piL = cpLower(1300, 2200, 0.0225);
        double tU = cpUpper(20_000, 22_200, 0.025);
        double kappaU = tU / (1 - tU);
        double dL = cpLower(2200, 1_000_000, 0.0025);
        double expected = dL * (piL + kappaU - Math.exp(eps) * (1 - piL + kappaU));
        double bound = PairedDeltaBound.delta(20_000, 1300, 900, 1_000_000, eps, 0.05, 0.5);
        assertCloseBelow(expected, bound);
        // 1.5e-4: half the plug-in; the two worlds' own limits on the same counts certify nothing
        assertTrue(bound > 1e-4 && bound < 2.95e-4, "bound " + bound);
        assertEquals(0.0, PairedDeltaBound.marginalDelta(20_000, 1300, 900, 1_000_000, eps, 0.05, 0.5));
    }

    @Test
    void marginalFormWorkedExample() {
        // disjoint supports: 1000 outputs of the flagged world alone in 10^5 trials; at eps = 5,
        // P_L (level 0.005) - e^5 Q_U (0 of 10^5 at level 0.045)
        double expected = cpLower(1000, 100_000, 0.005) - Math.exp(5) * cpUpper(0, 100_000, 0.045);
        assertCloseBelow(expected, PairedDeltaBound.marginalDelta(0, 1000, 0, 100_000, 5.0, 0.05, 0.9));
        assertTrue(expected > 0.004, "expected " + expected);
    }

    @Test
    void extremeEpsilonGivesZeroNotOverflow() {
        assertEquals(0.0, PairedDeltaBound.delta(20_000, 1300, 900, 1_000_000, 1000, 0.05, 0.5));
        assertEquals(0.0, PairedDeltaBound.marginalDelta(0, 1000, 0, 100_000, 1000, 0.05, 0.9));
        assertEquals(0.0, PairedDeltaBound.delta(0, 1000, 0, 100_000, 800, 0.05, 0.9));
    }

    @Test
    void givesNothingWithoutEvidenceAndRefusesBadInput() {
        assertEquals(0.0, PairedDeltaBound.delta(500, 0, 30, 1000, 0.0, 0.05, 0.5));
        assertEquals(0.0, PairedDeltaBound.delta(500, 40, 40, 1000, 0.0, 0.05, 0.5));
        assertEquals(0.0, PairedDeltaBound.marginalDelta(500, 40, 40, 1000, 0.0, 0.05, 0.5));
        assertThrows(IllegalArgumentException.class, () -> PairedDeltaBound.delta(5, 4, 3, 10, 0, 0.05, 0.5));
        assertThrows(IllegalArgumentException.class, () -> PairedDeltaBound.delta(1, 1, 1, 10, -1, 0.05, 0.5));
        assertThrows(IllegalArgumentException.class, () -> PairedDeltaBound.delta(1, 1, 1, 10, 0, 0.05, 0.95));
        assertThrows(IllegalArgumentException.class, () -> PairedDeltaBound.marginalDelta(1, 1, 1, 10, 0, 1.0, 0.5));
    }
}

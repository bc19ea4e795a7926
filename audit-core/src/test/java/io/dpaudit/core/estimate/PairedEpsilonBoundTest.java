package io.dpaudit.core.estimate;

import static io.dpaudit.core.estimate.BetaQuantileLimits.assertCloseBelow;
import static io.dpaudit.core.estimate.BetaQuantileLimits.cpLower;
import static io.dpaudit.core.estimate.BetaQuantileLimits.cpUpper;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.junit.jupiter.api.Test;

/**
 * {@link PairedEpsilonBound} against its formula with Clopper–Pearson limits computed independently (commons-math's
 * beta quantiles; dp-audit's limits are moved outward by 1e-9 relative, which {@code kappa = t / (1 - t)} magnifies to
 * about 1e-8, so agreement is asked within 1e-7 and on the safe side), its edge cases, and what coupling is for: the
 * same marginal counts give a larger bound when the worlds disagree less. The marginal form likewise, and what it is
 * for: disjoint supports, where the paired form pays for its nuisance limit.
 */
class PairedEpsilonBoundTest {

    @Test
    void workedExampleAtDeltaZero() {
        // 10^6 coupled trials: S holds both outputs in 20 000, only the flagged world's in 1 300, only the other's in
        // 900.
        // Plug-in: P = 0.0213, Q = 0.0209, log(P/Q) = 0.01896.
        // By hand: level 0.05, g = 0.0025; pi_L = CP lower of 1300 of 2200 at 0.0475, t_U = CP upper of 20000 of 22200
        // at 0.0025, kappa_U = t_U/(1 - t_U), r_L = (pi_L + kappa_U)/(1 + kappa_U - pi_L).
        double piL = cpLower(1300, 2200, 0.0475);
        double tU = cpUpper(20_000, 22_200, 0.0025);
        double kappaU = tU / (1 - tU);
        double expected = Math.log((piL + kappaU) / (1 + kappaU - piL));
        double bound = PairedEpsilonBound.epsilon(20_000, 1300, 900, 1_000_000, 0.0, 0.05);
        assertCloseBelow(expected, bound);
        // 0.01435, below the plug-in 0.01896 and five times what independent samples of these sizes allow (0.0028)
        assertTrue(bound > 0.014 && bound < 0.01896, "bound " + bound);
        double independent = ConditionalEpsilonBound.epsilon(21_300, 1_000_000, 20_900, 1_000_000, 0.0, 0.05);
        assertTrue(independent < 0.003, "independent bound " + independent);
    }

    @Test
    void workedExampleAtPositiveDelta() {
        double delta = 1e-4;
        double g = 0.0025;
        double piL = cpLower(1300, 2200, 0.05 - 2 * g);
        double tU = cpUpper(20_000, 22_200, g);
        double dL = cpLower(2200, 1_000_000, g);
        double kappaU = tU / (1 - tU);
        double expected = Math.log((piL + kappaU - delta / dL) / (1 + kappaU - piL));
        double bound = PairedEpsilonBound.epsilon(20_000, 1300, 900, 1_000_000, delta, 0.05);
        assertCloseBelow(expected, bound);
        assertTrue(bound < PairedEpsilonBound.epsilon(20_000, 1300, 900, 1_000_000, 0.0, 0.05));
    }

    @Test
    void monotoneCouplingIsBestServedByALargeKappaShare() {
        // Only the flagged world ever lands alone in S (a Laplace tail): the evidence is in kappa = both / discordant.
        // At share 0.9: r_L = (pi_L + kappa_U)/(1 + kappa_U - pi_L), pi_L at level 0.005, t_U at 0.045.
        double piL = cpLower(40_000, 40_000, 0.005);
        double tU = cpUpper(400_000, 440_000, 0.045);
        double kappaU = tU / (1 - tU);
        double expected = Math.log((piL + kappaU) / (1 + kappaU - piL));
        double wide = PairedEpsilonBound.epsilon(400_000, 40_000, 0, 10_000_000, 0.0, 0.05, 0.9);
        assertCloseBelow(expected, wide);
        double narrow = PairedEpsilonBound.epsilon(400_000, 40_000, 0, 10_000_000, 0.0, 0.05);
        assertTrue(wide > narrow && narrow > 0.09 && wide < Math.log(1.1), wide + " " + narrow);
    }

    @Test
    void strongerCouplingGivesALargerBoundForTheSameMarginals() {
        // TP = 21 300 and FP = 20 900 of 10^6 in each case; the worlds disagree on 2 200, 4 200 and 10 200 trials
        double tight = PairedEpsilonBound.epsilon(20_000, 1300, 900, 1_000_000, 0.0, 0.05);
        double looser = PairedEpsilonBound.epsilon(19_000, 2300, 1900, 1_000_000, 0.0, 0.05);
        double loosest = PairedEpsilonBound.epsilon(16_000, 5300, 4900, 1_000_000, 0.0, 0.05);
        assertTrue(tight > looser && looser > loosest, tight + " " + looser + " " + loosest);
    }

    @Test
    void givesNothingWithoutEvidence() {
        assertEquals(0.0, PairedEpsilonBound.epsilon(500, 0, 0, 1000, 0.0, 0.05)); // no discordant trial
        assertEquals(0.0, PairedEpsilonBound.epsilon(500, 0, 30, 1000, 0.0, 0.05)); // only the other world's
        assertEquals(0.0, PairedEpsilonBound.epsilon(0, 0, 0, 1000, 0.0, 0.05)); // S never occurs
        assertEquals(0.0, PairedEpsilonBound.epsilon(500, 40, 40, 1000, 0.0, 0.05)); // no difference
        // a δ as large as the discordant rate leaves nothing
        assertEquals(0.0, PairedEpsilonBound.epsilon(500, 40, 10, 1000, 0.05, 0.05));
    }

    @Test
    void disjointSupportsGiveALargeFiniteBound() {
        // the other world never lands in S: r_L = pi_L / (1 - pi_L) at kappa_U = CP upper of 0 of 1000
        double bound = PairedEpsilonBound.epsilon(0, 1000, 0, 100_000, 0.0, 0.05);
        double piL = cpLower(1000, 1000, 0.0475);
        double tU = cpUpper(0, 1000, 0.0025);
        double kappaU = tU / (1 - tU);
        assertCloseBelow(Math.log((piL + kappaU) / (1 + kappaU - piL)), bound);
        assertTrue(bound > 4 && Double.isFinite(bound), "bound " + bound);
    }

    @Test
    void marginalFormWorkedExample() {
        // The same counts as above: P from 21 300 of 10^6 at level (1 - 0.5) 0.05, Q from 20 900 at 0.5 · 0.05; with
        // delta = 1e-4 subtracted from P_L. Far below the paired form here, where the worlds disagree on few trials.
        for (double delta : new double[] {0.0, 1e-4}) {
            double expected = Math.log((cpLower(21_300, 1_000_000, 0.025) - delta)
                    / cpUpper(20_900, 1_000_000, 0.025));
            double bound = PairedEpsilonBound.marginalEpsilon(20_000, 1300, 900, 1_000_000, delta, 0.05, 0.5);
            if (expected <= 0) {
                assertEquals(0.0, bound);
            } else {
                assertCloseBelow(expected, bound);
            }
            assertTrue(bound < PairedEpsilonBound.epsilon(20_000, 1300, 900, 1_000_000, delta, 0.05));
        }
        // at share 0.9 for Q_U
        double expected = Math.log(cpLower(1000, 100_000, 0.005) / cpUpper(0, 100_000, 0.045));
        assertCloseBelow(expected, PairedEpsilonBound.marginalEpsilon(0, 1000, 0, 100_000, 0.0, 0.05, 0.9));
    }

    @Test
    void marginalFormRecoversWhatKappaCostsOnDisjointSupports() {
        // 1000 outputs only the flagged world produces, none from the other, in 10^5 trials: the paired form pays for
        // kappa_U (about 4.7), the marginal form bounds Q by 0 of 10^5 (about 5.7); independent samples of 10^5 per
        // world give the conditional bound in between the two forms' reach
        double paired = 0;
        for (double share : PairedEpsilonBound.KAPPA_SHARES) {
            paired = Math.max(paired, PairedEpsilonBound.epsilon(0, 1000, 0, 100_000, 0.0, 0.05, share));
        }
        double marginal = PairedEpsilonBound.marginalEpsilon(0, 1000, 0, 100_000, 0.0, 0.05, 0.9);
        double independent = ConditionalEpsilonBound.epsilon(1000, 100_000, 0, 100_000, 0.0, 0.05);
        System.out.printf("[paired bound] disjoint supports: paired %.4f, marginal %.4f, independent %.4f%n", paired,
                marginal, independent);
        assertTrue(marginal > paired + 0.5, marginal + " vs " + paired);
        assertTrue(marginal > independent - 0.1, marginal + " vs " + independent);
    }

    @Test
    void marginalFormGivesNothingWithoutEvidence() {
        assertEquals(0.0, PairedEpsilonBound.marginalEpsilon(500, 0, 30, 1000, 0.0, 0.05, 0.5));
        assertEquals(0.0, PairedEpsilonBound.marginalEpsilon(500, 40, 40, 1000, 0.0, 0.05, 0.5));
        assertEquals(0.0, PairedEpsilonBound.marginalEpsilon(0, 10, 0, 1000, 0.02, 0.05, 0.5)); // P_L below delta
        assertThrows(IllegalArgumentException.class,
                () -> PairedEpsilonBound.marginalEpsilon(1, 1, 1, 10, 0, 0.05, 1.0));
        assertThrows(IllegalArgumentException.class,
                () -> PairedEpsilonBound.marginalEpsilon(5, 4, 3, 10, 0, 0.05, 0.5));
    }

    @Test
    void refusesImpossibleCounts() {
        assertThrows(IllegalArgumentException.class, () -> PairedEpsilonBound.epsilon(-1, 1, 1, 10, 0, 0.05));
        assertThrows(IllegalArgumentException.class, () -> PairedEpsilonBound.epsilon(5, 4, 3, 10, 0, 0.05));
        assertThrows(IllegalArgumentException.class, () -> PairedEpsilonBound.epsilon(1, 1, 1, 10, 0, 0));
        assertThrows(IllegalArgumentException.class, () -> PairedEpsilonBound.epsilon(1, 1, 1, 10, 1.0, 0.05));
        assertThrows(IllegalArgumentException.class, () -> PairedEpsilonBound.epsilon(1, 1, 1, 10, 0, 0.05, 0.95));
        assertThrows(IllegalArgumentException.class, () -> PairedEpsilonBound.epsilon(1, 1, 1, 10, 0, 0.05, 0));
    }
}

package io.dpaudit.core.estimate;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.dpaudit.core.engine.CoupledCounts;
import io.dpaudit.core.engine.HistogramBinning;
import org.junit.jupiter.api.Test;

/**
 * {@link PairedEstimator} chooses the form of the bound on the selection trials: the marginal form where the worlds
 * never share the test's event (disjoint supports: the paired form's nuisance limit is pure cost), the paired form
 * where they mostly do (its gain). Deterministic counts; the certified number is the chosen form's on the evaluation
 * counts.
 */
class PairedEstimatorTest {
    /** One bin between edges 0 and 1: slot 2 is "at or above edge 1" (the event), slot 0 is below every edge. */
    private static final HistogramBinning BINNING = new HistogramBinning(0, 1, 1);
    private static final int IN = 2;
    private static final int OUT = 0;

    /** {@code trials} coupled trials: {@code both} with both worlds in S, {@code flaggedOnly} and {@code otherOnly}. */
    private static CoupledCounts counts(int trials, int both, int flaggedOnly, int otherOnly) {
        CoupledCounts c = new CoupledCounts(BINNING);
        for (int i = 0; i < trials; i++) {
            if (i < both) {
                c.add(IN, IN);
            } else if (i < both + flaggedOnly) {
                c.add(IN, OUT);
            } else if (i < both + flaggedOnly + otherOnly) {
                c.add(OUT, IN);
            } else {
                c.add(OUT, OUT);
            }
        }
        return c;
    }

    private static double bestPaired(long both, long flaggedOnly, long otherOnly, long n, double level) {
        double best = 0;
        for (double share : PairedEpsilonBound.KAPPA_SHARES) {
            best = Math.max(best, PairedEpsilonBound.epsilon(both, flaggedOnly, otherOnly, n, 0.0, level, share));
        }
        return best;
    }

    /** The reported bound is the form's, rounded down (by at most 1e-9 relative). */
    private static void assertRoundedDown(double form, double reported) {
        assertEquals(form, reported, 1e-9 * form);
        assertTrue(reported <= form, reported + " above " + form);
    }

    @Test
    void disjointSupportsAreCertifiedByTheMarginalForm() {
        EpsilonLowerBound e = PairedEstimator.heldOut(counts(100_000, 0, 1000, 0), counts(1_000_000, 0, 10_000, 0),
                0.95).epsilonLowerBound(0.0);
        assertEquals(EpsilonLowerBound.Certification.MARGINAL, e.certification());
        double level = e.paired().errorLevel();
        assertRoundedDown(PairedEpsilonBound.marginalEpsilon(0, 10_000, 0, 1_000_000, 0.0, level,
                e.paired().share()), e.epsilon());
        // P_L near 0.0098 over Q_U = CP upper of 0 of 10^6 at 0.045 (3.1e-6): about 8.0, where the paired form's
        // best share gives about 7.1
        double paired = bestPaired(0, 10_000, 0, 1_000_000, level);
        assertTrue(e.epsilon() > paired + 0.5 && e.epsilon() > 7.9, e.epsilon() + " vs paired " + paired);
    }

    @Test
    void stronglyCoupledWorldsAreCertifiedByThePairedForm() {
        EpsilonLowerBound e = PairedEstimator.heldOut(counts(100_000, 2000, 130, 90),
                counts(1_000_000, 20_000, 1300, 900), 0.95).epsilonLowerBound(0.0);
        assertEquals(EpsilonLowerBound.Certification.PAIRED, e.certification());
        double level = e.paired().errorLevel();
        assertRoundedDown(PairedEpsilonBound.epsilon(20_000, 1300, 900, 1_000_000, 0.0, level, e.paired().share()),
                e.epsilon());
        double marginal = PairedEpsilonBound.marginalEpsilon(20_000, 1300, 900, 1_000_000, 0.0, level, 0.5);
        assertTrue(e.epsilon() > 0.01 && marginal == 0.0, e.epsilon() + " vs marginal " + marginal);
    }

    @Test
    void deltaIsCertifiedByTheFormTheSelectionPredictsTighter() {
        // strongly coupled: at eps = 0.005 the paired form certifies delta > 0 (plug-in 2.95e-4), each world's own
        // limits nothing
        DeltaLowerBound paired = PairedEstimator.heldOut(counts(100_000, 2000, 130, 90),
                counts(1_000_000, 20_000, 1300, 900), 0.95).deltaLowerBound(0.005);
        assertEquals(EpsilonLowerBound.Certification.PAIRED, paired.certification());
        assertRoundedDown(PairedDeltaBound.delta(20_000, 1300, 900, 1_000_000, 0.005, 0.05, paired.paired().share()),
                paired.delta());
        assertTrue(paired.delta() > 1e-4, "delta " + paired.delta());
        // disjoint supports: at eps = 5 the marginal form (P_L about 0.0098, e^5 Q_U about 4.6e-4)
        DeltaLowerBound marginal = PairedEstimator.heldOut(counts(100_000, 0, 1000, 0),
                counts(1_000_000, 0, 10_000, 0), 0.95).deltaLowerBound(5.0);
        assertEquals(EpsilonLowerBound.Certification.MARGINAL, marginal.certification());
        assertRoundedDown(PairedDeltaBound.marginalDelta(0, 10_000, 0, 1_000_000, 5.0, 0.05,
                marginal.paired().share()), marginal.delta());
        assertTrue(marginal.delta() > 0.009, "delta " + marginal.delta());
    }
}

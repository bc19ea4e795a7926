package io.dpaudit.core.estimate.power;

import io.dpaudit.core.estimate.ClopperPearson;
import io.dpaudit.core.estimate.DeltaLowerBound;
import io.dpaudit.core.estimate.EpsilonLowerBound;
import io.dpaudit.core.estimate.PairedDeltaBound;
import io.dpaudit.core.estimate.SelectedTest;
import io.dpaudit.core.estimate.TestDirection;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.apache.commons.math3.distribution.BinomialDistribution;
import org.apache.commons.math3.random.Well19937c;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

/**
 * The coupled trials' power statement means what it says: a law with the observed rates of {@code both} and
 * {@code otherOnly} and a flagged-only rate giving the detectable δ is flagged by the certifying form with probability
 * at least 0.9. Checked by drawing the three cells of the coupled trials (multinomial, as nested binomials; fixed
 * seeds), 2000 repetitions; each check allows 0.9 minus four standard errors (0.873), a false-failure rate below 1e-4
 * were the detection probability exactly 0.9 (the union bound makes it higher). The statement is also the stronger one
 * where pairing pays (the paired form), and {@link DetectionPower}'s where the form is each world's own limits at
 * half the level each (the marginal form at share 0.5).
 */
class PairedDetectionPowerTest {
    private static final int REPETITIONS = 2000;
    private static final double FLOOR = 0.9 - 4 * Math.sqrt(0.9 * 0.1 / REPETITIONS);
    private static final double LEVEL = 0.05;

    private static DeltaLowerBound bound(long both, long flaggedOnly, long otherOnly, long n, boolean marginal,
            double share) {
        long flagged = both + flaggedOnly;
        long other = both + otherOnly;
        SelectedTest t = new SelectedTest(TestDirection.UPPER_TAIL_FLAGS_D, 0, 0.0, flagged, other, n, n,
                ClopperPearson.lower(flagged, n, LEVEL / 2), ClopperPearson.upper(other, n, LEVEL / 2), LEVEL / 2);
        return new DeltaLowerBound(0.5, 0, t, marginal ? EpsilonLowerBound.Certification.MARGINAL
                : EpsilonLowerBound.Certification.PAIRED, new EpsilonLowerBound.PairedCounts(both, flaggedOnly,
                        otherOnly, LEVEL, share));
    }

    /** The fraction of simulated coupled audits whose form flags the claim, at flagged-only rate {@code x}. */
    private static double flagRate(DeltaLowerBound b, double x, double epsilon, double claimDelta, int seed) {
        EpsilonLowerBound.PairedCounts c = b.paired();
        int n = (int) b.test().trials();
        double r11 = (double) c.both() / n;
        double r01 = (double) c.otherOnly() / n;
        Well19937c rng = new Well19937c(seed);
        BinomialDistribution both = new BinomialDistribution(rng, n, r11);
        int flagged = 0;
        for (int i = 0; i < REPETITIONS; i++) {
            int n11 = both.sample();
            int n10 = new BinomialDistribution(rng, n - n11, Math.min(1, x / (1 - r11))).sample();
            int n01 = new BinomialDistribution(rng, n - n11 - n10, Math.min(1, r01 / (1 - r11 - x))).sample();
            double d = b.certification() == EpsilonLowerBound.Certification.MARGINAL
                    ? PairedDeltaBound.marginalDelta(n11, n10, n01, n, epsilon, LEVEL, c.share())
                    : PairedDeltaBound.delta(n11, n10, n01, n, epsilon, LEVEL, c.share());
            flagged += d > claimDelta ? 1 : 0;
        }
        return (double) flagged / REPETITIONS;
    }

    @Test
    @Tag("statistical") // repeated simulation: verify's tier, not the unit tier
    void aLawAtTheDetectableDeltaIsFlaggedWithProbabilityAtLeast90Percent() {
        Object[][] settings = {
            // both, flagged only, other only, n, marginal?, share, epsilon, claimed delta
            {4000L, 500L, 300L, 100_000L, false, 0.3, 0.1, 1e-3},
            {40_000L, 900L, 700L, 100_000L, false, 0.05, 0.05, 1e-4},
            {0L, 300L, 40L, 100_000L, false, 0.3, 1.0, 1e-4},
            {200L, 800L, 900L, 100_000L, true, 0.5, 0.2, 1e-4},
            {0L, 50L, 5L, 100_000L, true, 0.9, 2.0, 0.0},
        };
        int seed = 11;
        for (Object[] s : settings) {
            DeltaLowerBound b = bound((long) s[0], (long) s[1], (long) s[2], (long) s[3], (boolean) s[4],
                    (double) s[5]);
            double epsilon = (double) s[6];
            double claim = (double) s[7];
            double detectable = PairedDetectionPower.detectableDelta(b, epsilon, claim);
            assertTrue(Double.isFinite(detectable) && detectable > claim, "detectable " + detectable);
            long n = b.test().trials();
            double q = (double) ((long) s[0] + (long) s[2]) / n;
            double x = Math.exp(epsilon) * q - (double) (long) s[0] / n + detectable; // flagged-only rate
            double rate = flagRate(b, x, epsilon, claim, seed++);
            assertTrue(rate >= FLOOR, "flagged " + rate + " at the detectable delta " + detectable + " of "
                    + java.util.Arrays.toString(s));
        }
    }

    @Test
    void pairingDetectsLessWhereTheWorldsMoveTogetherAndTheMarginalFormIsDetectionPowers() {
        // 4.5% of trials show the event in both worlds, 0.5% in the flagged one alone, 0.3% in the other alone
        DeltaLowerBound paired = bound(45_000, 5000, 3000, 1_000_000, false, 0.3);
        DeltaLowerBound halves = bound(45_000, 5000, 3000, 1_000_000, true, 0.5);
        double pairedPower = PairedDetectionPower.detectableDelta(paired, 0.05, 1e-4);
        double perWorld = DetectionPower.detectableDelta(halves.test(), 0.05, 1e-4);
        assertTrue(pairedPower < perWorld / 2, pairedPower + " against each world's own limits' " + perWorld);
        // each world's own limits at half the level each: the same statement as DetectionPower's
        assertEquals(perWorld, PairedDetectionPower.detectableDelta(halves, 0.05, 1e-4), 1e-15);
        assertEquals(perWorld, DetectionPower.detectableDelta(halves, 0.05, 1e-4), 1e-15);
    }

    @Test
    void nothingDetectableIsInfinite() {
        DeltaLowerBound b = bound(4000, 500, 300, 100_000, false, 0.3);
        assertEquals(Double.POSITIVE_INFINITY, PairedDetectionPower.detectableDelta(b, 1000, 1e-5), "e^1000");
        assertEquals(Double.POSITIVE_INFINITY, PairedDetectionPower.detectableDelta(
                bound(4000, 500, 300, 100_000, true, 0.5), 1000, 1e-5), "e^1000, marginal");
        // the other world shows the event in almost every trial: no flagged-only rate can make up e^eps Q
        assertEquals(Double.POSITIVE_INFINITY, PairedDetectionPower.detectableDelta(
                bound(60_000, 100, 39_000, 100_000, false, 0.3), 0.5, 1e-5));
        assertEquals(Double.POSITIVE_INFINITY, PairedDetectionPower.detectableDelta(
                bound(4000, 500, 300, 100_000, false, 0.3), 0.1, 0.99));
        // a claim of (0, 0.999) that no number of trials can refute: the search stops at 10^15 trials per world
        // (towards 10^17 the Clopper-Pearson limits of the scaled counts fail to resolve: once an internal error)
        assertEquals(0, DetectionPower.scaleToResolve(bound(42_500, 46_600, 0, 90_000, false, 0.05), 0, 0.999));
    }

    @Test
    void moreCoupledTrialsResolveWhatTheseCouldNot() {
        // a test in the tail (the other world's rate 0.003): more trials power the claim (0.5, 1e-4) by the same test
        DeltaLowerBound b = bound(200, 300, 100, 100_000, false, 0.3);
        double claim = 1e-4;
        assertTrue(!EpsilonPower.powered(b, 0.5, claim));
        long factor = DetectionPower.scaleToResolve(b, 0.5, claim);
        assertTrue(factor >= 2 && Long.bitCount(factor) == 1, "a power of two: " + factor);
        assertEquals(100_000 * factor, DetectionPower.trialsToResolve(b, 0.5, claim));
        DeltaLowerBound more = bound(200 * factor, 300 * factor, 100 * factor, 100_000 * factor, false, 0.3);
        assertTrue(EpsilonPower.powered(more, 0.5, claim));
        DeltaLowerBound half = bound(200 * factor / 2, 300 * factor / 2, 100 * factor / 2, 100_000 * factor / 2,
                false, 0.3);
        assertTrue(factor == 2 || !EpsilonPower.powered(half, 0.5, claim), "the smallest factor");
        // a test of the bulk (the other world's rate 0.48) never powers a claim at a small delta, whatever the trials:
        // the Gaussian mechanisms it detects all have several times the claimed epsilon there
        assertEquals(0, DetectionPower.scaleToResolve(bound(45_000, 5000, 3000, 100_000, false, 0.3), 0.05, 2e-4));
    }
}

package io.dpaudit.mechanisms.checkin;

import static io.dpaudit.mechanisms.checkin.CheckInExactTest.parameters;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.dpaudit.core.InvalidInputException;
import io.dpaudit.core.bounds.BoundKind;
import io.dpaudit.core.bounds.PrivacyBound;
import io.dpaudit.core.model.Parameters;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

class CheckInBoundsTest {
    private static RandomCheckIn mechanism(CheckInParameters p) {
        return new RandomCheckIn(new Parameters("mechanism.", Map.of()), p);
    }

    private static PrivacyBound bound(CheckInParameters p, String name) {
        return mechanism(p).boundFamilies().stream().filter(b -> b.name().equals(name)).findFirst().orElseThrow(
                () -> new AssertionError(name + " not listed for " + p.describe())).atCurrent();
    }

    /** The numeric checks of the formula sheet (§8) for the reconstructed Theorem 3.2. */
    @Test
    void theorem32MatchesTheFormulaSheet() {
        assertEquals(0.1497181397735506, CheckInBounds.theorem32(1, 1, 10_000, 1e-6), 1e-15);
        assertEquals(0.014899582618370993, CheckInBounds.theorem32(1, 0.1, 10_000, 1e-6), 1e-16);
        CheckInParameters p = parameters("type", "random-checkin", "clients", 100_000, "slots", 10_000, "p0", 0.1,
                "eps0", 1.0, "dataset", "canonical");
        assertEquals(0.02601845532194887, CheckInBounds.Statement.THM_3_2_SIMPLE.perRound(p, 1e-6), 1e-16);
        assertEquals(CheckInBounds.Statement.THM_3_2_SIMPLE.perRound(p, 0.01),
                CheckInBounds.Statement.THM_3_2_SIMPLE.perRound(p, 0.02), "above delta = 1/100, what holds at 1/100");
        CheckInParameters large = parameters("type", "random-checkin", "clients", 100, "slots", 100, "p0", 0.1,
                "eps0", 1.5, "dataset", "canonical");
        assertEquals(Double.POSITIVE_INFINITY, CheckInBounds.Statement.THM_3_2_SIMPLE.perRound(large, 1e-6),
                "the clause needs eps0 <= 1");
        // The m-n mixup is Theorem 3.2 at p0 m/n.
        assertEquals(CheckInBounds.theorem32(1, 0.01, 10_000, 1e-6),
                CheckInBounds.Statement.MIXUP.perRound(p, 1e-6), 1e-17);
    }

    /**
     * The proven bounds lie on or above the exact curve of every simulated dataset: fixed windows on the worst of the
     * named datasets and on an exhaustive search, sliding windows (interior and edge), averaged updates, several
     * rounds, and the Gaussian randomizer where its exact curve exists (a window of one slot).
     */
    @Test
    void provenBoundsAreAboveTheExactCurve() {
        List<CheckInParameters> cases = List.of(
                parameters("type", "random-checkin", "clients", 1000, "slots", 1000, "p0", 1, "eps0", 1.0),
                parameters("type", "random-checkin", "clients", 12, "slots", 8, "p0", 1, "eps0", 2.0, "dataset",
                        "exhaustive"),
                parameters("type", "random-checkin", "clients", 5, "slots", 40, "p0", 0.3, "eps0", 4.0, "dataset",
                        "exhaustive"),
                parameters("type", "random-checkin", "clients", 1000, "slots", 10, "p0", 0.1, "eps0", 2.0,
                        "rounds", 5),
                parameters("type", "random-checkin-sliding", "clients", 300, "slots", 100, "p0", 0.5, "eps0", 2.0),
                parameters("type", "random-checkin-sliding", "clients", 300, "slots", 100, "p0", 0.5, "eps0", 2.0,
                        "target", "edge"),
                parameters("type", "random-checkin-averaged", "clients", 200, "slots", 20, "p0", 0.5, "eps0", 1.0),
                parameters("type", "random-checkin-sliding", "clients", 400, "slots", 100, "p0", 1, "randomizer",
                        "gaussian", "sigma", 0.5, "pair", "one-sided", "target", "edge"),
                parameters("type", "random-checkin", "clients", 3, "slots", 1, "p0", 0.8, "randomizer", "gaussian",
                        "sigma", 1.0, "pair", "symmetric", "rounds", 3));
        int compared = 0;
        for (CheckInParameters p : cases) {
            List<PrivacyBound> bounds = mechanism(p).bounds();
            PrivacyBound exact = bounds.get(0);
            assertEquals(p.type() + "-exact", exact.name());
            assertEquals(BoundKind.PAIR_PROFILE, exact.kind());
            for (PrivacyBound b : bounds) {
                if (b.kind() != BoundKind.UPPER_BOUND) {
                    continue;
                }
                for (double eps : new double[] {0, 0.01, 0.1, 0.5, 1, 2}) {
                    double d = b.delta(eps);
                    // The exact curve carries an allowance of about 1e-23 for tails its law left out.
                    assertTrue(d >= exact.delta(eps) * (1 - 1e-9) - 1e-20, p.describe() + ": " + b.name() + " delta " + d
                            + " below the exact " + exact.delta(eps) + " at eps " + eps);
                    compared++;
                }
            }
        }
        // averaged updates have one proven bound (ldp-baseline): checkin-subsampling is withdrawn for them
        assertEquals((8 * 2 + 1) * 6, compared, "two proven bounds per case (one for averaged), six epsilons");
    }

    /**
     * Theorem 3.2 (reconstructed) holds on the exact curve across a grid of settings (m from 10 to 10^4, n = m, 10m,
     * 100m, p0 in {0.1, 0.5, 1}, eps0 in {0.5, 1, 2, 4}; 144 settings were checked while writing this test, the ratio
     * never below 1); the m-n mixup and the planted bugs do not, where the scenarios put them.
     */
    @Test
    void theReconstructionHoldsAndTheKnownWrongReadingsFail() {
        for (int m : new int[] {10, 100, 1000}) {
            for (int mult : new int[] {1, 10, 100}) {
                for (double p0 : new double[] {0.1, 1.0}) {
                    for (double eps0 : new double[] {0.5, 2}) {
                        CheckInParameters p = parameters("type", "random-checkin", "clients", m * mult, "slots", m,
                                "p0", p0, "eps0", eps0, "dataset", "canonical");
                        double exact = bound(p, "random-checkin-exact").epsilon(1e-6);
                        double theorem = bound(p, "bkmtt20-thm3.2").epsilon(1e-6);
                        assertTrue(theorem >= exact, p.describe() + ": Thm 3.2 " + theorem + " < exact " + exact);
                        assertTrue(bound(p, "planted-per-slot-no-composition").epsilon(1e-6) < exact, p.describe());
                    }
                }
            }
        }
        CheckInParameters mixup = parameters("type", "random-checkin", "clients", 1000, "slots", 10, "p0", 0.1,
                "eps0", 1.0, "dataset", "canonical");
        double exact = bound(mixup, "random-checkin-exact").epsilon(1e-6);
        assertTrue(bound(mixup, "bkmtt20-thm3.2-m-n-mixup").epsilon(1e-6) < 0.5 * exact);
        CheckInParameters poisson = parameters("type", "random-checkin", "clients", 1000, "slots", 10, "p0", 0.1,
                "eps0", 2.0, "dataset", "canonical");
        assertTrue(bound(poisson, "planted-poisson-accounting").epsilon(1e-6)
                < 0.2 * bound(poisson, "random-checkin-exact").epsilon(1e-6));
        // Poisson accounting is pessimistic when the target is alone in its window of slots (n << m, p0 = 1).
        CheckInParameters alone = parameters("type", "random-checkin", "clients", 10, "slots", 100, "p0", 1,
                "eps0", 2.0, "dataset", "canonical");
        assertTrue(bound(alone, "planted-poisson-accounting").epsilon(1e-6)
                > bound(alone, "random-checkin-exact").epsilon(1e-6));
    }

    /**
     * For small n a dataset other than the canonical one is worse, as the formula sheet warns (n = 5, m = 20: the
     * opposite dummy by 10%; n = 10: a dataset none of the named ones is, by 18%, found by the exhaustive search); for
     * large n the effect vanishes.
     */
    @Test
    void theWorstDatasetDependsOnN() {
        CheckInParameters small = parameters("type", "random-checkin", "clients", 5, "slots", 20, "p0", 1, "eps0",
                2.0);
        RandomCheckIn m = mechanism(small);
        CheckInModel.Ranked top = m.model().ranking().get(0);
        assertEquals("opposite", top.dataset().name(), "n = 5: " + m.model().ranking());
        double canonical = m.model().perRound(CheckInDataset.CANONICAL).epsilon(CheckInModel.REFERENCE_DELTA);
        assertTrue(top.epsilon() > canonical * 1.05);
        CheckInParameters searched = parameters("type", "random-checkin", "clients", 10, "slots", 20, "p0", 1, "eps0",
                2.0, "dataset", "exhaustive");
        CheckInModel.Ranked worst = mechanism(searched).model().ranking().get(0);
        assertEquals(new CheckInDataset("3 other(s) hold 1, dummy 1", 3, true), worst.dataset());
        double c10 = mechanism(searched).model().perRound(CheckInDataset.CANONICAL)
                .epsilon(CheckInModel.REFERENCE_DELTA);
        assertTrue(worst.epsilon() > 1.15 * c10, worst + " against canonical " + c10);
        CheckInParameters large = parameters("type", "random-checkin", "clients", 2000, "slots", 200, "p0", 0.5,
                "eps0", 1.0);
        CheckInModel lm = mechanism(large).model();
        double c = lm.perRound(CheckInDataset.CANONICAL).epsilon(CheckInModel.REFERENCE_DELTA);
        assertEquals(c, lm.ranking().get(0).epsilon(), 1e-3 * c, "n = 2000: the effect vanishes");
    }

    /**
     * An exhaustive search keeps one composed curve per dataset: over 10^5 rounds at n = 30, eps0 = 20 it ran out of
     * memory after a minute (an internal error). It is refused in one line that names the field; 1000 rounds pass.
     */
    @Test
    void exhaustiveSearchOverManyRoundsIsRefusedUpFront() {
        InvalidInputException e = assertThrows(InvalidInputException.class, () -> parameters("type",
                "random-checkin", "clients", 30, "slots", 1, "p0", 1, "eps0", 20.0, "dataset", "exhaustive",
                "rounds", 100_000));
        assertTrue(e.getMessage().contains("rounds = 100000: must be <= 1000 with dataset exhaustive"), e.getMessage());
        assertEquals(1000, parameters("type", "random-checkin", "clients", 30, "slots", 1, "p0", 1, "eps0", 20.0,
                "dataset", "exhaustive", "rounds", 1000).rounds());
    }

    /**
     * One client, one slot, p0 = 1 with the Gaussian randomizer: the target is always the slot's release, so the exact
     * curve is the Gaussian mechanism's with sensitivity 2C (mu = 2 at sigma = C = 1). Its one-slot mixture had a
     * component of weight 0, an internal error of 'dp-audit bound'.
     */
    @Test
    void gaussianRandomizerAlwaysSelectedIsTheGaussianMechanism() {
        for (String type : new String[] {"random-checkin", "random-checkin-sliding"}) {
            CheckInParameters p = type.equals("random-checkin")
                    ? parameters("type", type, "clients", 1, "slots", 1, "p0", 1, "randomizer", "gaussian", "sigma",
                            1.0)
                    : parameters("type", type, "clients", 1, "slots", 1, "p0", 1, "randomizer", "gaussian", "sigma",
                            1.0, "target", "edge");
            PrivacyBound exact = bound(p, type + "-exact");
            for (double eps : new double[] {0, 0.5, 2}) {
                double truth = new io.dpaudit.core.bounds.GaussianBound(2).delta(eps);
                assertEquals(truth, exact.delta(eps), 1e-9 * truth + 1e-15, type + " at eps " + eps);
            }
        }
    }

    /**
     * Averaged updates reveal the check-in through their counts, so the check-in coin does not amplify as it does for
     * Algorithm 1. n = 2 (the other client holds 0), m = 1, p0 = 0.5, eps0 = 1, by hand with r = e/(1+e): the
     * count is 2 with probability 1/4 and then the target checked in; the release (count 2, sum 0) has probability
     * r^2 against r(1 - r) under the replacement, a ratio of e. Summing {@code (Q - e^0.7 P)_+} over (count, sum):
     * delta(0.7) = 0.034629708125621 (mpmath, 30 digits; the other direction gives 0.0127). The amplified form
     * {@code log(1 + p0(e^eps0 - 1)) = 0.620} says delta(0.7) = 0: it is registered as known to be wrong here, and
     * stays proven for Algorithm 1, whose exact curve is below it.
     */
    @Test
    void averagedUpdatesAreNotAmplifiedByTheCheckInCoin() {
        CheckInParameters averaged = parameters("type", "random-checkin-averaged", "clients", 2, "slots", 1, "p0",
                0.5, "eps0", 1.0);
        PrivacyBound exact = bound(averaged, "random-checkin-averaged-exact");
        assertEquals(0.034629708125621, exact.delta(0.7), 1e-9);
        PrivacyBound claimed = bound(averaged, "checkin-subsampling");
        assertEquals(BoundKind.KNOWN_WRONG, claimed.kind());
        assertEquals(0.0, claimed.delta(0.7), 1e-12);
        assertTrue(bound(averaged, "ldp-baseline").delta(0.7) >= exact.delta(0.7));
        CheckInParameters first = parameters("type", "random-checkin", "clients", 2, "slots", 1, "p0", 0.5,
                "eps0", 1.0);
        assertEquals(BoundKind.UPPER_BOUND, bound(first, "checkin-subsampling").kind());
        assertTrue(bound(first, "random-checkin-exact").delta(0.7) <= 1e-12);
    }

    /** No exact curve for the Gaussian randomizer over several slots; the report then has no reference. */
    @Test
    void gaussianOverSeveralSlotsHasNoExactCurve() {
        CheckInParameters p = parameters("type", "random-checkin", "clients", 100, "slots", 50, "p0", 1,
                "randomizer", "gaussian", "sigma", 2.0);
        RandomCheckIn m = mechanism(p);
        assertNull(m.referenceBound());
        assertTrue(m.bounds().stream().noneMatch(b -> b.kind() == BoundKind.PAIR_PROFILE));
        assertTrue(m.notes().stream().anyMatch(n -> n.contains("No exact curve")));
    }
}

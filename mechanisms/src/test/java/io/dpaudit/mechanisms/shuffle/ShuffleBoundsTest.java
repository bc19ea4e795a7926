package io.dpaudit.mechanisms.shuffle;

import static io.dpaudit.mechanisms.shuffle.ShuffleLawTest.parameters;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.dpaudit.core.bounds.BoundFamily;
import io.dpaudit.core.bounds.BoundKind;
import io.dpaudit.core.bounds.PrivacyBound;
import io.dpaudit.core.model.Parameters;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

class ShuffleBoundsTest {
    private static PrivacyBound bound(ShuffleParameters p, String name) {
        return new ShuffledProtocol(new Parameters("mechanism.", Map.of()), p).bounds().stream()
                .filter(b -> b.name().equals(name)).findFirst().orElseThrow();
    }

    /** Formula sheet §7: the paper and code forms against the official code's outputs. */
    @Test
    void feldmanMcMillanTalwarMatchesTheReferenceValues() {
        double[][] rows = {{1e5, 4, 1e-6, 0.5346339916517077, 0.5378040242374512},
            {1e4, 1, 1e-6, 0.21402565193083778, 0.23326559612374345},
            {1e6, 2, 1e-8, 0.07116040530398722, 0.07189073021806724}};
        for (double[] r : rows) {
            assertEquals(r[3], Fmt21Shuffling.paperForm(r[1], r[0], r[2]), 1e-15 * r[3]);
            assertEquals(r[4], Fmt21Shuffling.codeForm(r[1], r[0], r[2]), 1e-15 * r[4]);
        }
        // Outside the regime both fall back to eps0.
        assertEquals(4.0, Fmt21Shuffling.codeForm(4, 1000, 1e-6));
        assertEquals(4.0, Fmt21Shuffling.paperForm(4, 1000, 1e-6));
    }

    /**
     * Every certified bound lies on or above the exact curve of the simulated pair, at every delta of a grid, in
     * plain shuffling and in dss-SGD (self-sampled and fixed, one and several rounds).
     */
    @Test
    void certifiedBoundsAreAboveTheExactCurve() {
        List<ShuffleParameters> cases = List.of(
                parameters("type", "shuffled-randomizer", "clients", 20_000, "eps0", 1.0),
                parameters("type", "shuffled-randomizer", "clients", 300, "eps0", 2.0, "rounds", 4),
                parameters("type", "dss-sgd", "clients", 2000, "q", 0.05, "eps0", 2.0),
                parameters("type", "dss-sgd", "clients", 2000, "records", 5, "q", 0.3, "eps0", 0.5),
                parameters("type", "dss-sgd", "clients", 400, "q", 0.25, "eps0", 1.0, "sampling", "fixed"),
                parameters("type", "dss-sgd", "clients", 1000, "records", 2, "q", 0.1, "eps0", 1.0, "rounds", 10));
        int compared = 0;
        for (ShuffleParameters p : cases) {
            ShuffledProtocol m = new ShuffledProtocol(new Parameters("mechanism.", Map.of()), p);
            List<PrivacyBound> bounds = m.bounds();
            PrivacyBound exact = bounds.get(0);
            assertEquals(p.type() + "-exact", exact.name());
            assertEquals(BoundKind.PAIR_PROFILE, exact.kind());
            for (PrivacyBound b : bounds) {
                if (b.kind() != BoundKind.UPPER_BOUND) {
                    continue;
                }
                for (double delta : new double[] {1e-2, 1e-4, 1e-6, 1e-9}) {
                    double e = b.epsilon(delta);
                    assertTrue(e >= exact.epsilon(delta) * (1 - 1e-9), p.describe() + ": " + b.name() + " = " + e
                            + " below the exact " + exact.epsilon(delta) + " at delta " + delta);
                    compared++;
                }
            }
        }
        assertEquals(56, compared, "three certified bounds of plain shuffling, two of dss-SGD, four deltas");
    }

    /**
     * Where the readings without constants fail: at eps0 = 2 and 4 (m = 2000, q = 0.05) Lemma 1 "with constant 1"
     * claims less than the exact curve of the simulated pair, which no valid bound may; the two planted accounting bugs
     * claim less at every setting here; the seed's proof, instantiated, does not.
     */
    @Test
    void constantOneReadingsAndPlantedBugsFallBelowTheExactCurve() {
        for (double eps0 : new double[] {2, 4}) {
            ShuffleParameters p = parameters("type", "dss-sgd", "clients", 2000, "q", 0.05, "eps0", eps0);
            double exact = bound(p, "dss-sgd-exact").epsilon(1e-6);
            for (String wrong : new String[] {"dss-sgd-lemma1-constant-1", "dss-sgd-lemma1-constant-1-as-printed",
                "planted-shuffling-over-all-clients", "planted-double-participation-amplification"}) {
                PrivacyBound b = bound(p, wrong);
                assertEquals(BoundKind.KNOWN_WRONG, b.kind());
                assertTrue(b.epsilon(1e-6) < exact, wrong + " at eps0 " + eps0 + ": " + b.epsilon(1e-6) + " vs "
                        + exact);
            }
            double instantiated = bound(p, "dss-sgd-thm1-instantiated").epsilon(1e-6);
            assertTrue(instantiated > 5 * exact, "instantiated " + instantiated + " vs exact " + exact);
        }
    }

    /** Below T P(K outside [qm/2, 3qm/2]) the seed's construction certifies nothing: epsilon is +inf, not a number. */
    @Test
    void theInstantiatedBoundIsVacuousBelowTheWindowTail() {
        ShuffleParameters p = parameters("type", "dss-sgd", "clients", 100, "q", 0.1, "eps0", 1.0, "rounds", 3);
        double tail = ShuffleBounds.windowTail(p);
        assertTrue(tail > 1e-3 && tail < 0.1, "tail " + tail);
        PrivacyBound b = bound(p, "dss-sgd-thm1-instantiated");
        assertEquals(Double.POSITIVE_INFINITY, b.epsilon(2.9 * tail));
        assertTrue(Double.isFinite(b.epsilon(Math.min(0.99, 3.5 * tail))));
        List<String> notes = new ShuffledProtocol(new Parameters("mechanism.", Map.of()), p).notes();
        assertTrue(notes.stream().anyMatch(n -> n.contains("certifies nothing")), notes.toString());
    }

    /**
     * The baseline without the shuffler, for plain shuffling, is randomized response itself: (e^eps0 - e^eps)/(1 +
     * e^eps0) below eps0.
     */
    @Test
    void theBaselineWithoutTheShufflerIsRandomizedResponse() {
        PrivacyBound b = bound(parameters("type", "shuffled-randomizer", "clients", 50, "eps0", 1.5), "ldp-baseline");
        for (double eps : new double[] {0, 0.7, 1.4}) {
            double expected = (Math.exp(1.5) - Math.exp(eps)) / (1 + Math.exp(1.5));
            assertEquals(expected, b.delta(eps), 2e-10 * expected, "rounded up by at most 1e-10 relative");
            assertTrue(b.delta(eps) >= expected);
        }
        assertEquals(0.0, b.delta(1.5));
    }

    /** Calibrating the exact curve gives the largest eps0 whose exact epsilon meets the target. */
    @Test
    void eps0IsCalibratedFromAbove() {
        ShuffleParameters p = parameters("type", "shuffled-randomizer", "clients", 500, "eps0", 1.0);
        BoundFamily exact = new ShuffledProtocol(new Parameters("mechanism.", Map.of()), p).boundFamilies().get(0);
        assertEquals("eps0", exact.parameter().name());
        double eps0 = exact.calibrate(0.5, 1e-6);
        assertTrue(exact.at().apply(eps0).epsilon(1e-6) <= 0.5);
        assertTrue(exact.at().apply(eps0 * 1.001).epsilon(1e-6) > 0.5, "not the largest: " + eps0);
    }

    /** Formula sheet §8: the EFMRTT19 form and the Theorem 5.1 candidate of seed 004 at eps0 = 0.5, n = 10^4. */
    @Test
    void seed004ShufflingStatementsMatchTheFormulaSheet() {
        ShuffleParameters p = parameters("type", "shuffled-randomizer", "clients", 10_000, "eps0", 0.5);
        assertEquals(0.22301533133099027, ShuffleBounds.ShufflingStatement.EFMRTT19.perRound(p, 1e-6), 1e-15);
        assertEquals(0.0439, ShuffleBounds.ShufflingStatement.THM_5_1.perRound(p, 1e-6), 5e-5);
        assertTrue(new ShuffledProtocol(new Parameters("mechanism.", Map.of()), p).bounds().stream()
                .noneMatch(b -> b.name().equals("efmrtt19-thm7")), "quoted for eps0 < 1/2 only");
        ShuffleParameters small = parameters("type", "shuffled-randomizer", "clients", 1000, "eps0", 2.0);
        assertTrue(bound(small, "planted-shuffling-as-subsampling").epsilon(1e-6)
                < 0.1 * bound(small, "shuffled-randomizer-exact").epsilon(1e-6));
    }

    /**
     * Seed 004's "helper" dataset (one other input equal to the target's) is never worse than the canonical one for
     * plain shuffling, which is why shuffled-randomizer does not offer it.
     */
    @Test
    void aHelperIsNeverWorseForPlainShuffling() {
        for (int n : new int[] {3, 5, 10, 20, 50, 200}) {
            for (double eps0 : new double[] {0.5, 2, 4}) {
                double[] point1 = new double[n + 1];
                double[] point2 = new double[n + 1];
                double[] point0 = new double[n + 1];
                java.util.Arrays.fill(point0, Double.NEGATIVE_INFINITY);
                java.util.Arrays.fill(point1, Double.NEGATIVE_INFINITY);
                java.util.Arrays.fill(point2, Double.NEGATIVE_INFINITY);
                point0[0] = 0;
                point1[1] = 0;
                point2[2] = 0;
                var canonical = new ExchangeableReleases(n, point1, point0).randomizedResponse(eps0);
                var helper = new ExchangeableReleases(n, point2, point1).randomizedResponse(eps0);
                double c = new io.dpaudit.core.bounds.DiscretePairProfile("c", "c", BoundKind.PAIR_PROFILE,
                        canonical[0], canonical[1], 0).epsilon(1e-6);
                double h = new io.dpaudit.core.bounds.DiscretePairProfile("h", "h", BoundKind.PAIR_PROFILE,
                        helper[0], helper[1], 0).epsilon(1e-6);
                assertTrue(h <= c * (1 + 1e-9), "n = " + n + ", eps0 = " + eps0 + ": helper " + h + " > " + c);
            }
        }
    }
}

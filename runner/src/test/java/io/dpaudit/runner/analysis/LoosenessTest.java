package io.dpaudit.runner.analysis;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import org.junit.jupiter.api.Test;

/** What the reports call "below the exact curve". */
class LoosenessTest {
    /**
     * Seed 000's Theorem 4.1 against the exact profile of its aligned configuration at δ = 1e-4: the two agree to 16
     * digits, and the ratio 0.9999999999999984 used to be printed "1.000 (below the exact curve)".
     */
    @Test
    void roundingIsNotBelowButAPartInAMillionIs() {
        assertFalse(Looseness.below(0.9999999999999984));
        assertFalse(Looseness.below(1));
        assertFalse(Looseness.below(1 - 0.5e-6));
        assertTrue(Looseness.below(1 - 2e-6));
        assertTrue(Looseness.below(0.5777));
        assertFalse(Looseness.below(Double.NaN), "no exact epsilon (0): nothing to compare");
        assertFalse(Looseness.below(Double.POSITIVE_INFINITY));
    }

    @Test
    void theSentenceNamesOnlyClaimsBelowTheCurve() {
        Looseness l = new Looseness("exact(orthogonal)", List.of(), List.of(), List.of(
                new Looseness.ClaimRow("thm", 1e-6, 0.015, 0.02597, Double.NaN, 0.015 / 0.02597, true),
                new Looseness.ClaimRow("equal", 1e-6, 0.02597, 0.02597, Double.NaN, 1 - 1e-15, false),
                new Looseness.ClaimRow("loose", 1e-6, 0.1, 0.02597, Double.NaN, 0.1 / 0.02597, false),
                new Looseness.ClaimRow("within an accountant's rounding", 1e-6, 0.95, 1, Double.NaN, 0.95, true),
                new Looseness.ClaimRow("within the curve's bracket", 1e-6, 0.5, 1, 0.4, 0.5, false)));
        assertEquals("Below the exact curve of the simulated pair (`exact(orthogonal)`, computed, not sampled) by more "
                + "than 10%: thm (ε = 0.01500 where the pair needs 0.02597 at δ = 1.000e-06). Such a claim is false on "
                + "this pair whatever the verdict (the margin exceeds the curve's numerical error; see How loose).",
                Looseness.claimsBelow(l, true));
        assertEquals("", Looseness.claimsBelow(new Looseness("x", List.of(), List.of(), List.of(l.claims().get(1))),
                true));
        assertEquals("", Looseness.claimsBelow(null, false));
    }
}

package io.dpaudit.core.audit;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.dpaudit.core.estimate.DeltaLowerBound;
import io.dpaudit.core.estimate.EpsilonLowerBound;
import org.junit.jupiter.api.Test;

/** When a claim's two statements disagree: the verdict's δ test and the separate ε lower bound at the claim's δ. */
class ClaimResultTest {
    private static ClaimResult result(double claimEpsilon, Verdict verdict, double epsilonLowerBound) {
        Claim claim = new Claim("c", claimEpsilon, 1e-5, "stated");
        return new ClaimResult(claim, verdict, new DeltaLowerBound(claimEpsilon, 0.0, null),
                new EpsilonLowerBound(1e-5, epsilonLowerBound, null), new ClaimPower(1e-3, Double.POSITIVE_INFINITY, 0.9), null,
                verdict == Verdict.INCONCLUSIVE ? java.util.Set.of() : java.util.Set.of(Evidence.BLACK_BOX), null);
    }

    @Test
    void contestedWhenNotViolatedAndTheEpsilonBoundExceedsTheClaim() {
        assertTrue(result(0.1, Verdict.CONSISTENT, 0.1618).epsilonBoundAboveClaim());
        assertTrue(result(0.1, Verdict.INCONCLUSIVE, 0.1000001).epsilonBoundAboveClaim());
        assertEquals(1.618, result(0.1, Verdict.CONSISTENT, 0.1618).tightness(), 1e-12);
    }

    @Test
    void notContestedAtOrBelowTheClaimOrWhenViolated() {
        assertFalse(result(0.1, Verdict.CONSISTENT, 0.1).epsilonBoundAboveClaim(), "equal is not above");
        assertFalse(result(0.1, Verdict.CONSISTENT, 0.05).epsilonBoundAboveClaim());
        assertFalse(result(0.1, Verdict.VIOLATED, 0.5).epsilonBoundAboveClaim(), "a violated claim is not contested");
        assertFalse(result(1e300, Verdict.CONSISTENT, 1e300).epsilonBoundAboveClaim(), "ε = 1e300 claimed and bounded");
        assertTrue(result(0.0, Verdict.CONSISTENT, 1e-9).epsilonBoundAboveClaim(), "a claimed ε of 0");
    }
}

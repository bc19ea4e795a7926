package io.dpaudit.core.audit;

import static org.junit.jupiter.api.Assertions.assertEquals;

import io.dpaudit.core.estimate.profile.PrivacyLossEstimate;
import java.util.List;
import org.junit.jupiter.api.Test;

/** The estimate's verdict on a claim: a claim inside an interval too wide to judge is not called tight. */
class ClaimEstimateTest {
    /** An estimate with one grid point, δ(1) in [lower, upper]. */
    private static PrivacyLossEstimate at(double lower, double upper) {
        return new PrivacyLossEstimate("importance", "test", 0.95, 1000, "test", 0,
                List.of(new PrivacyLossEstimate.DeltaInterval(1.0, lower, upper, 0.5 * (lower + upper))),
                new double[] {1000}, new double[] {1000});
    }

    private static EstimateVerdict judge(double claimedDelta, double lower, double upper) {
        return ClaimEstimate.judge(new Claim("c", 1.0, claimedDelta, "test"), at(lower, upper)).verdict();
    }

    @Test
    void verdictsFollowTheIntervalAndItsWidth() {
        assertEquals(EstimateVerdict.VIOLATED, judge(1e-10, 2e-10, 3e-10));
        assertEquals(EstimateVerdict.LOOSE, judge(1e-9, 2e-10, 3e-10));
        assertEquals(EstimateVerdict.TIGHT, judge(2.5e-10, 2e-10, 3e-10));
        assertEquals(EstimateVerdict.TIGHT, judge(1e-9, 2e-10, 2e-9)); // ends exactly 10 times apart
        // Nothing seen (lower end 0), or ends far apart: every claim inside would otherwise be "tight".
        assertEquals(EstimateVerdict.INCONCLUSIVE, judge(1e-10, 0, 1));
        assertEquals(EstimateVerdict.INCONCLUSIVE, judge(1e-10, 1e-12, 1e-9));
        // The estimate's verdict is its own: what the attack found is judged beside it (ClaimJudgement).
        assertEquals(EstimateVerdict.INCONCLUSIVE, judge(1e-10, 0, 1));
    }

    /**
     * A lower-bound pair (the shuffle's) bounds the mechanism's curve from below only: it still refutes a claim below
     * its interval and calls one inside it tight (if the claim holds, the truth lies between the two), but a claim
     * above it is not shown loose.
     */
    @Test
    void aLowerBoundPairRefutesButNeverShowsAClaimLoose() {
        Claim above = new Claim("c", 1.0, 1e-9, "test");
        assertEquals(EstimateVerdict.LOOSE, ClaimEstimate.judge(above, at(2e-10, 3e-10), false).verdict());
        assertEquals(EstimateVerdict.INCONCLUSIVE, ClaimEstimate.judge(above, at(2e-10, 3e-10), true).verdict());
        assertEquals(EstimateVerdict.VIOLATED, ClaimEstimate.judge(new Claim("c", 1.0, 1e-10, "test"),
                at(2e-10, 3e-10), true).verdict());
        assertEquals(EstimateVerdict.TIGHT, ClaimEstimate.judge(new Claim("c", 1.0, 2.5e-10, "test"),
                at(2e-10, 3e-10), true).verdict());
    }

    /** An estimate with δ(1) in [lower, upper] and ε(1e-5) in [epsLower, epsUpper]. */
    private static ClaimEstimate view(double lower, double upper, double epsLower, double epsUpper) {
        return new ClaimEstimate(EstimateVerdict.TIGHT, new PrivacyLossEstimate.DeltaInterval(1.0, lower, upper,
                lower), new PrivacyLossEstimate.EpsilonInterval(1e-5, epsLower, epsUpper));
    }

    /** The estimate powers a claim when it proves the pair needs at most 1.5 times the claimed epsilon. */
    @Test
    void theEstimatePowersAClaimWhenItsUpperEpsilonIsWithinTheFactor() {
        Claim claim = new Claim("c", 1.0, 1e-5, "test");
        org.junit.jupiter.api.Assertions.assertTrue(view(1e-6, 2e-5, 0.9, 1.2).powers(claim));
        org.junit.jupiter.api.Assertions.assertTrue(view(1e-6, 2e-5, 0.9, 1.5).powers(claim)); // at the factor
        org.junit.jupiter.api.Assertions.assertFalse(view(1e-6, 2e-5, 0.9, 1.51).powers(claim));
        org.junit.jupiter.api.Assertions.assertFalse(view(0, 1, 0, Double.POSITIVE_INFINITY).powers(claim));
        // epsilon 0: in delta, ten times the claim
        Claim zero = new Claim("z", 0.0, 1e-5, "test");
        org.junit.jupiter.api.Assertions.assertTrue(view(0, 9e-5, 0, 1).powers(zero));
        org.junit.jupiter.api.Assertions.assertFalse(view(0, 1e-4, 0, 1).powers(zero));
    }
}

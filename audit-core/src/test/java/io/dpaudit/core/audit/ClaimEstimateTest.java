package io.dpaudit.core.audit;

import static org.junit.jupiter.api.Assertions.assertEquals;

import io.dpaudit.core.estimate.PrivacyLossEstimate;
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
        return ClaimEstimate.judge(new Claim("c", 1.0, claimedDelta, "test"), Verdict.CONSISTENT, at(lower, upper))
                .verdict();
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
        assertEquals(EstimateVerdict.VIOLATED, ClaimEstimate.judge(new Claim("c", 1.0, 1e-10, "test"),
                Verdict.VIOLATED, at(0, 1)).verdict());
    }
}

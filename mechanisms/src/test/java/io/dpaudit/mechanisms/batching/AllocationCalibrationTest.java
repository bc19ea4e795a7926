package io.dpaudit.mechanisms.batching;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.dpaudit.core.bounds.BoundFamily;
import io.dpaudit.core.bounds.PrivacyBound;
import io.dpaudit.core.model.AuditableMechanism;
import io.dpaudit.core.model.Parameters;
import io.dpaudit.mechanisms.MechanismCatalog;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

/**
 * {@code dp-audit calibrate} on balls-and-bins' PLD bracket, at T = 1 step, where balls-and-bins is the Gaussian
 * mechanism and the exact answer is known (formula sheet §1.3: sigma(1, 1e-5) = 3.7306316348159418): the upper end is
 * a calibratable (and costly) family; its calibrated sigma meets the target, is the boundary to the search's
 * tolerance, is never below the exact answer (an upper end that certified less noise than the truth needs would be
 * unsound) and is within the bracket's resolution above it; just below it the lower end (a proven lower bound on the
 * exact curve) already misses the target. Deterministic: no randomness. In verify's integration tier (about 12 s: each
 * evaluation computes the lattices anew).
 */
@Tag("integration")
class AllocationCalibrationTest {
    private static final double EPSILON = 1.0;
    private static final double DELTA = 1e-5;
    /** The Gaussian mechanism's smallest sigma for (1, 1e-5) (formula sheet §1.3; mpmath and dp_accounting). */
    private static final double EXACT_SIGMA = 3.7306316348159418;

    private static AuditableMechanism ballsAndBins(int steps) {
        Map<String, Object> v = new LinkedHashMap<>();
        v.put("type", "balls-and-bins");
        v.put("steps", (double) steps);
        v.put("sigma", 1.0);
        return MechanismCatalog.parse(new Parameters("mechanism.", v));
    }

    private static BoundFamily family(AuditableMechanism m, String name) {
        return m.boundFamilies().stream().filter(f -> f.name().equals(name)).findFirst().orElseThrow();
    }

    /**
     * At one step the max test is the Gaussian pair's exact curve, so the noise it calibrates to — the least any
     * correct accounting may use — is the Gaussian mechanism's, from below (a lower bound on δ gives a smaller σ).
     */
    @Test
    void theMaxTestCalibratesToTheNoiseFloor() {
        BoundFamily max = family(ballsAndBins(1), AllocationMaxTestBound.BALLS_AND_BINS);
        assertTrue(max.costly(), "a report does not calibrate it unasked");
        double sigma = max.calibrate(EPSILON, DELTA);
        assertTrue(sigma <= EXACT_SIGMA * (1 + 1e-9) && sigma >= EXACT_SIGMA * (1 - 1e-4), "sigma " + sigma
                + " against the Gaussian mechanism's " + EXACT_SIGMA);
    }

    @Test
    void theBracketsUpperEndIsCalibratedToWithinItsResolution() {
        AuditableMechanism m = ballsAndBins(1);
        List<String> names = m.bounds().stream().map(PrivacyBound::name).toList();
        assertEquals(List.of("poisson-pld", "deterministic", AllocationMaxTestBound.BALLS_AND_BINS, AllocationPld.UPPER,
                AllocationPld.LOWER), names, "the upper end moved from the other bounds to the families, in the same "
                + "place (after the max test's lower bound, also a family)");
        BoundFamily upper = family(m, AllocationPld.UPPER);
        assertTrue(upper.costly(), "a report does not calibrate it unasked");
        assertFalse(family(m, "deterministic").costly());

        double sigma = upper.calibrate(EPSILON, DELTA);
        PrivacyBound at = upper.at().apply(sigma);
        assertTrue(at.delta(EPSILON) <= DELTA && at.epsilon(DELTA) <= EPSILON,
                "sigma " + sigma + " meets the target under the upper end");
        double below = sigma * (1 - 1e-6);
        assertTrue(upper.at().apply(below).delta(EPSILON) > DELTA, "the boundary: sigma " + below + " does not");
        // Sound: not below the Gaussian mechanism's exact answer. Tight: the bracket's ends are about 0.4% apart in
        // the likelihood ratio, so within 1% of it, and at 1% less noise the lower end misses the target.
        assertTrue(sigma >= EXACT_SIGMA && sigma <= EXACT_SIGMA * 1.01, sigma + " against the exact " + EXACT_SIGMA);
        AllocationPld less = new AllocationPld(new BatchingParameters(BatchingParameters.Sampler.BALLS_AND_BINS, 1, 1,
                sigma * 0.99, 1, false));
        assertTrue(less.lower().delta(EPSILON) > DELTA, "the exact sigma is within 1% of " + sigma);
    }
}

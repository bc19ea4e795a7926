package io.dpaudit.core.bounds;

import static io.dpaudit.core.testing.ReferenceData.assertRelative;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.dpaudit.core.InvalidInputException;
import org.junit.jupiter.api.Test;

class SigmaCalibrationTest {
    /** Formula sheet §1.3: mpmath and dp_accounting calibrations of the analytic Gaussian mechanism. */
    @Test
    void gaussianCalibrationMatchesReferenceAndIsSafe() {
        double[][] rows = {{1, 1e-5, 3.7306316348159418322}, {0.1, 1e-6, 36.304690426195194},
            {8, 1e-5, 0.6002290721989517}, {0.05, 0.3, 1.2246377577568426}};
        for (double[] r : rows) {
            double sigma = SigmaCalibration.smallestSigma(s -> GaussianBound.of(s, 1, 1), r[0], r[1]);
            assertRelative(r[2], sigma, 1e-9, "sigma(" + r[0] + ", " + r[1] + ")");
            assertTrue(sigma >= r[2] * (1 - 1e-14), "rounded up");
            assertTrue(GaussianBound.of(sigma, 1, 1).delta(r[0]) <= r[1], "meets the target");
        }
    }

    @Test
    void unreachableTargetsGiveAClearError() {
        // Subsampling at q = 0.5 caps delta(eps) by 0.5 for any sigma; at eps = 0 a sigma must reach
        // delta <= 1e-300, which no sigma below 1e7 does.
        InvalidInputException e = assertThrows(InvalidInputException.class, () -> SigmaCalibration.smallestSigma(
                s -> new PoissonSubsampledGaussianBound(0.5, 1 / s), 0.0, 1e-300));
        assertTrue(e.getMessage().contains("no sigma"), e.getMessage());
    }
}

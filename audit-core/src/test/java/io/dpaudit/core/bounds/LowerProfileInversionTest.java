package io.dpaudit.core.bounds;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.junit.jupiter.api.Test;

/**
 * {@link PrivacyBound#epsilonFromLowerProfile}: the ε of a lower-bound profile is rounded down (the profile still
 * exceeds the target there) and stays finite where the ε lies beyond the upper bounds' search limit of 1e4.
 */
class LowerProfileInversionTest {

    /** A lower bound whose profile is the Gaussian's of {@code mu}. */
    private static PrivacyBound gaussianLower(double mu) {
        return new PrivacyBound() {
            @Override
            public String name() {
                return "test-lower";
            }

            @Override
            public String source() {
                return "the Gaussian profile of mu = " + mu;
            }

            @Override
            public BoundKind kind() {
                return BoundKind.LOWER_BOUND;
            }

            @Override
            public double delta(double epsilon) {
                return GaussianBound.exactDelta(epsilon, mu);
            }
        };
    }

    @Test
    void roundsDownToAnEpsilonWhereTheProfileStillExceedsTheTarget() {
        for (double mu : new double[] {0.1, 1, 10, 100, 400}) {
            for (double delta : new double[] {1e-3, 1e-6, 1e-12}) {
                PrivacyBound lower = gaussianLower(mu);
                double up = GaussianBound.of(1 / mu, 1, 1).epsilon(delta);
                double e = PrivacyBound.epsilonFromLowerProfile(lower, delta);
                String at = "mu " + mu + ", delta " + delta;
                assertTrue(e <= up, at + ": " + e + " > " + up);
                assertEquals(up, e, 1e-9 * up, at);
                assertTrue(e == 0 || lower.delta(e) >= delta, at + ": the profile at " + e + " is below the target");
            }
        }
    }

    @Test
    void beyondTheUpperBoundsSearchLimitTheAnswerStaysFinite() {
        // mu = 400: eps(1e-6) is about 8.2e4, beyond the upper bounds' search limit: their inversion gives inf.
        PrivacyBound lower = gaussianLower(400);
        assertEquals(Double.POSITIVE_INFINITY, PrivacyBound.epsilonFromProfile(lower, 1e-6));
        double e = PrivacyBound.epsilonFromLowerProfile(lower, 1e-6);
        assertTrue(e > PrivacyBound.EPSILON_SEARCH_LIMIT && Double.isFinite(e), "eps " + e);
        // A profile that never falls below the target: the answer is the search's last point, finite.
        PrivacyBound never = new PrivacyBound() {
            @Override
            public String name() {
                return "never";
            }

            @Override
            public String source() {
                return "constant 0.5";
            }

            @Override
            public double delta(double epsilon) {
                return 0.5;
            }
        };
        double last = PrivacyBound.epsilonFromLowerProfile(never, 1e-6);
        assertTrue(last >= PrivacyBound.LOWER_EPSILON_SEARCH_LIMIT && Double.isFinite(last), "eps " + last);
    }
}

package io.dpaudit.core.bounds;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.junit.jupiter.api.Test;

/**
 * {@link PrivacyBound#epsilonFromLowerProfile}: the ε of a lower-bound profile is rounded down (the profile still
 * exceeds the target there) and stays finite where the ε lies beyond the upper bounds' search limit of 1e4. And the
 * default inversion never answers ε = inf for the exact profile of a pair beyond its search: it refuses.
 */
class LowerProfileInversionTest {

    /** A lower bound whose profile is the Gaussian's of {@code mu}. */
    private static PrivacyBound gaussianLower(double mu) {
        return gaussian(mu, BoundKind.LOWER_BOUND);
    }

    /** A bound of the given kind whose profile is the Gaussian's of {@code mu}. */
    private static PrivacyBound gaussian(double mu, BoundKind kind) {
        return curve(kind, epsilon -> GaussianBound.exactDelta(epsilon, mu));
    }

    private static PrivacyBound curve(BoundKind kind, java.util.function.DoubleUnaryOperator delta) {
        return new NamedBound("test", "a test curve", kind) {
            @Override
            public double delta(double epsilon) {
                return delta.applyAsDouble(epsilon);
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
        PrivacyBound never = curve(BoundKind.LOWER_BOUND, epsilon -> 0.5);
        double last = PrivacyBound.epsilonFromLowerProfile(never, 1e-6);
        assertTrue(last >= PrivacyBound.LOWER_EPSILON_SEARCH_LIMIT && Double.isFinite(last), "eps " + last);
    }

    @Test
    void beyondItsSearchThePairProfileRefusesWhereAnUpperBoundAnswersInfinity() {
        // mu = 130: eps(1e-6) is about 9050, above the default search's last point 8192.
        assertEquals(Double.POSITIVE_INFINITY, PrivacyBound.epsilonFromProfile(gaussian(130,
                BoundKind.UPPER_BOUND), 1e-6));
        io.dpaudit.core.bounds.AccountingLimitException e = org.junit.jupiter.api.Assertions.assertThrows(
                io.dpaudit.core.bounds.AccountingLimitException.class,
                () -> PrivacyBound.epsilonFromProfile(gaussian(130, BoundKind.PAIR_PROFILE), 1e-6));
        assertTrue(e.getMessage().startsWith("delta = 1.0E-6: the exact profile of the pair is above it at every "
                + "epsilon up to 8192 (delta there 0.9"), e.getMessage());
        // Within the search both answer the same.
        assertEquals(PrivacyBound.epsilonFromProfile(gaussian(100, BoundKind.UPPER_BOUND), 1e-6),
                PrivacyBound.epsilonFromProfile(gaussian(100, BoundKind.PAIR_PROFILE), 1e-6));
    }
}

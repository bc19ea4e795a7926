package io.dpaudit.core.bounds;

import static io.dpaudit.core.testing.ReferenceData.assertRelative;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.dpaudit.core.InvalidInputException;
import org.junit.jupiter.api.Test;

class ParameterCalibrationTest {
    /** Formula sheet §1.3: mpmath and dp_accounting calibrations of the analytic Gaussian mechanism. */
    @Test
    void gaussianCalibrationMatchesReferenceAndIsSafe() {
        double[][] rows = {{1, 1e-5, 3.7306316348159418322}, {0.1, 1e-6, 36.304690426195194},
            {8, 1e-5, 0.6002290721989517}, {0.05, 0.3, 1.2246377577568426}};
        for (double[] r : rows) {
            double sigma = ParameterCalibration.monotone(CalibrationParameter.SIGMA, s -> GaussianBound.of(s, 1, 1),
                    r[0], r[1]);
            assertRelative(r[2], sigma, 1e-9, "sigma(" + r[0] + ", " + r[1] + ")");
            assertTrue(sigma >= r[2] * (1 - 1e-14), "rounded up");
            assertTrue(GaussianBound.of(sigma, 1, 1).delta(r[0]) <= r[1], "meets the target");
        }
    }

    /** A hint, good or bad, and a guide only change where the search looks, not the answer (to 1e-9 relative). */
    @Test
    void hintsAndGuidesDoNotChangeTheAnswer() {
        java.util.function.DoubleFunction<PrivacyBound> gaussian = s -> GaussianBound.of(s, 1, 1);
        double plain = ParameterCalibration.monotone(CalibrationParameter.SIGMA, gaussian, 1, 1e-5);
        for (double hint : new double[] {3.7, 1.0, 11.0, 0.2, Double.NaN, 1e9}) {
            assertRelative(plain, ParameterCalibration.fromHint(CalibrationParameter.SIGMA, gaussian, hint, 1, 1e-5),
                    1e-9, "hint " + hint);
            assertRelative(plain, ParameterCalibration.guided(CalibrationParameter.SIGMA, gaussian,
                    s -> GaussianBound.of(s * 1.001, 1, 1), hint, 1, 1e-5), 1e-9, "guided from " + hint);
        }
    }

    @Test
    void unreachableTargetsGiveAClearError() {
        // Subsampling at q = 0.5 caps delta(eps) by 0.5 for any sigma; at eps = 0 a sigma must reach
        // delta <= 1e-300, which no sigma below 1e7 does.
        InvalidInputException e = assertThrows(InvalidInputException.class, () -> ParameterCalibration.monotone(
                CalibrationParameter.SIGMA, s -> new PoissonSubsampledGaussianBound(0.5, 1 / s), 0.0, 1e-300));
        assertTrue(e.getMessage().contains("no sigma"), e.getMessage());
    }

    /**
     * A bound computed only from some sigma up ({@link CalibrationParameter#withMin}): a boundary just above the
     * smallest searched value is found (without a hint the search halves from 1 and must still try the end of the
     * range: sigma(1, 1e-5) = 3.7306 searched from 2.5, and sigma(8, 1e-5) = 0.6002 from 0.55, between 0.5 and the
     * end), and
     * a target every computed value meets says that the least is only where the computation stops.
     */
    @Test
    void aRangeThatStopsAboveTheSmallestSigmaIsSearchedToItsEnd() {
        java.util.function.DoubleFunction<PrivacyBound> gaussian = s -> GaussianBound.of(s, 1, 1);
        assertRelative(0.6002290721989517, ParameterCalibration.monotone(CalibrationParameter.SIGMA.withMin(0.55),
                gaussian, 8, 1e-5), 1e-9, "sigma(8, 1e-5) from 0.55");
        assertRelative(3.7306316348159418322, ParameterCalibration.monotone(CalibrationParameter.SIGMA.withMin(2.5),
                gaussian, 1, 1e-5), 1e-9, "sigma(1, 1e-5) from 2.5");
        InvalidInputException e = assertThrows(InvalidInputException.class, () -> ParameterCalibration.monotone(
                CalibrationParameter.SIGMA.withMin(0.7), gaussian, 8, 1e-5));
        assertTrue(e.getMessage().contains("every sigma >= 0.7 meets this target under this bound (the least it is "
                + "computed for: the smallest sigma lies below)"), e.getMessage());
    }

    /**
     * A parameter whose larger values are less private (a local randomizer's eps0): the calibration returns the
     * largest value meeting the target, rounded down. Pure eps0-DP has the profile of randomized response,
     * {@code delta(eps) = (e^eps0 - e^eps)/(1 + e^eps0)} for {@code eps < eps0}, whose boundary is
     * {@code eps0 = log((e^eps + delta)/(1 - delta))} in closed form.
     */
    @Test
    void parametersThatCostPrivacyAreCalibratedFromAbove() {
        CalibrationParameter eps0 = new CalibrationParameter("eps0", "local privacy", false, 1e-6, 50);
        for (double[] r : new double[][] {{0.5, 1e-3}, {1, 1e-6}, {3, 0.2}}) {
            double expected = Math.log((Math.exp(r[0]) + r[1]) / (1 - r[1]));
            double got = ParameterCalibration.monotone(eps0, x -> pureProfile(x), r[0], r[1]);
            assertRelative(expected, got, 1e-9, "eps0 for " + r[0] + ", " + r[1]);
            assertTrue(got <= expected * (1 + 1e-14), "rounded down");
            assertTrue(pureProfile(got).delta(r[0]) <= r[1]);
        }
        InvalidInputException e = assertThrows(InvalidInputException.class,
                () -> ParameterCalibration.monotone(eps0, x -> pureProfile(x), 100, 1e-3));
        assertTrue(e.getMessage().contains("every eps0 <= 50"), e.getMessage());
        double scanned = ParameterCalibration.byScan(eps0, x -> pureProfile(x), 1, 1e-6);
        assertEquals(Math.log((Math.exp(1) + 1e-6) / (1 - 1e-6)), scanned, 1e-9);
        assertTrue(pureProfile(scanned).delta(1) <= 1e-6);
    }

    private static PrivacyBound pureProfile(double eps0) {
        return new PrivacyBound() {
            @Override
            public String name() {
                return "pure";
            }

            @Override
            public String source() {
                return "test";
            }

            @Override
            public double delta(double epsilon) {
                return epsilon >= eps0 ? 0.0 : (Math.exp(eps0) - Math.exp(epsilon)) / (1 + Math.exp(eps0));
            }
        };
    }
}

package io.dpaudit.core.bounds;

import java.util.function.DoubleFunction;

/**
 * An analytic bound as a function of the mechanism's calibration parameter, all other parameters fixed: what a
 * calibration inverts and what a report evaluates at the mechanism's own value.
 *
 * @param name the bound's identifier (same as {@link PrivacyBound#name()} of its members)
 * @param source the bound's source
 * @param parameter the parameter varied ({@code sigma}, {@code eps0}, ...)
 * @param current the mechanism's own value of the parameter
 * @param at {@code value -> bound}
 * @param calibrator the bound's own calibration, or {@code null} to invert {@code at} numerically
 *     ({@link ParameterCalibration#monotone}, which assumes that {@code delta(epsilon)} is monotone in the parameter;
 *     bounds whose side conditions fail at one end of the range, such as closed-form theorems, bring their own)
 * @param costly whether one evaluation at another value takes seconds (a lattice or a long composition computed
 *     anew): such a family is calibrated on request ({@code dp-audit calibrate}), not unasked for a report's noise
 *     for a loose claim, where its several evaluations would multiply the run's time
 */
public record BoundFamily(String name, String source, CalibrationParameter parameter, double current,
        DoubleFunction<PrivacyBound> at, Calibrator calibrator, boolean costly) {

    /** A family calibrated by monotone root finding on {@code at}. */
    public BoundFamily(String name, String source, CalibrationParameter parameter, double current,
            DoubleFunction<PrivacyBound> at) {
        this(name, source, parameter, current, at, null, false);
    }

    /** A family with its own calibration (or {@code null}), not costly. */
    public BoundFamily(String name, String source, CalibrationParameter parameter, double current,
            DoubleFunction<PrivacyBound> at, Calibrator calibrator) {
        this(name, source, parameter, current, at, calibrator, false);
    }

    /** Calibration of one family: the boundary value of its parameter meeting {@code (epsilon, delta)}. */
    @FunctionalInterface
    public interface Calibrator {
        /**
         * @throws io.dpaudit.core.InvalidInputException when no value meets the target
         */
        double calibrate(double epsilon, double delta);
    }

    /** The bound at the mechanism's own value of the parameter. */
    public PrivacyBound atCurrent() {
        return at.apply(current);
    }

    /** The calibrated value of the parameter for a target. */
    public double calibrate(double epsilon, double delta) {
        return calibrator != null ? calibrator.calibrate(epsilon, delta)
                : ParameterCalibration.monotone(parameter, at, epsilon, delta);
    }
}

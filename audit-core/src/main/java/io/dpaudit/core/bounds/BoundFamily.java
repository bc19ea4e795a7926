package io.dpaudit.core.bounds;

import java.util.function.DoubleFunction;

/**
 * An analytic bound as a function of the noise standard deviation, all other parameters fixed: what calibration
 * inverts and what a report evaluates at the mechanism's own sigma.
 *
 * @param name the bound's identifier (same as {@link PrivacyBound#name()} of its members)
 * @param source the bound's source
 * @param atSigma {@code sigma -> bound}
 * @param calibrator the bound's own calibration, or {@code null} to invert {@code atSigma} numerically (which assumes
 *     that {@code delta(epsilon)} decreases in sigma; bounds whose side conditions fail for large sigma, such as
 *     closed-form theorems, bring their own)
 */
public record BoundFamily(String name, String source, DoubleFunction<PrivacyBound> atSigma, Calibrator calibrator) {
    /** A family calibrated by monotone root finding on {@code atSigma}. */
    public BoundFamily(String name, String source, DoubleFunction<PrivacyBound> atSigma) {
        this(name, source, atSigma, null);
    }

    /** Calibration of one family: the smallest sigma meeting {@code (epsilon, delta)}. */
    @FunctionalInterface
    public interface Calibrator {
        /**
         * @throws io.dpaudit.core.InvalidInputException when no sigma meets the target
         */
        double smallestSigma(double epsilon, double delta);
    }

    /** The calibrated sigma for a target (see {@link SigmaCalibration}). */
    public double calibrate(double epsilon, double delta) {
        return calibrator != null ? calibrator.smallestSigma(epsilon, delta)
                : SigmaCalibration.smallestSigma(atSigma, epsilon, delta);
    }
}

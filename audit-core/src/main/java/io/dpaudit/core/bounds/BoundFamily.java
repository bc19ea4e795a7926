package io.dpaudit.core.bounds;

import java.util.function.DoubleFunction;

/**
 * An analytic bound as a function of the noise standard deviation, all other parameters fixed: what calibration
 * inverts and what a report evaluates at the mechanism's own sigma.
 *
 * @param name the bound's identifier (same as {@link PrivacyBound#name()} of its members)
 * @param source the bound's source
 * @param atSigma {@code sigma -> bound}
 */
public record BoundFamily(String name, String source, DoubleFunction<PrivacyBound> atSigma) {
    /** The calibrated sigma for a target (see {@link SigmaCalibration}). */
    public double calibrate(double epsilon, double delta) {
        return SigmaCalibration.smallestSigma(atSigma, epsilon, delta);
    }
}

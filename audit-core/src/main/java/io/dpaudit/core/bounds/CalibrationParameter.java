package io.dpaudit.core.bounds;

import io.dpaudit.core.Checks;

/**
 * The one parameter of a mechanism that a calibration varies, by name: the noise standard deviation {@code sigma} of
 * an additive-noise mechanism, the local randomizer's {@code eps0}, a check-in probability {@code p0}, and so on.
 *
 * <p>A calibration looks for the boundary of the set of values whose bound meets a target {@code (ε, δ)}: the
 * smallest value when privacy grows with the parameter (more noise), the largest when privacy shrinks with it (a
 * larger local ε0 reveals more). The answer is rounded toward the inside of that set — up for {@code sigma}, down for
 * {@code eps0} — so that it always meets the target.
 *
 * @param name the parameter's name, as in scenarios and on the command line
 * @param meaning one line, for reports ("noise standard deviation")
 * @param privateWhenLarger whether larger values are more private ({@code sigma}: yes; {@code eps0}: no)
 * @param min smallest value searched, {@code > 0}
 * @param max largest value searched
 */
public record CalibrationParameter(String name, String meaning, boolean privateWhenLarger, double min, double max) {
    /** The noise standard deviation of an additive-noise mechanism, searched in {@code [1e-4, 1e7]}. */
    public static final CalibrationParameter SIGMA = new CalibrationParameter("sigma",
            "noise standard deviation (not the noise multiplier sigma/clip)", true, 1e-4, 1e7);

    public CalibrationParameter {
        Checks.positive("min", min);
        if (!(max > min) || max == Double.POSITIVE_INFINITY) {
            throw new IllegalArgumentException("need min < max < inf: " + min + ", " + max);
        }
    }

    /** The same parameter searched from {@code newMin} (a bound computed only above it). */
    public CalibrationParameter withMin(double newMin) {
        return new CalibrationParameter(name, meaning, privateWhenLarger, newMin, max);
    }

    /** "the smallest sigma" or "the largest eps0", for messages. */
    public String extremum() {
        return (privateWhenLarger ? "the smallest " : "the largest ") + name;
    }
}

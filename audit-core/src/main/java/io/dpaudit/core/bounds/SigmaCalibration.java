package io.dpaudit.core.bounds;

import io.dpaudit.core.Checks;
import io.dpaudit.core.InvalidInputException;
import io.dpaudit.core.numerics.RootFinder;
import io.dpaudit.core.numerics.SafeRounding;
import java.util.Locale;
import java.util.function.DoubleFunction;

/**
 * The smallest noise standard deviation {@code sigma} for which a bound certifies a target {@code (epsilon,
 * delta)}: solves {@code log delta_sigma(epsilon) = log delta} (decreasing in {@code sigma}) by bracketing, and
 * returns the upper end of the final bracket, rounded up, after checking that it meets the target.
 */
public final class SigmaCalibration {
    /** Smallest sigma searched. */
    public static final double MIN_SIGMA = 1e-4;
    /** Largest sigma searched. */
    public static final double MAX_SIGMA = 1e7;

    private SigmaCalibration() {
    }

    /**
     * @param boundAtSigma the bound as a function of sigma (all other parameters fixed)
     * @param epsilon target ε, {@code >= 0}
     * @param delta target δ in (0, 1)
     * @return the calibrated sigma
     * @throws InvalidInputException when no sigma in {@code [MIN_SIGMA, MAX_SIGMA]} meets the target
     */
    public static double smallestSigma(DoubleFunction<PrivacyBound> boundAtSigma, double epsilon, double delta) {
        Checks.nonNegative("epsilon", epsilon);
        Checks.delta("delta", delta);
        double logTarget = Math.log(delta);
        // delta_sigma(epsilon) decreases in sigma: search upward while it is too large, downward otherwise.
        RootFinder.Bracket b = RootFinder.bracketDecreasing(
                s -> Math.log(boundAtSigma.apply(s).delta(epsilon)) - logTarget, 1.0, 2.0, MIN_SIGMA, MAX_SIGMA);
        if (b == null) {
            boolean everySigma = boundAtSigma.apply(MIN_SIGMA).delta(epsilon) <= delta;
            throw new InvalidInputException("epsilon, delta", String.format(Locale.ROOT, "(%s, %s)",
                    Checks.format(epsilon), Checks.format(delta)), everySigma
                    ? "every sigma >= " + MIN_SIGMA + " meets this target under this bound (it claims it without noise)"
                    : "no sigma in [" + MIN_SIGMA + ", " + MAX_SIGMA + "] meets this target under this bound");
        }
        double hi = b.hi();
        if (b.lo() < b.hi()) {
            hi = RootFinder.solve(s -> Math.log(boundAtSigma.apply(s).delta(epsilon)) - logTarget,
                    b.lo(), b.hi(), 1e-12, 0.0).hi();
        }
        double sigma = SafeRounding.up(hi);
        if (!(boundAtSigma.apply(sigma).delta(epsilon) <= delta)) {
            throw new IllegalStateException("calibrated sigma " + sigma + " does not meet delta " + delta);
        }
        return sigma;
    }

    /**
     * Calibration of a bound whose {@code delta(epsilon)} is not monotone in sigma (a closed form whose side conditions
     * fail for large sigma): scans sigma on a logarithmic grid of {@code 40} points per decade over
     * {@code [MIN_SIGMA, MAX_SIGMA]}, takes the first grid point that meets the target and bisects between it and the
     * grid point below, keeping the end that meets it. The result meets the target; it is the smallest such sigma
     * unless the feasible set has a gap narrower than the grid step below it.
     *
     * @throws InvalidInputException when no grid point meets the target
     */
    public static double smallestSigmaByScan(DoubleFunction<PrivacyBound> boundAtSigma, double epsilon, double delta) {
        Checks.nonNegative("epsilon", epsilon);
        Checks.delta("delta", delta);
        int perDecade = 40;
        double lo = MIN_SIGMA;
        int steps = (int) Math.ceil(Math.log10(MAX_SIGMA / MIN_SIGMA) * perDecade);
        for (int i = 0; i <= steps; i++) {
            double s = MIN_SIGMA * Math.pow(10.0, (double) i / perDecade);
            if (boundAtSigma.apply(s).delta(epsilon) <= delta) {
                if (i == 0) {
                    return s;
                }
                double hi = s;
                for (int k = 0; k < 100 && hi - lo > 1e-13 * hi; k++) {
                    double mid = 0.5 * (lo + hi);
                    if (boundAtSigma.apply(mid).delta(epsilon) <= delta) {
                        hi = mid;
                    } else {
                        lo = mid;
                    }
                }
                return hi;
            }
            lo = s;
        }
        throw new InvalidInputException("epsilon, delta", String.format(Locale.ROOT, "(%s, %s)",
                Checks.format(epsilon), Checks.format(delta)), "no sigma in [" + MIN_SIGMA + ", " + MAX_SIGMA
                + "] meets this target under this bound (its side conditions may fail)");
    }
}

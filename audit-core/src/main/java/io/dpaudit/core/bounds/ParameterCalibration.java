package io.dpaudit.core.bounds;

import io.dpaudit.core.Checks;
import io.dpaudit.core.InvalidInputException;
import io.dpaudit.core.numerics.RootFinder;
import io.dpaudit.core.numerics.SafeRounding;
import java.util.Locale;
import java.util.function.DoubleFunction;

/**
 * The boundary value of a {@link CalibrationParameter} at which a bound certifies a target {@code (epsilon, delta)}:
 * the smallest {@code sigma}, the largest {@code eps0}, and so on.
 *
 * <p>{@link #monotone} solves {@code log delta_x(epsilon) = log delta}, which is monotone in {@code x} for bounds whose
 * privacy improves steadily with the parameter, by bracketing from {@code x = 1} (doubling or halving within the
 * parameter's range) and root finding to a relative {@code 1e-12}; it returns the end of the final bracket that meets
 * the target, rounded further to the safe side, after checking that it does. {@link #byScan} serves bounds that are not
 * monotone in the parameter (closed forms whose side conditions fail at one end).
 */
public final class ParameterCalibration {
    private ParameterCalibration() {
    }

    /**
     * @param parameter the parameter varied
     * @param boundAt the bound as a function of the parameter (all else fixed)
     * @param epsilon target ε, {@code >= 0}
     * @param delta target δ in (0, 1)
     * @return the calibrated value
     * @throws InvalidInputException when no value in the parameter's range meets the target
     */
    public static double monotone(CalibrationParameter parameter, DoubleFunction<PrivacyBound> boundAt,
            double epsilon, double delta) {
        Checks.nonNegative("epsilon", epsilon);
        Checks.delta("delta", delta);
        double logTarget = Math.log(delta);
        // g decreases in x: positive where the bound fails (too little privacy), negative where it meets the target.
        double sign = parameter.privateWhenLarger() ? 1.0 : -1.0;
        java.util.function.DoubleUnaryOperator g = x -> {
            io.dpaudit.core.Deadline.check("calibrating " + parameter.name() + " at " + Checks.format(x));
            return sign * (Math.log(boundAt.apply(x).delta(epsilon)) - logTarget);
        };
        RootFinder.Bracket b = RootFinder.bracketDecreasing(g, 1.0, 2.0, parameter.min(), parameter.max());
        if (b == null) {
            // Either the least private end of the range already meets the target, or not even the most private does.
            double leastPrivate = parameter.privateWhenLarger() ? parameter.min() : parameter.max();
            throw noValue(parameter, epsilon, delta, boundAt.apply(leastPrivate).delta(epsilon) <= delta);
        }
        double lo = b.lo();
        double hi = b.hi();
        if (lo < hi) {
            RootFinder.Bracket r = RootFinder.solve(g, lo, hi, 1e-12, 0.0);
            lo = r.lo();
            hi = r.hi();
        }
        double value = parameter.privateWhenLarger() ? SafeRounding.up(hi) : SafeRounding.down(lo);
        // The end of the bracket met the target when it was evaluated; a bound whose numerics are not exactly monotone
        // (a discretised accountant whose grid moves with the parameter) can fail it a hair further out. Walk on
        // towards more privacy, by steps growing from 1e-12 to about 1% relative, until the target is met again.
        double step = 1e-12;
        for (int k = 0; k < 34 && !(boundAt.apply(value).delta(epsilon) <= delta); k++) {
            io.dpaudit.core.Deadline.check("calibrating " + parameter.name() + ": checking " + Checks.format(value));
            double next = parameter.privateWhenLarger() ? value * (1 + step) : value / (1 + step);
            if (next > parameter.max() || next < parameter.min()) {
                break;
            }
            value = next;
            step *= 2;
        }
        if (!(boundAt.apply(value).delta(epsilon) <= delta)) {
            throw new InvalidInputException("epsilon, delta", String.format(Locale.ROOT, "(%s, %s)",
                    Checks.format(epsilon), Checks.format(delta)), "calibration did not settle: the bound meets the "
                    + "target at one end of the final bracket [" + Checks.format(lo) + ", " + Checks.format(hi)
                    + "] and not at " + parameter.name() + " = " + Checks.format(value) + " just beyond it (it is not "
                    + "monotone in " + parameter.name() + " there, e.g. at the limit of its numerical range)");
        }
        return value;
    }

    /**
     * Calibration of a bound whose {@code delta(epsilon)} is not monotone in the parameter (a closed form whose side
     * conditions fail at one end of the range): scans a logarithmic grid of 40 points per decade over the range from
     * its most private end, takes the first grid point (from the least private side) that meets the target, and
     * bisects between it and its neighbour that does not, keeping the end that meets it. The result meets the target;
     * it is the boundary unless the feasible set has a gap narrower than the grid step.
     *
     * @throws InvalidInputException when no grid point meets the target
     */
    public static double byScan(CalibrationParameter parameter, DoubleFunction<PrivacyBound> boundAt,
            double epsilon, double delta) {
        Checks.nonNegative("epsilon", epsilon);
        Checks.delta("delta", delta);
        int perDecade = 40;
        int steps = (int) Math.ceil(Math.log10(parameter.max() / parameter.min()) * perDecade);
        // Walk from the least private end toward the most private one.
        boolean up = parameter.privateWhenLarger();
        double previous = Double.NaN;
        for (int i = 0; i <= steps; i++) {
            double x = up ? parameter.min() * Math.pow(10.0, (double) i / perDecade)
                    : parameter.max() * Math.pow(10.0, -(double) i / perDecade);
            io.dpaudit.core.Deadline.check("calibrating " + parameter.name() + " at " + Checks.format(x));
            if (boundAt.apply(x).delta(epsilon) <= delta) {
                if (i == 0) {
                    return x;
                }
                double good = x;
                double bad = previous;
                for (int k = 0; k < 100 && Math.abs(good - bad) > 1e-13 * Math.abs(good); k++) {
                    double mid = 0.5 * (good + bad);
                    if (boundAt.apply(mid).delta(epsilon) <= delta) {
                        good = mid;
                    } else {
                        bad = mid;
                    }
                }
                return good;
            }
            previous = x;
        }
        throw new InvalidInputException("epsilon, delta", String.format(Locale.ROOT, "(%s, %s)",
                Checks.format(epsilon), Checks.format(delta)), "no " + parameter.name() + " in ["
                + Checks.format(parameter.min()) + ", " + Checks.format(parameter.max())
                + "] meets this target under this bound (its side conditions may fail)");
    }

    private static InvalidInputException noValue(CalibrationParameter p, double epsilon, double delta,
            boolean everyValue) {
        String range = "[" + Checks.format(p.min()) + ", " + Checks.format(p.max()) + "]";
        String why;
        if (everyValue) {
            why = "every " + p.name() + (p.privateWhenLarger() ? " >= " + Checks.format(p.min())
                    : " <= " + Checks.format(p.max())) + " meets this target under this bound"
                    + (p.privateWhenLarger() ? " (it claims it without noise)" : "");
        } else {
            why = "no " + p.name() + " in " + range + " meets this target under this bound";
        }
        return new InvalidInputException("epsilon, delta", String.format(Locale.ROOT, "(%s, %s)",
                Checks.format(epsilon), Checks.format(delta)), why);
    }
}

package io.dpaudit.core.bounds;

import io.dpaudit.core.Checks;
import io.dpaudit.core.InvalidInputException;
import io.dpaudit.core.numerics.RootFinder;
import java.util.Locale;
import java.util.function.DoubleFunction;

/**
 * The boundary value of a {@link CalibrationParameter} at which a bound certifies a target {@code (epsilon, delta)}:
 * the smallest {@code sigma}, the largest {@code eps0}, and so on.
 *
 * <p>{@link #monotone} solves {@code log delta_x(epsilon) = log delta}, which is monotone in {@code x} for bounds whose
 * privacy improves steadily with the parameter, by bracketing from {@code x = 1} (doubling or halving within the
 * parameter's range) and root finding to a relative {@code 1e-9} ({@link RootFinder#solveSmooth}); it returns the end
 * of the final bracket that meets the target, after checking that it does ({@code delta <= target}, not only its
 * logarithm). Each parameter value's δ is computed at most once (of the bounds, only the last two are kept; see
 * {@link #KEPT_BOUNDS}). {@link #byScan} serves bounds that are not
 * monotone in the parameter (closed forms whose side conditions fail at one end).
 */
public final class ParameterCalibration {
    /**
     * Relative width to which {@link #monotone} shrinks its bracket: finer than any calibrated value is printed, and
     * coarser than the evaluation noise of the discretised accountants (about 1e-11 relative in sigma for the PLD
     * accountant), on which a finer search only chases round-off.
     */
    static final double RELATIVE_TOLERANCE = 1e-9;

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
        return monotone(parameter, boundAt, epsilon, delta, Double.NaN);
    }

    /**
     * {@link #monotone(CalibrationParameter, DoubleFunction, double, double)} for an expensive bound, guided by a cheap
     * approximation of it ({@code guide}, e.g. the same accountant on a coarser grid): the guide is calibrated first,
     * and the bound's bracket is searched outward from the guide's answer by relative steps of 1e-4, 2e-4, 4e-4, ...
     * instead of by doubling from 1. The guide only decides where to look; the answer is the bound's own, with the same
     * checks. If the guide cannot be calibrated, the search starts from 1 as usual.
     */
    public static double guided(CalibrationParameter parameter, DoubleFunction<PrivacyBound> boundAt,
            DoubleFunction<PrivacyBound> guide, double epsilon, double delta) {
        return guided(parameter, boundAt, guide, Double.NaN, epsilon, delta);
    }

    /**
     * {@link #guided(CalibrationParameter, DoubleFunction, DoubleFunction, double, double)} with a {@code hint} where
     * the guide's search starts (a closed-form approximation such as the central limit's, or NaN to start from 1): the
     * guide's bracket is searched outward from the hint by relative steps of 1e-2, 2e-2, 4e-2, ..., and the guide is
     * solved only to {@value #GUIDE_TOLERANCE} relative, since it only says where the bound's own search starts (whose
     * first steps are 1e-4). Neither the hint nor the guide affects the answer, only how many evaluations it takes.
     */
    public static double guided(CalibrationParameter parameter, DoubleFunction<PrivacyBound> boundAt,
            DoubleFunction<PrivacyBound> guide, double hint, double epsilon, double delta) {
        double start;
        try {
            start = monotone(parameter, guide, epsilon, delta, hint, 1e-2, GUIDE_TOLERANCE);
        } catch (InvalidInputException e) { // including an accountant at its numerical limits
            start = Double.NaN;
        }
        return monotone(parameter, boundAt, epsilon, delta, start, 1e-4, RELATIVE_TOLERANCE);
    }

    /**
     * {@link #monotone(CalibrationParameter, DoubleFunction, double, double)} with its bracket searched outward from
     * {@code hint} by relative steps of 1e-2, 2e-2, 4e-2, ... (from 1 by doubling when the hint is NaN or outside the
     * parameter's range): for a bound that is costly at every grid, started where a closed form puts the answer. The
     * hint only decides where to look.
     */
    public static double fromHint(CalibrationParameter parameter, DoubleFunction<PrivacyBound> boundAt, double hint,
            double epsilon, double delta) {
        return monotone(parameter, boundAt, epsilon, delta, hint, 1e-2, RELATIVE_TOLERANCE);
    }

    /** Evaluated bounds kept at once by {@link #monotone} (their deltas are all kept). */
    private static final int KEPT_BOUNDS = 2;

    /** Relative width to which a guide is solved. */
    static final double GUIDE_TOLERANCE = 1e-6;

    private static double monotone(CalibrationParameter parameter, DoubleFunction<PrivacyBound> boundAt,
            double epsilon, double delta, double start) {
        return monotone(parameter, boundAt, epsilon, delta, start, 1e-4, RELATIVE_TOLERANCE);
    }

    private static double monotone(CalibrationParameter parameter, DoubleFunction<PrivacyBound> boundAt,
            double epsilon, double delta, double start, double firstStep, double tolerance) {
        Checks.nonNegative("epsilon", epsilon);
        Checks.delta("delta", delta);
        double logTarget = Math.log(delta);
        // Every evaluation's delta is remembered: the bracket's ends, the root finder's points and the final check share
        // them. Of the bounds themselves only the most recent few are kept (the final check reads the last ones again):
        // a discretised accountant's bound holds its composed distributions, hundreds of megabytes over 10^6 rounds,
        // and keeping every evaluation's took 2-3 GB of heap. An evicted bound is recomputed, to the same numbers.
        java.util.Map<Double, PrivacyBound> bounds = new java.util.LinkedHashMap<>(8, 0.75f, true) {
            @Override
            protected boolean removeEldestEntry(java.util.Map.Entry<Double, PrivacyBound> eldest) {
                return size() > KEPT_BOUNDS;
            }
        };
        java.util.Map<Double, Double> deltas = new java.util.HashMap<>();
        DoubleFunction<PrivacyBound> boundOf = x -> bounds.computeIfAbsent(x, v -> {
            io.dpaudit.core.numerics.Interruption.check("calibrating " + parameter.name() + " at " + Checks.format(v));
            return boundAt.apply(v);
        });
        java.util.function.DoubleUnaryOperator deltaAt = x -> deltas.computeIfAbsent(x,
                v -> boundOf.apply(v).delta(epsilon));
        // Accepted: delta(epsilon) <= delta, and the bound read the other way agrees (epsilon(delta) <= epsilon), so
        // that evaluating the calibrated bound either way confirms the target.
        java.util.function.DoublePredicate meets = x -> deltaAt.applyAsDouble(x) <= delta
                && boundOf.apply(x).epsilon(delta) <= epsilon;
        // g decreases in x: positive where the bound fails (too little privacy), negative where it meets the target.
        double sign = parameter.privateWhenLarger() ? 1.0 : -1.0;
        java.util.function.DoubleUnaryOperator g = x -> sign * (Math.log(deltaAt.applyAsDouble(x)) - logTarget);
        RootFinder.Bracket b = start > parameter.min() && start < parameter.max()
                ? bracketAround(g, start, firstStep, parameter.min(), parameter.max())
                : RootFinder.bracketDecreasing(g, Math.min(Math.max(1.0, parameter.min()), parameter.max()), 2.0,
                        parameter.min(), parameter.max()); // from 1, or the end of a range that excludes it
        if (b == null) {
            // Either the least private end of the range already meets the target, or not even the most private does.
            double leastPrivate = parameter.privateWhenLarger() ? parameter.min() : parameter.max();
            throw noValue(parameter, epsilon, delta, deltaAt.applyAsDouble(leastPrivate) <= delta);
        }
        double lo = b.lo();
        double hi = b.hi();
        if (lo < hi) {
            RootFinder.Bracket r = RootFinder.solveSmooth(g, b, tolerance, 0.0);
            lo = r.lo();
            hi = r.hi();
        }
        double value = parameter.privateWhenLarger() ? hi : lo;
        // The end of the bracket met the target when it was evaluated; the acceptance test is stricter (delta itself,
        // not its logarithm, and epsilon(delta) as well, which a bound rounds outward on its own), and a bound whose
        // numerics are not exactly monotone (a discretised accountant whose grid moves with the parameter) can fail
        // it a hair further out. Walk on towards more privacy, by steps growing from 1e-12 to about 1% relative,
        // until the target is met.
        double step = 1e-12;
        for (int k = 0; k < 34 && !meets.test(value); k++) {
            double next = parameter.privateWhenLarger() ? value * (1 + step) : value / (1 + step);
            if (next > parameter.max() || next < parameter.min()) {
                break;
            }
            value = next;
            step *= 2;
        }
        if (!meets.test(value)) {
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
            io.dpaudit.core.numerics.Interruption.check("calibrating " + parameter.name() + " at " + Checks.format(x));
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

    /**
     * A bracket of the sign change of the decreasing {@code g} found from {@code start} by relative steps
     * {@code 1e-4 * 2^k} towards the change, clamped to {@code [min, max]}; null if the sign does not change there.
     */
    private static RootFinder.Bracket bracketAround(java.util.function.DoubleUnaryOperator g, double start,
            double firstStep, double min, double max) {
        double x = start;
        double fx = g.applyAsDouble(x);
        if (Double.isNaN(fx)) {
            throw new IllegalArgumentException("function is NaN at " + x);
        }
        if (fx == 0) {
            return new RootFinder.Bracket(x, x, fx, fx);
        }
        double step = firstStep;
        for (int k = 0; k < 64; k++, step *= 2) {
            double y = fx > 0 ? Math.min(max, x * (1 + step)) : Math.max(min, x / (1 + step));
            double fy = g.applyAsDouble(y);
            if (Double.isNaN(fy)) {
                throw new IllegalArgumentException("function is NaN at " + y);
            }
            if (fx > 0 ? fy <= 0 : fy >= 0) {
                return fx > 0 ? new RootFinder.Bracket(x, y, fx, fy) : new RootFinder.Bracket(y, x, fy, fx);
            }
            if (y == max || y == min) {
                return null;
            }
            x = y;
            fx = fy;
        }
        return null;
    }

    private static InvalidInputException noValue(CalibrationParameter p, double epsilon, double delta,
            boolean everyValue) {
        String range = "[" + Checks.format(p.min()) + ", " + Checks.format(p.max()) + "]";
        String why;
        if (everyValue) {
            why = "every " + p.name() + (p.privateWhenLarger() ? " >= " + Checks.format(p.min())
                    : " <= " + Checks.format(p.max())) + " meets this target under this bound"
                    + (!p.privateWhenLarger() ? "" : p.min() <= CalibrationParameter.SIGMA.min()
                            ? " (it claims it without noise)" : " (the least it is computed for: the smallest "
                            + p.name() + " lies below)");
        } else {
            why = "no " + p.name() + " in " + range + " meets this target under this bound";
        }
        return new InvalidInputException("epsilon, delta", String.format(Locale.ROOT, "(%s, %s)",
                Checks.format(epsilon), Checks.format(delta)), why);
    }
}

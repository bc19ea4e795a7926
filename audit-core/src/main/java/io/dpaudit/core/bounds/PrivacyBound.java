package io.dpaudit.core.bounds;

import io.dpaudit.core.Checks;
import io.dpaudit.core.numerics.RootFinder;
import io.dpaudit.core.numerics.SafeRounding;

/**
 * An analytic privacy guarantee as a privacy profile: the mechanism is {@code (epsilon, delta(epsilon))}-DP for every
 * {@code epsilon >= 0}. Every bound names its source (paper, theorem, equation).
 *
 * <p>Values are rounded to the safe side: {@link #delta} and {@link #epsilon} are upper bounds on what the formula
 * gives in exact arithmetic (see {@link SafeRounding}).
 */
public interface PrivacyBound {
    /** Largest ε this interface searches before reporting that no finite ε attains a δ. */
    double EPSILON_SEARCH_LIMIT = 1e4;
    /**
     * The last ε {@link #epsilonFromProfile} evaluates (it doubles from 1 while below {@link #EPSILON_SEARCH_LIMIT}):
     * when it answers {@code +inf}, the profile is known to exceed the target here, not beyond.
     */
    double EPSILON_SEARCH_LAST = 8192;

    /** Stable identifier, used in scenario claims and on the command line. */
    String name();

    /** Where the bound comes from: paper, theorem, equation; notes on corrections. */
    String source();

    /** What this curve is; reports label every kind but {@link BoundKind#UPPER_BOUND}. */
    default BoundKind kind() {
        return BoundKind.UPPER_BOUND;
    }

    /**
     * {@code mu} when this bound is exactly a Gaussian trade-off function {@code G_mu} (mu-GDP, so that f-DP claims
     * and plots can use {@code G_mu} itself rather than its conversion from the profile), NaN otherwise.
     */
    default double gdpMu() {
        return Double.NaN;
    }

    /** Whether this is a certified upper bound on the mechanism's privacy profile. */
    default boolean certified() {
        return kind() == BoundKind.UPPER_BOUND;
    }

    /** {@code delta(epsilon)} for {@code epsilon >= 0}, in {@code [0, 1]}, rounded up. */
    double delta(double epsilon);

    /**
     * The lower end of this curve's numerical bracket at {@code epsilon}: a value the exact {@code delta(epsilon)} of
     * what the curve computes is at least. A curve in closed form is accurate to rounding, and the default is
     * {@link #delta} itself. A composition by the PLD accountant lies above the exact composition by its
     * discretisation: every loss of each of its {@code T} factors rounded up by at most the grid spacing {@code h}, so
     * its δ at {@code epsilon + T h}, less the mass it placed at {@code +inf} and its round-off allowance, is below the
     * exact δ at {@code epsilon} (see {@code PldAccountant}). Reports use it to tell a curve that lies below an exact
     * one from one within the exact one's discretisation; it never enters a verdict.
     */
    default double deltaLowerEnd(double epsilon) {
        return delta(epsilon);
    }

    /**
     * The lower end of this curve's numerical bracket in ε at {@code delta}: an ε at which {@link #deltaLowerEnd}
     * still exceeds {@code delta}, so that the exact ε(δ) of what the curve computes is at least it; 0 when no ε is.
     * With {@link #epsilon} it brackets the exact ε: {@code [epsilonLowerEnd, epsilon]} ({@link #epsilonLowerEnd(
     * PrivacyBound, double, double)} from {@link #epsilon}).
     */
    default double epsilonLowerEnd(double delta) {
        double hi = epsilon(delta);
        return Double.isFinite(hi) ? epsilonLowerEnd(this, delta, hi) : hi;
    }

    /**
     * The largest ε in {@code [0, hi]} found at which {@code bound.deltaLowerEnd} exceeds {@code target} ({@code hi}
     * itself if it does there, 0 if it does nowhere): walking down from {@code hi} (the step doubling from 1e-4 of it),
     * then bisecting to a relative 1e-7, the safe side kept. Near the answer only: a composed curve's lower end far
     * below it can cost a composition per point.
     */
    static double epsilonLowerEnd(PrivacyBound bound, double target, double hi) {
        if (!(bound.deltaLowerEnd(0.0) > target)) {
            return 0.0;
        }
        if (bound.deltaLowerEnd(hi) > target) {
            return hi;
        }
        double step = Math.max(hi * 1e-4, 1e-12);
        double lo = hi - step;
        while (lo > 0 && !(bound.deltaLowerEnd(lo) > target)) {
            hi = lo;
            step *= 2;
            lo = hi - step;
        }
        lo = Math.max(lo, 0.0);
        for (int i = 0; i < 60 && hi - lo > 1e-7 * hi; i++) {
            double mid = 0.5 * (lo + hi);
            if (bound.deltaLowerEnd(mid) > target) {
                lo = mid;
            } else {
                hi = mid;
            }
        }
        return lo;
    }

    /**
     * An upper bound on {@code delta(e)} at each of {@code epsilons} (ascending, {@code >= 0}), for tabulating a whole
     * curve at once (a trade-off function from 600 values of ε). It may be looser than {@link #delta} by a small
     * absolute amount (the implementation says how much), never smaller; an upper bound on δ makes a trade-off
     * function derived from it smaller, the safe side for a claim. The default evaluates {@link #delta} at each
     * point; an accountant overrides it with one pass over its distribution.
     */
    default double[] deltas(double[] epsilons) {
        double[] out = new double[epsilons.length];
        for (int i = 0; i < out.length; i++) {
            out[i] = delta(epsilons[i]);
        }
        return out;
    }

    /**
     * The smallest {@code epsilon >= 0} with {@code delta(epsilon) <= delta}, rounded up; {@code +inf} if none below
     * {@link #EPSILON_SEARCH_LIMIT}. The default solves the monotone profile by bracketing root finding and returns
     * the upper end of the final bracket.
     */
    default double epsilon(double delta) {
        return epsilonFromProfile(this, delta);
    }

    /**
     * The ε of pure DP this bound certifies — the smallest ε with {@code delta(epsilon) = 0} — or {@code +inf} when it
     * certifies none (the default: a profile that only tends to 0, like the Gaussian mechanism's, must not be read as
     * pure DP where its evaluation underflows). Bounds of pure-DP mechanisms override it.
     */
    default double pureEpsilon() {
        return Double.POSITIVE_INFINITY;
    }

    /** {@link #epsilon(double)} for δ in (0, 1), {@link #pureEpsilon()} at δ = 0. */
    static double epsilonAt(PrivacyBound bound, double delta) {
        return delta == 0 ? bound.pureEpsilon() : bound.epsilon(delta);
    }

    /** Largest ε {@link #epsilonFromLowerProfile} searches; beyond it, it answers with the last ε it checked. */
    double LOWER_EPSILON_SEARCH_LIMIT = 1e15;

    /**
     * Inversion of a decreasing profile that is a <i>lower</i> bound ({@link BoundKind#LOWER_BOUND}): the lower end of
     * the root bracket of {@code log delta(eps) = log target}, rounded down, so that the answer is an ε at which the
     * profile still exceeds the target — a valid lower bound on ε(δ). Where the profile exceeds the target beyond
     * {@link #LOWER_EPSILON_SEARCH_LIMIT}, that limit is the answer: finite and still valid, never an infinity read
     * from a search that only ran out of range.
     */
    static double epsilonFromLowerProfile(PrivacyBound bound, double delta) {
        Checks.delta("delta", delta);
        if (bound.delta(0.0) <= delta) {
            return 0.0;
        }
        double hi = 1.0;
        while (bound.delta(hi) > delta) {
            if (hi >= LOWER_EPSILON_SEARCH_LIMIT) {
                return SafeRounding.down(hi);
            }
            hi *= 2;
        }
        double lo = hi == 1.0 ? 0.0 : hi / 2;
        double logTarget = Math.log(delta);
        RootFinder.Bracket b = RootFinder.solve(e -> Math.log(bound.delta(e)) - logTarget, lo, hi, 1e-12, 1e-15);
        return Math.max(0.0, SafeRounding.down(b.lo()));
    }

    /**
     * Root-finding inversion of a decreasing profile (see {@link #epsilon}): doubling from 1 to
     * {@link #EPSILON_SEARCH_LAST}, then a bracket; {@code +inf} where the profile still exceeds {@code delta} there
     * (safe for an upper bound). For the exact profile of a pair ({@link BoundKind#PAIR_PROFILE}, a lower bound on the
     * worst case) an infinity would claim more than was seen, so that case is refused in one line instead
     * ({@link io.dpaudit.core.bounds.AccountingLimitException}, which reports turn into a note).
     */
    static double epsilonFromProfile(PrivacyBound bound, double delta) {
        Checks.delta("delta", delta);
        if (bound.delta(0.0) <= delta) {
            return 0.0;
        }
        double logTarget = Math.log(delta);
        double hi = 1.0;
        while (bound.delta(hi) > delta) {
            hi *= 2;
            if (hi > EPSILON_SEARCH_LIMIT) {
                if (bound.kind() == BoundKind.PAIR_PROFILE) {
                    throw new io.dpaudit.core.bounds.AccountingLimitException("delta", Checks.format(delta),
                            String.format(java.util.Locale.ROOT, "the exact profile of the pair is above it at every "
                            + "epsilon up to %.0f (delta there %.3g): its epsilon is larger, or its computation left "
                            + "its numerical range (a noise so small that the privacy loss exceeds its window); not "
                            + "searched further, no epsilon computed", EPSILON_SEARCH_LAST,
                            bound.delta(EPSILON_SEARCH_LAST)));
                }
                return Double.POSITIVE_INFINITY;
            }
        }
        double lo = hi == 1.0 ? 0.0 : hi / 2;
        RootFinder.Bracket b = RootFinder.solve(e -> Math.log(bound.delta(e)) - logTarget, lo, hi, 1e-13, 1e-15);
        return SafeRounding.up(b.hi());
    }
}

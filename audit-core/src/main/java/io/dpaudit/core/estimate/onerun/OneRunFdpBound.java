package io.dpaudit.core.estimate.onerun;

import io.dpaudit.core.InvalidInputException;
import io.dpaudit.core.fdp.EpsilonDeltaTradeOff;
import io.dpaudit.core.fdp.GaussianTradeOff;
import io.dpaudit.core.fdp.TradeOffFunction;
import io.dpaudit.core.numerics.Interruption;

/**
 * Auditing f-DP in one training run: the guessing-game bound of Mahloujifar, Melis &amp; Chaudhuri, "Auditing
 * f-Differential Privacy in One Run" (2024, arXiv 2410.22235), derived and normalised here as follows, for one-sided
 * guesses and then for two-sided ones ({@link GuessSides}).
 *
 * <p><b>Setting.</b> {@code m} canaries, each included independently with probability 1/2 ({@code S_i}); from the
 * trained model alone the auditor guesses "included" for exactly {@code k} of them ({@code T_i = 1}); {@code C} is the
 * number of right guesses. Claim: training is f-DP with respect to each canary (with its neighbour being the run
 * without it).
 *
 * <p><b>Constraints.</b> For a level {@code j} let {@code B_i = {T_i = 1, C_{-i} >= j}}, {@code C_{-i}} the right
 * guesses among the other canaries: a test of canary {@code i}'s presence that looks at the model and at the other
 * canaries' coins. By f-DP for each value of the other coins, and because f-DP survives mixing with equal weights (convexity of
 * {@code f}; also over a uniform index {@code i}), the averages {@code R_j = (1/m) sum_i P(B_i | S_i = 1)} and
 * {@code H_j = (1/m) sum_i P(B_i | S_i = 0)} satisfy {@code H_j >= g(R_j)}, {@code g(x) = inf {a : f(a) <= 1 - x}}
 * ({@link TradeOffFunction#leastAlphaAtPower}; {@code Phi(Phi^{-1}(x) - mu)} for {@code mu}-GDP). As
 * {@code P(S_i = s) = 1/2}, with {@code pi_c = P(C = c)}:
 * <pre>
 *   R_j = (2/m) sum_{c > j} c pi_c,        H_j = (2/m) sum_{c >= j} (k - c) pi_c.
 * </pre>
 * (The factor 2 comes from conditioning on {@code S_i}; jax_privacy's {@code _epsilon_one_run_fdp} uses {@code 1/m},
 * which is the constraint after mixing each canary's test with its mirror image — also valid, never tighter, as
 * {@code g(2x)/2 >= g(x)} for a convex {@code g} with {@code g(0) = 0}.)
 *
 * <p><b>Two-sided guesses</b> ({@code T_i = -1}: "excluded"). With {@code A_i = {C_{-i} >= j}}, the test
 * {@code {T_i = +1} ∩ A_i} of presence and the test {@code {T_i = -1} ∩ A_i} of absence — f-DP for the reversed pair,
 * which holds for symmetric f, as μ-GDP's and (ε, δ)-DP's are — give {@code P(T_i=+1, A_i | S_i=0) >= g(P(T_i=+1, A_i |
 * S_i=1))} and {@code P(T_i=-1, A_i | S_i=1) >= g(P(T_i=-1, A_i | S_i=0))}. Their sum, by convexity of {@code g}, is
 * {@code 2 P(guess i wrong, A_i) >= 2 g(P(guess i right, A_i))}: the conditioning no longer doubles the rates, and the
 * constraints are {@code H_j >= g(R_j)} with {@code R_j = (1/m) sum_{c > j} c pi_c} and {@code H_j = (1/m) sum_{c >= j}
 * (k - c) pi_c} ({@code k} guesses of both kinds) — jax_privacy's normalisation. Worked example (tested): two canaries,
 * one guessed in and one out, ε-DP: the greedy law gives {@code P(C = 2) <= q^2}, {@code q = e^eps / (1 + e^eps)}, what
 * randomized response on both coins attains.
 *
 * <p><b>The largest {@code P(C >= v)}.</b> If some law of {@code C} meets every constraint with {@code P(C >= v) >= t},
 * one with all of that mass moved to {@code c = v} and the excess over {@code t} to {@code c = 0} does too (every
 * {@code R_j} falls, every {@code H_j} with {@code R_j > 0} rises). Then, level by level from {@code j = v - 1} down to
 * 0, the constraint asks for mass at {@code c = j}; the greedy choice — the least mass that meets each constraint —
 * needs the least total mass: by induction, any other feasible law has {@code H_j >= H*_j} and
 * {@code R_{j-1} - R*_{j-1} >= (j / (k - j)) (H_j - H*_j)}, since {@code (j+1)/(k-j-1) >= j/(k-j)}. So
 * {@code P(C >= v) >= t} is possible if and only if the greedy law's total mass is at most 1 (with every {@code R_j} at
 * most 1, as it is a probability); the claim is refuted at level {@code t} when it is not. Feasibility is monotone in
 * {@code t} and, for the families searched here, in the privacy parameter.
 *
 * <p><b>Worked examples</b> (tested): one canary, one guess — the bound is {@code P(C >= 1) <= 1/2}, exact. Two
 * canaries, one guess, {@code mu}-GDP — the greedy law gives {@code t + Phi(Phi^{-1}(t) - mu) <= 1}, so
 * {@code P(C >= 1) <= Phi(mu/2)}, the accuracy of the best test between {@code N(0,1)} and {@code N(mu,1)}; for
 * {@code eps}-DP the same steps give {@code e^eps / (1 + e^eps)}, as Steinke et al.'s binomial does.
 *
 * <p><b>Rounding.</b> Refutation needs the greedy total mass above {@code 1 + 1e-9} (or some {@code R_j} above it):
 * round-off in {@code g} (about 1e-15 relative) cannot refute a claim that exact arithmetic would not. Reported
 * parameters are bisection lower ends.
 */
public final class OneRunFdpBound {
    /** Largest μ searched; far beyond it {@code g} underflows to 0. */
    public static final double MAX_MU = 40;
    /** Largest ε searched. */
    public static final double MAX_EPSILON = 200;
    private static final double SLACK = 1e-9;

    private OneRunFdpBound() {
    }

    /**
     * True when no f-DP training run gives {@code P(C >= v) >= level}: observing {@code v} right guesses out of
     * {@code k} refutes f-DP at that level.
     */
    public static boolean refutes(long m, long k, long v, TradeOffFunction f, double level) {
        return refutes(m, k, v, f, level, GuessSides.ONE_SIDED);
    }

    /** {@link #refutes(long, long, long, TradeOffFunction, double)} for guesses of {@code sides}. */
    public static boolean refutes(long m, long k, long v, TradeOffFunction f, double level, GuessSides sides) {
        check(m, k, v);
        if (!(level > 0 && level < 1)) {
            throw new InvalidInputException("level", level, "must be in (0, 1)");
        }
        return !feasible(m, k, v, f, level, sides);
    }

    /**
     * The largest {@code P(C >= v)} an f-DP run allows (the p-value of the observation), rounded up: bisection to
     * 1e-12, and the feasibility test's slack of 1e-9 can raise it by as much.
     */
    public static double pValue(long m, long k, long v, TradeOffFunction f) {
        return pValue(m, k, v, f, GuessSides.ONE_SIDED);
    }

    /** {@link #pValue(long, long, long, TradeOffFunction)} for guesses of {@code sides}. */
    public static double pValue(long m, long k, long v, TradeOffFunction f, GuessSides sides) {
        check(m, k, v);
        if (feasible(m, k, v, f, 1.0, sides)) {
            return 1.0;
        }
        double lo = 0;
        double hi = 1;
        while (hi - lo > 1e-12) {
            double mid = 0.5 * (lo + hi);
            if (feasible(m, k, v, f, mid, sides)) {
                lo = mid;
            } else {
                hi = mid;
            }
        }
        return hi;
    }

    /**
     * The largest μ such that μ'-GDP is refuted at {@code level} for every {@code mu' <= mu} (0 if even 0-GDP is not;
     * {@link #MAX_MU} if all searched are), to 1e-9 relative, rounded down.
     */
    public static double gdpMuLowerBound(long m, long k, long v, double level) {
        return gdpMuLowerBound(m, k, v, level, GuessSides.ONE_SIDED);
    }

    /** {@link #gdpMuLowerBound(long, long, long, double)} for guesses of {@code sides}. */
    public static double gdpMuLowerBound(long m, long k, long v, double level, GuessSides sides) {
        return search(m, k, v, level, MAX_MU, GaussianTradeOff::new, sides);
    }

    /**
     * The largest ε such that {@code (eps', delta)}-DP is refuted at {@code level} for every {@code eps' <= eps}, by
     * the trade-off function of {@code (eps, delta)}-DP ({@link EpsilonDeltaTradeOff}) — no Gaussian assumption.
     */
    public static double epsilonLowerBound(long m, long k, long v, double delta, double level) {
        return epsilonLowerBound(m, k, v, delta, level, GuessSides.ONE_SIDED);
    }

    /** {@link #epsilonLowerBound(long, long, long, double, double)} for guesses of {@code sides}. */
    public static double epsilonLowerBound(long m, long k, long v, double delta, double level, GuessSides sides) {
        if (!(delta >= 0 && delta < 1)) {
            throw new InvalidInputException("delta", delta, "must be in [0, 1)");
        }
        return search(m, k, v, level, MAX_EPSILON, e -> new EpsilonDeltaTradeOff(e, delta), sides);
    }

    private static double search(long m, long k, long v, double level, double max,
            java.util.function.DoubleFunction<TradeOffFunction> family, GuessSides sides) {
        if (!refutes(m, k, v, family.apply(0.0), level, sides)) {
            return 0.0;
        }
        if (refutes(m, k, v, family.apply(max), level, sides)) {
            return max;
        }
        double lo = 0;
        double hi = Math.min(1.0, max);
        while (refutes(m, k, v, family.apply(hi), level, sides)) {
            lo = hi;
            hi = Math.min(2 * hi, max);
        }
        for (int i = 0; i < 100 && hi - lo > 1e-9 * Math.max(lo, 1e-3); i++) {
            double mid = 0.5 * (lo + hi);
            if (refutes(m, k, v, family.apply(mid), level, sides)) {
                lo = mid;
            } else {
                hi = mid;
            }
        }
        return lo;
    }

    /** Whether some f-DP law of {@code C} has {@code P(C >= v) >= t}: the greedy law above. */
    static boolean feasible(long m, long k, long v, TradeOffFunction f, double t, GuessSides sides) {
        if (v == 0) {
            return true;
        }
        double a = (sides == GuessSides.ONE_SIDED ? 2.0 : 1.0) / m;
        double correct = a * v * t; // R_{v-1}
        double wrong = a * (k - v) * t; // H_v
        double mass = t;
        for (long j = v - 1; j >= 0; j--) {
            if (correct > 1 + SLACK || mass > 1 + SLACK) {
                return false;
            }
            double need = f.leastAlphaAtPower(Math.min(correct, 1.0));
            if (need <= wrong) {
                break; // nothing is added at this level, so no constraint below asks for more
            }
            double pj = (need - wrong) / (a * (k - j));
            mass += pj;
            wrong = need;
            correct += a * j * pj;
            if ((j & 0xffff) == 0) {
                Interruption.check("one-run f-DP bound");
            }
        }
        return correct <= 1 + SLACK && wrong <= 1 + SLACK && mass <= 1 + SLACK;
    }

    private static void check(long m, long k, long v) {
        if (m < 1 || m > OneRunBound.MAX_CANARIES || k < 0 || k > m || v < 0 || v > k) {
            throw new InvalidInputException("one-run counts", "m = " + m + ", k = " + k + ", v = " + v,
                    "need 0 <= v <= k <= m <= " + OneRunBound.MAX_CANARIES);
        }
    }
}

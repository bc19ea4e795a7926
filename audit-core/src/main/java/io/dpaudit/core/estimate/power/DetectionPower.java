package io.dpaudit.core.estimate.power;

import io.dpaudit.core.estimate.ClopperPearson;
import io.dpaudit.core.estimate.DeltaLowerBound;
import io.dpaudit.core.estimate.EpsilonLowerBound;
import io.dpaudit.core.estimate.SelectedTest;
import io.dpaudit.core.numerics.SafeRounding;
import org.apache.commons.math3.special.Beta;

/**
 * What an audit could have detected: the power behind a "consistent" verdict.
 *
 * <p><b>(ε, δ) claims.</b> A claim {@code (epsilon, delta_c)} is refuted when the certifying test's bound
 * {@code TPR_lower - e^epsilon FPR_upper} exceeds {@code delta_c} (Clopper–Pearson bounds at the test's error level
 * {@code a}, on {@code n} trials of the flagged world and {@code m} of the other). Take the test this audit chose at the
 * claim's ε and suppose its false-positive rate is what was observed, {@code b = FP/m}, while its true-positive rate is
 * {@code e^epsilon b + delta}: a mechanism whose δ at ε is {@code delta} on this test. The audit then flags the claim
 * with probability at least {@value #PROBABILITY} when {@code CP_lower(x) - e^epsilon CP_upper(y) > delta_c}, where
 * {@code y} is the 0.95 quantile of {@code Binomial(m, b)} and {@code x} the largest count that
 * {@code Binomial(n, e^epsilon b + delta)} reaches with probability 0.95 (both bounds are monotone in the counts, and
 * each count stays on its side with probability 0.95, so both do with probability at least 0.9 by the union bound).
 * {@link #detectableDelta} is the smallest such {@code delta}: by the duality of Clopper–Pearson limits and binomial
 * quantiles it is {@code CP_upper(x* - 1, n, 0.05) - e^epsilon b}, with {@code x*} the smallest count whose lower bound
 * clears {@code delta_c + e^epsilon CP_upper(y, m, a)}. It is {@code +inf} when no true-positive rate can do that
 * (the claim could not have been refuted by this test whatever the mechanism).
 *
 * <p>The statement is conditional on the test the audit chose (a held-out selection on a leakier mechanism could
 * choose a better one) and on its false-positive rate being the observed one: it says what <i>this</i> audit could
 * have seen, which is what a reader of a "consistent" needs. Binomial quantiles use commons-math3's regularized beta
 * function (relative error about {@code n 1e-16}), which can move a quantile by one count at {@code n >= 10^9}: a
 * power statement, not a certified bound.
 *
 * <p><b>Verdicts.</b> Users compare claims in ε, not in δ: a claim that was not refuted is consistent only when the
 * audit would also have refuted a mechanism with a modestly larger ε at the claim's δ ({@link EpsilonPower} turns
 * this class's detectable δ into {@code power.epsilon}). The detectable δ stays in reports as {@code power.delta}.
 * The f-DP analogue is {@link TradeOffPower}.
 */
public final class DetectionPower {
    /** The detection probability every power statement is made at. */
    public static final double PROBABILITY = 0.9;
    /** Each of the two counts stays on its side of its quantile with this probability (union bound: 0.9). */
    static final double PER_COUNT = 0.95;
    /**
     * An f-DP claim that only a violation of this many times its μ could have refuted is inconclusive; an (ε, δ) claim
     * of ε = 0 likewise with its δ ({@link EpsilonPower#powered}).
     */
    public static final double INCONCLUSIVE_FACTOR = 10;
    /** The most trials per world {@link #scaleToResolve} considers: the most Clopper–Pearson limits are made for. */
    public static final double MAX_RESOLVE_TRIALS = ClopperPearson.MAX_TRIALS;

    private DetectionPower() {
    }

    /**
     * The smallest true δ at {@code epsilon} that the audit's test {@code t} would have flagged against a claimed
     * {@code claimDelta} with probability at least {@value #PROBABILITY} (see the class comment), rounded up; {@code
     * +inf} when none would be.
     */
    public static double detectableDelta(SelectedTest t, double epsilon, double claimDelta) {
        return detectableDelta(t.trials(), t.otherTrials(), t.falsePositives(), t.errorLevelPerRate(),
                t.errorLevelPerRate(), epsilon, claimDelta);
    }

    /**
     * The statement of {@link #detectableDelta(SelectedTest, double, double)} for {@code n} trials of the flagged world,
     * {@code m} of the other with {@code falsePositives} observed, the flagged world's lower limit at error level
     * {@code flaggedLevel} and the other's upper limit at {@code otherLevel}.
     */
    static double detectableDelta(long n, long m, long falsePositives, double flaggedLevel, double otherLevel,
            double epsilon, double claimDelta) {
        double a = flaggedLevel;
        double b = (double) falsePositives / m;
        long y = upperQuantile(m, b, PER_COUNT);
        double fprUpper = ClopperPearson.upper(y, m, otherLevel);
        double logExcess = epsilon + Math.log(fprUpper); // log(e^eps FPR_upper), no overflow at eps = 1000
        if (logExcess >= 0) {
            return Double.POSITIVE_INFINITY;
        }
        double target = claimDelta + Math.exp(logExcess);
        if (!(target < 1) || !(ClopperPearson.lower(n, n, a) > target)) {
            return Double.POSITIVE_INFINITY;
        }
        long hi = smallestCountAbove(n, a, target);
        double tpr = ClopperPearson.upper(hi - 1, n, 1 - PER_COUNT); // P(Bin(n, tpr) >= hi) >= 0.95
        double base = b == 0 ? 0 : Math.exp(epsilon + Math.log(b));
        return SafeRounding.up(Math.max(0, tpr - base));
    }

    /**
     * The smallest count {@code x} in {@code [1, n]} whose Clopper–Pearson lower limit at level {@code a} exceeds
     * {@code target}, given that {@code n}'s does. The limit rises with the count, so this is a search for the first
     * {@code true} of a monotone predicate. It starts where the duality of the limits and the binomial distribution
     * puts the answer ({@code CP_lower(x) > t} exactly when {@code P(Bin(n, t) >= x) < a}, so {@code x} is about the
     * binomial's {@code 1 - a} quantile plus one), brackets it by steps of 1, 2, 4, ... from there and bisects: two
     * or three evaluations of the limit where a bisection over {@code [0, n]} took thirty. The answer is the
     * predicate's first {@code true}, the same whatever the start.
     */
    static long smallestCountAbove(long n, double a, double target) {
        long guess = Math.max(1, Math.min(n, upperQuantile(n, target, 1 - a) + 1));
        long lo; // CP_lower(lo) <= target (lo = 0: the limit of no count is 0)
        long hi; // CP_lower(hi) > target
        if (ClopperPearson.lower(guess, n, a) > target) {
            hi = guess;
            long step = 1;
            lo = hi - 1;
            while (lo > 0 && ClopperPearson.lower(lo, n, a) > target) {
                hi = lo;
                step *= 2;
                lo = Math.max(0, hi - step);
            }
        } else {
            lo = guess;
            long step = 1;
            hi = Math.min(n, lo + 1);
            while (hi < n && !(ClopperPearson.lower(hi, n, a) > target)) {
                lo = hi;
                step *= 2;
                hi = Math.min(n, lo + step);
            }
        }
        while (hi - lo > 1) {
            long mid = lo + (hi - lo) / 2;
            if (ClopperPearson.lower(mid, n, a) > target) {
                hi = mid;
            } else {
                lo = mid;
            }
        }
        return hi;
    }

    /**
     * {@link #detectableDelta(SelectedTest, double, double)} for the test certifying {@code bound}, by the form that
     * certified it: each world's own limits for independently sampled worlds, {@link PairedDetectionPower} for a bound
     * from coupled trials.
     */
    public static double detectableDelta(DeltaLowerBound bound, double epsilon, double claimDelta) {
        return bound.paired() != null ? PairedDetectionPower.detectableDelta(bound, epsilon, claimDelta)
                : detectableDelta(bound.test(), epsilon, claimDelta);
    }

    /**
     * The trials per world at which a test with the same rates as {@code t} would power the claim
     * {@code (epsilon, claimDelta)} ({@link EpsilonPower#powered}): the smallest {@code N = 2^k} times the present
     * trials ({@code k >= 1}), with the counts scaled in proportion; 0 when none up to {@value #MAX_RESOLVE_TRIALS}
     * trials per world does ({@link #scaleToResolve}).
     */
    public static long trialsToResolve(SelectedTest t, double epsilon, double claimDelta) {
        return trialsToResolve(new DeltaLowerBound(epsilon, 0, t), epsilon, claimDelta);
    }

    /**
     * {@link #trialsToResolve(SelectedTest, double, double)} for the test and form certifying {@code bound}
     * ({@link #detectableDelta(DeltaLowerBound, double, double)}): for coupled trials the joint counts are scaled.
     */
    public static long trialsToResolve(DeltaLowerBound bound, double epsilon, double claimDelta) {
        return bound.test().trials() * scaleToResolve(bound, epsilon, claimDelta);
    }

    /**
     * The factor {@code 2^k} ({@code k >= 1}) by which an audit's trials must grow, all counts of the test and form
     * certifying {@code bound} growing in proportion, for it to power the claim {@code (epsilon, claimDelta)}
     * ({@link EpsilonPower#powered}: a mechanism with {@value EpsilonPower#CONSISTENT_FACTOR} times the claimed ε
     * refuted with probability 0.9): the smallest such; 0 when none does before the scaled trials pass
     * {@value #MAX_RESOLVE_TRIALS} per world, the most any audit may run ({@link io.dpaudit.core.estimate.ClopperPearson#MAX_TRIALS}: beyond,
     * its confidence limits are not computed on their safe side).
     */
    public static long scaleToResolve(DeltaLowerBound bound, double epsilon, double claimDelta) {
        return EpsilonPower.scaleToResolve(bound, EpsilonPower.Candidates.none(bound.test().trials(),
                bound.test().errorLevelPerRate()), epsilon, claimDelta);
    }

    /** The bound's test and joint counts with every count and trial count multiplied by {@code scale}. */
    static DeltaLowerBound scaled(DeltaLowerBound bound, double scale) {
        SelectedTest t = bound.test();
        EpsilonLowerBound.PairedCounts p = bound.paired();
        SelectedTest scaled = new SelectedTest(t.direction(), t.edge(), t.threshold(),
                Math.round(t.truePositives() * scale), Math.round(t.falsePositives() * scale),
                Math.round(t.trials() * scale), Math.round(t.otherTrials() * scale), t.truePositiveRateLower(),
                t.falsePositiveRateUpper(), t.errorLevelPerRate());
        EpsilonLowerBound.PairedCounts scaledPaired = p == null ? null : new EpsilonLowerBound.PairedCounts(
                Math.round(p.both() * scale), Math.round(p.flaggedOnly() * scale), Math.round(p.otherOnly() * scale),
                p.errorLevel(), p.share());
        return new DeltaLowerBound(bound.epsilon(), bound.delta(), scaled, bound.certification(), scaledPaired);
    }

    /** Whether a ratio {@code detectable / claimed} of two sizes of the same kind (μ for f-DP) is inconclusive. */
    static boolean inconclusive(double detectable, double claimed) {
        if (!Double.isFinite(detectable)) {
            return true;
        }
        return claimed > 0 && detectable >= INCONCLUSIVE_FACTOR * claimed;
    }

    /**
     * The smallest {@code y} in {@code [0, n]} with {@code P(Binomial(n, r) <= y) >= prob}, with the binomial
     * distribution function {@code 1 - I_r(y + 1, n - y)}: from the normal approximation's count, steps of 1, 2, 4, ...
     * away from it until the answer is bracketed, then bisection — usually two or three evaluations of the incomplete
     * beta where a fixed bracket of four standard deviations took a dozen (the trade-off power asks for thousands of
     * quantiles per claim). The answer does not depend on the search: the distribution function is non-decreasing in
     * {@code y}.
     */
    static long upperQuantile(long n, double r, double prob) {
        if (!(r > 0)) {
            return 0;
        }
        if (r >= 1) {
            return n;
        }
        double mean = n * r;
        double sd = Math.sqrt(mean * (1 - r));
        double z = Math.sqrt(2) * org.apache.commons.math3.special.Erf.erfInv(2 * prob - 1);
        double guess = mean + (Double.isFinite(z) ? z : 0) * sd;
        long start = (long) Math.max(0, Math.min(n, Math.rint(guess)));
        long lo; // P(X <= lo) < prob, or lo = -1
        long hi; // P(X <= hi) >= prob
        if (cdf(start, n, r) >= prob) {
            hi = start;
            long step = 1;
            lo = start - 1;
            while (lo >= 0 && cdf(lo, n, r) >= prob) {
                hi = lo;
                step *= 2;
                lo = hi - step;
            }
            lo = Math.max(lo, -1);
        } else {
            lo = start;
            long step = 1;
            hi = Math.min(n, start + 1);
            while (hi < n && cdf(hi, n, r) < prob) {
                lo = hi;
                step *= 2;
                hi = Math.min(n, lo + step);
            }
        }
        while (hi - lo > 1) {
            long mid = lo + (hi - lo) / 2;
            if (cdf(mid, n, r) >= prob) {
                hi = mid;
            } else {
                lo = mid;
            }
        }
        return hi;
    }

    /**
     * Whether {@link #upperQuantile}{@code (n, r, prob)} is at most {@code y}, with one evaluation of the distribution
     * function: the quantile is the smallest count whose distribution function reaches {@code prob}, and the
     * distribution function is non-decreasing.
     */
    static boolean upperQuantileAtMost(long y, long n, double r, double prob) {
        if (!(r > 0)) {
            return y >= 0;
        }
        if (r >= 1) {
            return y >= n;
        }
        return cdf(y, n, r) >= prob;
    }

    /**
     * {@code P(Binomial(n, r) <= y) = 1 - I_r(y + 1, n - y)}: beyond 10^9 trials (the scaled tests of
     * {@link #scaleToResolve}) by the same Boost routine as the Clopper–Pearson limits there, computing the complement
     * directly (commons-math3's loses about {@code n 1e-16} relative); below, as always, so no earlier number moves.
     */
    static double cdf(long y, long n, double r) {
        if (y >= n) {
            return 1;
        }
        if (n > io.dpaudit.core.numerics.BetaQuantile.LARGE) {
            return org.apache.commons.numbers.gamma.RegularizedBeta.complement(r, y + 1.0, (double) (n - y));
        }
        return 1 - Beta.regularizedBeta(r, y + 1.0, (double) (n - y));
    }
}

package io.dpaudit.core.estimate;

import io.dpaudit.core.Checks;

/**
 * A lower confidence bound on {@code log((p - delta) / q)} for one fixed test from its two counts, by the conditional
 * test of the odds ratio: tighter than the ratio of two Clopper–Pearson limits, which spends the error level on both
 * rates separately.
 *
 * <p><b>Setting.</b> {@code X ~ Binomial(n, p)} true positives and {@code Y ~ Binomial(m, q)} false positives,
 * independent (the two worlds are simulated, or sampled, independently). {@code (epsilon, delta)}-DP implies
 * {@code p <= e^epsilon q + delta} for the test; the bound rejects {@code H0(e0): p <= e^e0 q + delta} for every
 * {@code e0} below it, at error level {@code a}.
 *
 * <p><b>The test.</b> Given the total {@code S = X + Y}, {@code X} has Fisher's noncentral hypergeometric law
 * {@code P(X = x | S) ∝ C(n, x) C(m, S - x) psi^x} with odds ratio {@code psi = [p / (1 - p)] / [q / (1 - q)]}, which
 * is free of the nuisance {@code q} only through {@code psi}; its upper tail grows with {@code psi} (monotone
 * likelihood ratio). Under {@code H0(e0)} with {@code r = e^e0},
 * {@code psi <= (r + delta / q) (1 - q) / (1 - r q - delta)}, the first factor decreasing and the second increasing in
 * {@code q}. Berger &amp; Boos (1994, JASA 89:1012) handle the nuisance: with {@code [q_L, q_U]} the two-sided
 * Clopper–Pearson interval of {@code q} from {@code Y} at error level {@code g = NUISANCE_SHARE · a}
 * ({@code g/2} each side; at {@code delta = 0} only {@code q_U} at {@code g} is needed),
 * {@code psi_max = (r + delta / q_L) (1 - q_U) / (1 - r q_U - delta)} bounds {@code psi} whenever {@code q} is in the
 * interval, and the p-value {@code P_{psi_max}(X >= x | S) + g} is valid: {@code P(reject) <= P(q outside) +
 * P(P_psi(X >= x | S) <= a - g) <= g + (a - g)}. The p-value grows with {@code e0}, so the rejected {@code e0} form an
 * interval; its supremum, found by bisection and returned from the rejected side, is the bound: with probability at
 * least {@code 1 - a} it does not exceed {@code log((p - delta) / q)}, hence not the ε of any {@code (ε, delta)}-DP
 * guarantee the mechanism has.
 *
 * <p><b>Gain.</b> For rare events the two counts are nearly Poisson and the conditional law nearly
 * {@code Binomial(S, p / (p + q))}: the bound loses about {@code z_a sqrt(1/x + 1/y)} to sampling error where two
 * Clopper–Pearson limits lose {@code z_{a/2} (sqrt(1/x) + sqrt(1/y))} — at 95%, 2.33 against 3.92 in units of
 * {@code 1/sqrt(x)} when the counts are similar. The correction {@code (1 - q) / (1 - r q)} is what makes the test exact
 * for binomials rather than for the Poisson limit, where it would be anti-conservative once {@code q} is not small. The
 * cap {@code r < (1 - delta) / q_U} makes it weaker than Clopper–Pearson when the true-positive rate is near 1 and
 * there are no false positives; {@link EmpiricalEstimator} chooses between the two on the selection trials.
 *
 * <p><b>Numerics.</b> The conditional law is summed term by term outward from its mode with the ratio recurrence
 * {@code f(x + 1) / f(x) = (n - x)(S - x) psi / ((x + 1)(m - S + x + 1))} (no logarithms or gamma functions; the
 * accumulated rounding is about {@code 1e-16} times the number of terms, at most a few 10^5), until terms fall below
 * {@code 1e-22} of the mode's; the law is log-concave, so the neglected upper tail is bounded by a geometric series,
 * which is added to the tail, and the neglected mass of the normaliser is left out: both errors enlarge the p-value.
 * A p-value is counted as rejecting only below {@code (a - g)(1 - 1e-9)}.
 */
public final class ConditionalEpsilonBound {
    /** Share of the error level spent on the nuisance rate's confidence interval (Berger–Boos), fixed in advance. */
    public static final double NUISANCE_SHARE = 0.05;

    private static final double NEGLIGIBLE_TERM = 1e-22;
    private static final double REJECT_MARGIN = 1 - 1e-9;
    private static final int BISECTION_STEPS = 64;

    private ConditionalEpsilonBound() {
    }

    /**
     * The lower bound on {@code log((p - delta) / q)} at error level {@code level}, or 0 when the counts reject no
     * {@code e0 >= 0}.
     *
     * @param truePositives {@code x}, trials of the flagged world in the test's set
     * @param positiveTrials {@code n}
     * @param falsePositives {@code y}, trials of the other world in the test's set
     * @param negativeTrials {@code m}
     * @param delta {@code delta} in {@code [0, 1)}
     * @param level the error level {@code a} in {@code (0, 1)}
     */
    public static double epsilon(long truePositives, long positiveTrials, long falsePositives, long negativeTrials,
            double delta, double level) {
        check(truePositives, positiveTrials, "truePositives");
        check(falsePositives, negativeTrials, "falsePositives");
        Checks.deltaOrZero("delta", delta);
        if (!(level > 0 && level < 1)) {
            throw new IllegalArgumentException("level must be in (0, 1), got " + level);
        }
        if (truePositives == 0) {
            return 0.0;
        }
        double nuisance = NUISANCE_SHARE * level;
        double testLevel = (level - nuisance) * REJECT_MARGIN;
        double qUpper;
        double qLower;
        if (delta == 0) {
            qUpper = ClopperPearson.upper(falsePositives, negativeTrials, nuisance);
            qLower = Double.NaN;
        } else {
            if (falsePositives == 0) {
                return 0.0; // q_L = 0: delta / q_L is unbounded
            }
            qUpper = ClopperPearson.upper(falsePositives, negativeTrials, nuisance / 2);
            qLower = ClopperPearson.lower(falsePositives, negativeTrials, nuisance / 2);
            if (!(qLower > 0)) {
                return 0.0;
            }
        }
        double logCap = Math.log((1 - delta) / qUpper); // r q_U + delta < 1
        if (!(logCap > 0)) {
            return 0.0;
        }
        PValue p = new PValue(truePositives, positiveTrials, negativeTrials, truePositives + falsePositives, delta,
                qLower, qUpper);
        if (!(p.at(0.0) <= testLevel)) {
            return 0.0;
        }
        double lo = 0.0;
        double hi = logCap;
        for (int i = 0; i < BISECTION_STEPS && hi - lo > 1e-13 * Math.max(1.0, lo); i++) {
            double mid = 0.5 * (lo + hi);
            if (p.at(mid) <= testLevel) {
                lo = mid;
            } else {
                hi = mid;
            }
        }
        return lo;
    }

    /** The p-value of {@code H0(e0)} as a function of {@code e0}, before the nuisance share is added. */
    private record PValue(long x, long n, long m, long s, double delta, double qLower, double qUpper) {
        double at(double e0) {
            double r = Math.exp(e0);
            double denominator = 1 - r * qUpper - delta;
            if (!(denominator > 0)) {
                return 1.0;
            }
            double first = delta == 0 ? r : r + delta / qLower;
            double psi = first * (1 - qUpper) / denominator;
            return upperTail(x, n, m, s, psi);
        }
    }

    /**
     * {@code P(X >= x)} for Fisher's noncentral hypergeometric law of {@code X} given {@code X + Y = s}, {@code X} out
     * of {@code n} and {@code Y} out of {@code m}, odds ratio {@code psi}; never below the exact value (see the class
     * comment).
     */
    static double upperTail(long x, long n, long m, long s, double psi) {
        long low = Math.max(0, s - m);
        long high = Math.min(n, s);
        if (x <= low) {
            return 1.0;
        }
        if (x > high) {
            return 0.0;
        }
        if (!(psi < Double.POSITIVE_INFINITY)) {
            return 1.0; // all mass at the top of the support
        }
        long mode = mode(n, m, s, psi, low, high);
        double total = 1.0;
        double tail = mode >= x ? 1.0 : 0.0;
        // upward from the mode
        double term = 1.0;
        long k = mode;
        while (k < high) {
            double ratio = ratio(k, n, m, s, psi);
            term *= ratio;
            k++;
            total += term;
            if (k >= x) {
                tail += term;
            }
            if (term < NEGLIGIBLE_TERM) {
                if (k < high) {
                    double next = ratio(k, n, m, s, psi); // below 1 past the mode, decreasing (log-concave)
                    tail += term * next / (1 - next);
                }
                break;
            }
        }
        // downward from the mode (the neglected lower mass is left out of the total: the p-value only grows)
        term = 1.0;
        k = mode;
        while (k > low) {
            double ratio = ratio(k - 1, n, m, s, psi);
            term /= ratio;
            k--;
            if (term < NEGLIGIBLE_TERM) {
                break;
            }
            total += term;
            if (k >= x) {
                tail += term;
            }
        }
        return Math.min(1.0, tail / total);
    }

    /** {@code f(k + 1) / f(k)}. */
    private static double ratio(long k, long n, long m, long s, double psi) {
        return (double) (n - k) * (double) (s - k) * psi / ((double) (k + 1) * (double) (m - s + k + 1));
    }

    /**
     * The mode: the root {@code mu} of {@code mu (m - s + mu) = psi (n - mu)(s - mu)} in its stable form, then moved to
     * where the ratio crosses 1.
     */
    static long mode(long n, long m, long s, double psi, long low, long high) {
        double b = (double) (m - s) + psi * ((double) n + (double) s);
        double c = psi * (double) n * (double) s;
        double disc = b * b - 4 * (psi - 1) * c;
        double mu = 2 * c / (b + Math.sqrt(Math.max(0.0, disc)));
        long k = Math.max(low, Math.min(high, (long) Math.floor(mu)));
        while (k < high && ratio(k, n, m, s, psi) > 1) {
            k++;
        }
        while (k > low && ratio(k - 1, n, m, s, psi) < 1) {
            k--;
        }
        return k;
    }

    private static void check(long count, long trials, String field) {
        if (trials <= 0 || count < 0 || count > trials) {
            throw new IllegalArgumentException(field + " must be in [0, trials], got " + count + " of " + trials);
        }
    }
}

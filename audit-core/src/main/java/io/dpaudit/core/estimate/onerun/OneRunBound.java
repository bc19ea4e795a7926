package io.dpaudit.core.estimate.onerun;

import io.dpaudit.core.Checks;
import io.dpaudit.core.InvalidInputException;
import io.dpaudit.core.numerics.Interruption;
import org.apache.commons.math3.special.Beta;
import org.apache.commons.math3.special.Gamma;

/**
 * The ε lower bound of auditing in one training run (Steinke, Nasr &amp; Jagielski, "Privacy Auditing with One (1)
 * Training Run", NeurIPS 2023, arXiv 2305.08846, Theorem 3.1 and its approximate-DP form, Proposition 5.2 as
 * jax_privacy implements it).
 *
 * <p>Setting: {@code m} canaries, each included in the training data independently with probability 1/2; after
 * training, the auditor guesses "included" for {@code r} of them (a function of the trained model only, e.g. the
 * {@code r} highest scores) and {@code v} guesses are right. If training is {@code (eps, delta)}-DP with respect to
 * each canary, then with {@code q = e^eps / (1 + e^eps)} and {@code F(x) = P[Binomial(r, q) >= x]},
 * <pre>
 *   P[V >= v] <= F(v) + 2 m delta max_{i = 1..v} (F(v - i) - F(v)) / i   =: p(eps).
 * </pre>
 * So {@code p(eps) <= a} rejects {@code (eps, delta)}-DP at level {@code a}. The reported bound is the first {@code eps}
 * at which the test stops rejecting, searched upward from 0 — the largest {@code eps} such that every {@code eps' <=
 * eps} is rejected — so that the rejection regions are nested whatever the shape of {@code p} and the bound exceeds the
 * true {@code eps} with probability at most {@code a}. For {@code delta = 0}, {@code p = F(v)} increases with {@code q},
 * and the first crossing is found by bisection to 1e-9; for {@code delta > 0} upward steps of 0.01 in {@code eps} find
 * the first failing step and bisection inside it locates the crossing, rounded down.
 *
 * <p>Binomial tails are computed as regularized incomplete beta functions (commons-math3), sums of the probability
 * mass function in log space; each p-value is raised by the tail's relative error ({@code 4e-16 r}) and {@code 1e-12}
 * against round-off, so the bound is rounded down.
 */
public final class OneRunBound {
    /** Largest number of canaries. */
    public static final long MAX_CANARIES = 100_000_000L;
    private static final double SLACK = 1e-12;
    private static final double MAX_EPSILON = 200;

    private OneRunBound() {
    }

    /**
     * The p-value {@code p(eps)} above.
     *
     * @param m canaries in all
     * @param r guesses
     * @param v correct guesses, {@code 0 <= v <= r <= m}
     */
    public static double pValue(long m, long r, long v, double epsilon, double delta) {
        if (v <= 0) {
            return 1.0;
        }
        double logQ = -Math.log1p(Math.exp(-epsilon)); // log q
        double logNotQ = -Math.log1p(Math.exp(epsilon)); // log (1 - q)
        double q = Math.exp(logQ);

        double tail = upperTail(r, v, q);
        // commons-math3's incomplete beta is accurate to about r * 1e-16 relative (BinomialTail's javadoc): charged.
        tail = tail * (1 + 4e-16 * r) + SLACK;
        if (delta == 0) {
            return Math.min(1.0, tail);
        }
        // F(v - i) - F(v) = sum_{j = v-i}^{v-1} pmf(j), accumulated downward from j = v - 1; pmf(j - 1) = pmf(j)
        // j (1-q) / ((r - j + 1) q). Below the mode the pmf decreases as j does, so once a term is below the running
        // average (F(v-i) - F(v)) / i, no later i raises the average again: stop there.
        double mode = (r + 1) * q;
        long top = v - 1;
        double logPmf = Gamma.logGamma(r + 1.0) - Gamma.logGamma(top + 1.0) - Gamma.logGamma(r - top + 1.0)
                + top * logQ + (r - top) * logNotQ;
        double partial = 0;
        double best = 0;
        for (long i = 1; i <= v; i++) {
            long j = v - i;
            double pmf = Math.exp(logPmf);
            if (j < mode && pmf < best && i > 1) {
                break;
            }
            partial += pmf;
            best = Math.max(best, partial / i);
            if (j > 0) {
                logPmf += Math.log((double) j / (r - j + 1)) + logNotQ - logQ;
            }
            if ((i & 0xffff) == 0) {
                Interruption.check("one-run p-value");
            }
        }
        return Math.min(1.0, tail + 2.0 * m * delta * best * (1 + 1e-12));
    }

    /** {@code P[Binomial(r, q) >= v]}, {@code 1 <= v <= r}: the regularized incomplete beta {@code I_q(v, r - v + 1)}. */
    static double upperTail(long r, long v, double q) {
        if (v > r) {
            return 0.0;
        }
        if (q >= 1.0) {
            return 1.0;
        }
        return Beta.regularizedBeta(q, v, r - v + 1.0, 1e-15, 100_000);
    }

    /**
     * The ε lower bound at level {@code a}: 0 when even {@code eps = 0} is not rejected.
     *
     * @param m canaries in all
     * @param r guesses
     * @param v correct guesses
     * @param delta the δ of the hypothesis, in [0, 1)
     * @param a the test's level, in (0, 1)
     */
    public static double epsilonLowerBound(long m, long r, long v, double delta, double a) {
        if (m < 1 || m > MAX_CANARIES || r < 0 || r > m || v < 0 || v > r) {
            throw new InvalidInputException("one-run counts", "m = " + m + ", r = " + r + ", v = " + v,
                    "need 0 <= v <= r <= m <= " + MAX_CANARIES);
        }
        Checks.deltaOrZero("delta", delta);
        if (!(a > 0 && a < 1)) {
            throw new InvalidInputException("level", a, "must be in (0, 1)");
        }
        if (pValue(m, r, v, 0, delta) > a) {
            return 0.0;
        }
        double lo = 0;
        double hi;
        if (delta == 0) {
            hi = 1;
            while (hi < MAX_EPSILON && pValue(m, r, v, hi, 0) <= a) {
                lo = hi;
                hi *= 2;
            }
            if (hi >= MAX_EPSILON && pValue(m, r, v, MAX_EPSILON, 0) <= a) {
                return MAX_EPSILON;
            }
        } else {
            double step = 0.01;
            hi = step;
            while (hi < MAX_EPSILON && pValue(m, r, v, hi, delta) <= a) {
                lo = hi;
                hi += step;
                Interruption.check("one-run epsilon");
            }
            if (hi >= MAX_EPSILON) {
                return lo;
            }
        }
        for (int k = 0; k < 80 && hi - lo > 1e-9 * Math.max(1, lo); k++) {
            double mid = 0.5 * (lo + hi);
            if (pValue(m, r, v, mid, delta) <= a) {
                lo = mid;
            } else {
                hi = mid;
            }
        }
        return lo;
    }
}

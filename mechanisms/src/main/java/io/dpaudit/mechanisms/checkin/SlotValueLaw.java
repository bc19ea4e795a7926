package io.dpaudit.mechanisms.checkin;

import io.dpaudit.core.InvalidInputException;
import io.dpaudit.core.numerics.LogSpace;
import java.util.Arrays;
import java.util.Locale;
import org.apache.commons.math3.distribution.BinomialDistribution;
import org.apache.commons.math3.special.Gamma;

/**
 * Random check-ins with a fixed window (Balle et al., seed 004, Algorithm 1), reduced to what the releases depend on:
 * the law of {@code U}, the number of the {@code m} slots whose release is computed from a record holding the
 * <i>high</i> value (the target's value in {@code D}).
 *
 * <p>Each of the {@code n} clients checks in with probability {@code p0} at a uniform slot; a slot with check-ins uses
 * one of them uniformly, an empty slot uses the dummy record. Clients hold one of two values, high or low. Let
 * {@code a} clients hold high and {@code b} low. Then:
 * <ul>
 *   <li>{@code A ~ Binomial(a, p0)} high and {@code B ~ Binomial(b, p0)} low clients check in, independently;</li>
 *   <li>their {@code N = A + B} check-ins fall on uniform slots, so the number {@code O} of occupied slots has the
 *       occupancy law of {@code N} balls in {@code m} boxes (computed by the recursion
 *       {@code P_{N+1}(o) = P_N(o) o/m + P_N(o-1)(m-o+1)/m});</li>
 *   <li>slots are chosen independently of values, so the records used by the {@code O} occupied slots are a uniform
 *       {@code O}-subset of the {@code N} checked-in clients: {@code H ~ Hypergeometric(N, A, O)} of them are high;</li>
 *   <li>{@code U = H + d (m - O)}, {@code d} = 1 when the dummy holds the high value.</li>
 * </ul>
 * Binomial and hypergeometric terms come from log-gamma; terms below {@code 10^-40} are skipped, and the mass they
 * carry is bounded by {@link #droppedMass()}. Cost about {@code |A| |B| |O| |H|} over the non-negligible ranges plus
 * the occupancy recursion up to the largest {@code N}, {@code O(N_max m)}; both are checked before any work.
 */
final class SlotValueLaw {
    private static final double LOG_NEGLIGIBLE = Math.log(1e-40);
    /** Largest work accepted for the occupancy recursion and for the quadruple sum. */
    static final double MAX_WORK = 4e8;

    private final double[] logU;
    private final double dropped;

    /**
     * @param n clients, {@code >= 1}
     * @param m slots, {@code >= 1}
     * @param p0 check-in probability
     * @param high clients holding the high value
     * @param dummyHigh whether the dummy record holds the high value
     */
    SlotValueLaw(int n, int m, double p0, int high, boolean dummyHigh) {
        int low = n - high;
        int[] aRange = range(high, p0);
        int[] bRange = range(low, p0);
        int nLo = aRange[0] + bRange[0];
        int nHi = aRange[1] + bRange[1];
        double work = work(n, m, p0, high);
        if (work > MAX_WORK) {
            throw new InvalidInputException("mechanism.clients", n, String.format(Locale.ROOT, "with slots = %d, "
                    + "p0 = %s and this dataset the exact law of the releases needs about %.2g operations, more than "
                    + "the %.0e it is computed for; use fewer clients or slots, or the canonical dataset", m, p0,
                    work, MAX_WORK));
        }
        double[][] occupancy = occupancy(m, nLo, nHi);
        double[] logA = binomialLogs(high, p0, aRange);
        double[] logB = binomialLogs(low, p0, bRange);
        double[] acc = new double[m + 1];
        Arrays.fill(acc, Double.NEGATIVE_INFINITY);
        for (int a = aRange[0]; a <= aRange[1]; a++) {
            for (int b = bRange[0]; b <= bRange[1]; b++) {
                double lab = logA[a - aRange[0]] + logB[b - bRange[0]];
                if (lab < LOG_NEGLIGIBLE) {
                    continue;
                }
                int total = a + b;
                double[] occ = occupancy[total - nLo];
                for (int o = 0; o <= Math.min(total, m); o++) {
                    if (!(occ[o] > 0)) {
                        continue;
                    }
                    double lo = lab + Math.log(occ[o]);
                    if (lo < LOG_NEGLIGIBLE) {
                        continue;
                    }
                    for (int h = Math.max(0, o - b); h <= Math.min(a, o); h++) {
                        double lh = logHypergeometric(total, a, o, h);
                        int u = h + (dummyHigh ? m - o : 0);
                        acc[u] = LogSpace.add(acc[u], lo + lh);
                    }
                }
            }
        }
        double total = LogSpace.sum(acc, 0, acc.length);
        this.logU = Arrays.stream(acc).map(x -> x - total).toArray();
        // Every skipped term is below 1e-40 and there are at most (a + 1)(b + 1)(m + 1)^2 of them; the four binomial
        // tails beyond the ranges carry less than 1.3e-24 each.
        this.dropped = Math.min(1.0, 1e-40 * (high + 1.0) * (low + 1.0) * (m + 1.0) * (m + 1.0) + 6e-24);
    }

    /** The operations the law needs: the larger of the occupancy recursion and the quadruple sum. */
    static double work(int n, int m, double p0, int high) {
        int[] aRange = range(high, p0);
        int[] bRange = range(n - high, p0);
        int nHi = aRange[1] + bRange[1];
        double occupancyWork = (double) nHi * (m + 1);
        double sumWork = (aRange[1] - aRange[0] + 1.0) * (bRange[1] - bRange[0] + 1.0)
                * Math.min(m + 1.0, nHi + 1.0) * (Math.min(Math.min(aRange[1], bRange[1]), m) + 1.0);
        return Math.max(occupancyWork, sumWork);
    }

    /**
     * The non-negligible range of {@code Binomial(trials, p)}: its mean plus and minus {@code 40 sd + 40}. By
     * Bernstein's inequality each tail beyond carries less than {@code e^-55 < 1.3e-24}.
     */
    static int[] range(int trials, double p) {
        double mean = trials * p;
        double reach = 40 * Math.sqrt(mean * (1 - p)) + 40;
        return new int[] {(int) Math.max(0, Math.floor(mean - reach)), (int) Math.min(trials, Math.ceil(mean + reach))};
    }

    private static double[] binomialLogs(int trials, double p, int[] r) {
        double[] l = new double[r[1] - r[0] + 1];
        if (p == 1.0) {
            Arrays.fill(l, Double.NEGATIVE_INFINITY);
            if (trials >= r[0] && trials <= r[1]) {
                l[trials - r[0]] = 0.0;
            }
            return l;
        }
        BinomialDistribution d = new BinomialDistribution(null, trials, p);
        for (int x = r[0]; x <= r[1]; x++) {
            l[x - r[0]] = d.logProbability(x);
        }
        return l;
    }

    /** Occupancy laws of {@code N} balls in {@code m} boxes for {@code N} in {@code [lo, hi]}: rows of length m+1. */
    private static double[][] occupancy(int m, int lo, int hi) {
        double[][] rows = new double[hi - lo + 1][];
        double[] p = new double[m + 1];
        p[0] = 1.0;
        double[] next = new double[m + 1];
        for (int balls = 0; balls <= hi; balls++) {
            if (balls >= lo) {
                rows[balls - lo] = p.clone();
            }
            Arrays.fill(next, 0.0);
            for (int o = 0; o <= Math.min(balls, m); o++) {
                if (p[o] == 0) {
                    continue;
                }
                next[o] += p[o] * o / m;
                if (o < m) {
                    next[o + 1] += p[o] * (m - o) / (double) m;
                }
            }
            double[] t = p;
            p = next;
            next = t;
        }
        return rows;
    }

    /**
     * {@code log P(H = h)} for {@code H ~ Hypergeometric(total, a, o)}: {@code o} of {@code total} balls drawn, {@code a}
     * of them high. Written with the rarer colour's count {@code k = min(a, total - a)}, as
     * {@code C(o, j) C(total - o, k - j) / C(total, k)} with {@code j} the rare balls drawn, each binomial a product of
     * at most {@code k} ratios: exact to a few ulps per factor when one colour is rare (the named datasets), where
     * log-gamma differences of large arguments would lose about {@code 1e-9}.
     */
    static double logHypergeometric(int total, int a, int o, int h) {
        int b = total - a;
        if (a <= b) {
            return logChoose(o, h) + logChoose(total - o, a - h) - logChoose(total, a);
        }
        int g = o - h;
        return logChoose(o, g) + logChoose(total - o, b - g) - logChoose(total, b);
    }

    /** {@code log C(n, k)} as a sum of {@code min(k, n - k)} log-ratios. */
    static double logChoose(int n, int k) {
        if (k < 0 || k > n) {
            return Double.NEGATIVE_INFINITY;
        }
        int j = Math.min(k, n - k);
        if (j > 1000) {
            return Gamma.logGamma(n + 1.0) - Gamma.logGamma(k + 1.0) - Gamma.logGamma(n - k + 1.0);
        }
        double s = 0;
        for (int i = 0; i < j; i++) {
            s += Math.log((double) (n - i) / (i + 1));
        }
        return s;
    }

    /** {@code log P(U = u)} for {@code u = 0..m}. */
    double[] logProbabilities() {
        return logU.clone();
    }

    /** A bound on the probability of the terms left out as below 1e-40. */
    double droppedMass() {
        return dropped;
    }
}

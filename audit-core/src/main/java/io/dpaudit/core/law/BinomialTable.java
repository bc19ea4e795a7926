package io.dpaudit.core.law;

import io.dpaudit.core.numerics.LogSpace;
import org.apache.commons.math3.special.Gamma;
import org.apache.commons.rng.UniformRandomProvider;

/**
 * The Binomial(n, r) law as a table: probabilities (computed in log space with log-gamma, relative error about
 * 1e-15), dropping the tails beyond the first and last index with probability at least 1e-40, and the cumulative
 * sums used for sampling by inversion (one {@code nextDouble()} and a binary search per draw). Inversion on a table
 * of exact probabilities is exact to double rounding — unlike alias or Marsaglia–Tsang–Wang tables, which round
 * probabilities to multiples of 2^-31 or so.
 */
public final class BinomialTable {
    private static final double LOG_NEGLIGIBLE = Math.log(1e-40);

    private final int first;
    private final double[] probabilities;
    private final double[] cumulative;

    /** The table of {@code Binomial(n, r)}: its probabilities and distribution function at {@code 0..n}. */
    public BinomialTable(int n, double r) {
        if (n < 0 || !(r >= 0 && r <= 1)) {
            throw new IllegalArgumentException("Binomial(" + n + ", " + r + ")");
        }
        double[] logP = new double[n + 1];
        if (r == 0 || r == 1) {
            java.util.Arrays.fill(logP, Double.NEGATIVE_INFINITY);
            logP[r == 0 ? 0 : n] = 0;
        } else {
            double lr = Math.log(r);
            double l1r = Math.log1p(-r);
            double lgN = Gamma.logGamma(n + 1.0);
            for (int k = 0; k <= n; k++) {
                logP[k] = lgN - Gamma.logGamma(k + 1.0) - Gamma.logGamma(n - k + 1.0) + k * lr + (n - k) * l1r;
            }
        }
        int lo = 0;
        while (logP[lo] < LOG_NEGLIGIBLE) {
            lo++;
        }
        int hi = n;
        while (logP[hi] < LOG_NEGLIGIBLE) {
            hi--;
        }
        double logTotal = LogSpace.sum(logP, lo, hi + 1);
        this.first = lo;
        this.probabilities = new double[hi - lo + 1];
        this.cumulative = new double[hi - lo + 1];
        double acc = 0;
        for (int k = lo; k <= hi; k++) {
            probabilities[k - lo] = Math.exp(logP[k] - logTotal);
            acc += probabilities[k - lo];
            cumulative[k - lo] = acc;
        }
        cumulative[cumulative.length - 1] = 1.0;
    }

    /** Smallest value kept. */
    public int first() {
        return first;
    }

    /** Number of values kept. */
    public int size() {
        return probabilities.length;
    }

    /** Probability of value {@code first() + i}. */
    public double probability(int i) {
        return probabilities[i];
    }

    /** One draw: the smallest k with {@code F(k) > U}, {@code U = nextDouble()}. */
    public int sample(UniformRandomProvider rng) {
        double u = rng.nextDouble();
        int lo = 0;
        int hi = cumulative.length - 1;
        while (lo < hi) {
            int mid = (lo + hi) >>> 1;
            if (cumulative[mid] > u) {
                hi = mid;
            } else {
                lo = mid + 1;
            }
        }
        return first + lo;
    }
}

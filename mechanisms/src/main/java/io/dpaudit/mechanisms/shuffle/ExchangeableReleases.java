package io.dpaudit.mechanisms.shuffle;

import io.dpaudit.core.law.DiscreteLaw;
import io.dpaudit.core.law.StatisticLaw;
import io.dpaudit.core.numerics.LogSpace;
import java.util.Arrays;
import org.apache.commons.math3.distribution.BinomialDistribution;

/**
 * Releases that are exchangeable and each computed from one of two input values — <i>high</i> (the target's value in
 * {@code D}) or <i>low</i>: {@code m} releases of which {@code U} come from a high input, {@code U} having a known law in
 * each world (check-ins, sliding windows and shuffles with a dataset of two values all reduce to this). Given
 * {@code U}, the releases are independent; their multiset is sufficient for the world.
 *
 * <ul>
 *   <li><b>Randomized response</b> ({@link #randomizedResponse}): the number {@code K} of ones is sufficient. A high
 *       release is {@code Bernoulli(p1)} and a low one {@code Bernoulli(q1)}, {@code p1 = e^eps0/(1 + e^eps0) = 1 -
 *       q1}; writing {@code Bernoulli(p1)} as "1 with probability {@code w = 1 - e^-eps0}, else Bernoulli(q1)", the
 *       number of forced ones is {@code F ~ Binomial(U, w)} and {@code K = F + Binomial(m - F, q1)}: two binomial
 *       mixtures, exact, with {@code O(m^1.5)} terms instead of a convolution per value of {@code U}.</li>
 *   <li><b>Gaussian randomizer</b> ({@link #gaussian}): a high release is {@code N(mu_H, s^2)}, a low one
 *       {@code N(mu_L, s^2)}; the density of the releases is {@code prod_i phi_L(y_i) sum_u P(U = u) e_u(r)/C(m, u)},
 *       with {@code r_i = phi_H(y_i)/phi_L(y_i)} and {@code e_u} the elementary symmetric polynomials (a uniformly random
 *       {@code u}-subset of the releases is the high one).</li>
 * </ul>
 */
public final class ExchangeableReleases {
    private static final double LOG_NEGLIGIBLE = Math.log(1e-40);
    /**
     * A bound on the probability {@link #randomizedResponse} leaves out: binomial tails beyond 40 sd + 40 (each below
     * 1.3e-24 by Bernstein's inequality, two per stage, two stages) and mixture components below e^-192.
     */
    public static final double DROPPED_MASS = 1e-23;

    private final int m;
    private final double[] logUWith;
    private final double[] logUWithout;

    /**
     * @param m number of releases
     * @param logUWith {@code log P(U = u)}, {@code u = 0..m}, in {@code D}
     * @param logUWithout the same in {@code D'}
     */
    public ExchangeableReleases(int m, double[] logUWith, double[] logUWithout) {
        if (logUWith.length != m + 1 || logUWithout.length != m + 1) {
            throw new IllegalArgumentException("laws of U over 0.." + m + " required");
        }
        this.m = m;
        this.logUWith = logUWith.clone();
        this.logUWithout = logUWithout.clone();
    }

    /** Number of releases. */
    public int releases() {
        return m;
    }

    /** {@code log P(U = u)} in {@code D} ({@code withCanary}) or {@code D'}. */
    public double[] logU(boolean withCanary) {
        return (withCanary ? logUWith : logUWithout).clone();
    }

    /** The laws of the number of ones {@code K in [0, m]} under randomized response with {@code eps0}, {D, D'}. */
    public DiscreteLaw[] randomizedResponse(double eps0) {
        return new DiscreteLaw[] {ones(logUWith, eps0), ones(logUWithout, eps0)};
    }

    private DiscreteLaw ones(double[] logU, double eps0) {
        double w = -Math.expm1(-eps0);
        double q1 = 1.0 / (1.0 + Math.exp(eps0));
        double[] logF = new double[m + 1];
        Arrays.fill(logF, Double.NEGATIVE_INFINITY);
        for (int u = 0; u <= m; u++) {
            if (logU[u] < LOG_NEGLIGIBLE - 100) {
                continue;
            }
            addBinomial(logF, 0, u, w, logU[u]);
        }
        double[] logK = new double[m + 1];
        Arrays.fill(logK, Double.NEGATIVE_INFINITY);
        for (int f = 0; f <= m; f++) {
            if (logF[f] < LOG_NEGLIGIBLE - 100) {
                continue;
            }
            addBinomial(logK, f, m - f, q1, logF[f]);
        }
        double total = LogSpace.sum(logK, 0, logK.length);
        double[] normalised = Arrays.stream(logK).map(x -> x - total).toArray();
        return new DiscreteLaw(normalised, k -> k + " ones of " + m);
    }

    /** Adds {@code weight x Binomial(trials, p)} shifted by {@code offset} into {@code acc} (logs). */
    private static void addBinomial(double[] acc, int offset, int trials, double p, double logWeight) {
        if (trials == 0 || p == 0.0) {
            acc[offset] = LogSpace.add(acc[offset], logWeight);
            return;
        }
        if (p == 1.0) {
            acc[offset + trials] = LogSpace.add(acc[offset + trials], logWeight);
            return;
        }
        BinomialDistribution d = new BinomialDistribution(null, trials, p);
        double mean = trials * p;
        double reach = 40 * Math.sqrt(mean * (1 - p)) + 40; // each tail beyond: < 1.3e-24 (Bernstein)
        int from = (int) Math.max(0, Math.floor(mean - reach));
        int to = (int) Math.min(trials, Math.ceil(mean + reach));
        for (int x = from; x <= to; x++) {
            acc[offset + x] = LogSpace.add(acc[offset + x], logWeight + d.logProbability(x));
        }
    }

    /**
     * The laws of the releases under the Gaussian randomizer: a high input gives {@code N(meanHigh, sd^2)}, a low one
     * {@code N(meanLow, sd^2)}; {D, D'}.
     */
    public StatisticLaw[] gaussian(double meanHigh, double meanLow, double sd) {
        return new StatisticLaw[] {new GaussianReleaseLaw(m, logUWith, meanHigh, meanLow, sd),
            new GaussianReleaseLaw(m, logUWithout, meanHigh, meanLow, sd)};
    }

    /** The law of {@code m} exchangeable Gaussian releases of which {@code U} are high (see the class comment). */
    static final class GaussianReleaseLaw implements StatisticLaw {
        private static final double LOG_SQRT_2PI = 0.5 * Math.log(2 * Math.PI);
        private final int m;
        private final double[] logU;
        private final double[] logChooseM;
        private final int maxU;
        private final double meanHigh;
        private final double meanLow;
        private final double sd;

        GaussianReleaseLaw(int m, double[] logU, double meanHigh, double meanLow, double sd) {
            this.m = m;
            this.logU = logU.clone();
            int top = 0;
            for (int u = 0; u <= m; u++) {
                if (logU[u] > Double.NEGATIVE_INFINITY) {
                    top = u;
                }
            }
            this.maxU = top;
            this.logChooseM = new double[top + 1];
            for (int u = 1; u <= top; u++) {
                logChooseM[u] = logChooseM[u - 1] + Math.log((double) (m - u + 1) / u);
            }
            this.meanHigh = meanHigh;
            this.meanLow = meanLow;
            this.sd = sd;
        }

        @Override
        public int dimension() {
            return m;
        }

        @Override
        public double logDensity(double[] x, int offset) {
            double inv2 = 1.0 / (2 * sd * sd);
            double base = 0;
            // log e_u(r) for u = 0..maxU by the recurrence e_u <- e_u + r_i e_{u-1}, in logs; scalars for u <= 2
            // (the named datasets), an array only beyond.
            double e1 = Double.NEGATIVE_INFINITY;
            double e2 = Double.NEGATIVE_INFINITY;
            double[] e = maxU > 2 ? new double[maxU + 1] : null;
            if (e != null) {
                Arrays.fill(e, Double.NEGATIVE_INFINITY);
                e[0] = 0;
            }
            for (int i = 0; i < m; i++) {
                double y = x[offset + i];
                double low = -(y - meanLow) * (y - meanLow) * inv2;
                double logR = -(y - meanHigh) * (y - meanHigh) * inv2 - low;
                base += low;
                if (e == null) {
                    if (maxU == 2) {
                        e2 = LogSpace.add(e2, e1 + logR);
                    }
                    e1 = LogSpace.add(e1, logR);
                } else {
                    for (int u = Math.min(i + 1, maxU); u >= 1; u--) {
                        e[u] = LogSpace.add(e[u], e[u - 1] + logR);
                    }
                }
            }
            double mix = Double.NEGATIVE_INFINITY;
            for (int u = 0; u <= maxU; u++) {
                if (logU[u] > Double.NEGATIVE_INFINITY) {
                    double eu = e != null ? e[u] : (u == 0 ? 0.0 : u == 1 ? e1 : e2);
                    mix = LogSpace.add(mix, logU[u] + eu - logChooseM[u]);
                }
            }
            return base - m * (Math.log(sd) + LOG_SQRT_2PI) + mix;
        }
    }
}

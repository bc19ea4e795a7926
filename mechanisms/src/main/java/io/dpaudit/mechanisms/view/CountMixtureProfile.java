package io.dpaudit.mechanisms.view;

import io.dpaudit.core.bounds.BoundKind;
import io.dpaudit.core.bounds.PrivacyBound;
import io.dpaudit.core.numerics.LogSpace;
import io.dpaudit.core.numerics.Normal;
import io.dpaudit.core.numerics.SafeRounding;

/**
 * The exact privacy profile of {@code P = sum_k p_k N(k, s^2)} against {@code Q = N(m, s^2)}, every count k of P at
 * least m: the last iterate of a linear model whose canary adds 1 per step that draws it (K of them, with K's law
 * {@code p}), against the world where it adds m (0 when the canary is absent).
 *
 * <p>The privacy loss {@code L(x) = log sum_k p_k exp((k - m)(2x - k - m) / (2 s^2))} increases in x, so the
 * hockey-stick divergences are attained by half-lines (Neyman–Pearson) and, with {@code L(x_e) = eps} and
 * {@code L(x_a) = -eps},
 * <ul>
 *   <li>remove: {@code H_{e^eps}(P || Q) = sum_k p_k Phi-bar((x_e - k)/s) - e^eps Phi-bar((x_e - m)/s)};</li>
 *   <li>add: {@code H_{e^eps}(Q || P) = Phi((x_a - m)/s) - e^eps sum_k p_k Phi((x_a - k)/s)}, and 0 where
 *       {@code -eps <= log p_m} (no x has so small a loss);</li>
 * </ul>
 * and δ(ε) is the larger. The roots are found by bisection in x to the last bit; a root off by h changes the value by
 * O(h^2), since the derivative of {@code P(x > t) - e^eps Q(x > t)} in t vanishes at the root. Sums are taken in log
 * space (no overflow of {@code e^eps}), and δ is rounded up by a few ulps.
 *
 * <p>Core's {@link io.dpaudit.core.bounds.MixturePairProfile} computes the same divergences for any two mixtures, by
 * locating the sign changes on a grid of spacing s/64; the monotone loss here needs no grid, which keeps the profile
 * exact where that grid would be refused (σ = 1e-12: s/64 against a range of T E) and cheap at 10^3 components.
 */
public final class CountMixtureProfile implements PrivacyBound {
    private final String name;
    private final BoundKind kind;
    private final String source;
    private final CountLaw law;
    private final int m;
    private final double s;
    private final double[] logP;
    private final double[] a; // k - m
    private final double[] b; // k + m
    private final double logPm; // log p_m, -inf when m is not a count of P

    /**
     * @param law K's law in P (every count at least {@code m})
     * @param m the count of Q
     * @param s the noise standard deviation of the sum, in units of one step's contribution, {@code > 0}
     */
    public CountMixtureProfile(String name, BoundKind kind, String source, CountLaw law, int m, double s) {
        if (law.min() < m) {
            throw new IllegalArgumentException("every count of P must be at least m = " + m + "; got " + law.min());
        }
        if (!(s > 0) || Double.isInfinite(s)) {
            throw new IllegalArgumentException("s must be positive and finite: " + s);
        }
        this.name = name;
        this.kind = kind;
        this.source = source;
        this.law = law;
        this.m = m;
        this.s = s;
        int n = law.pmf().length;
        this.logP = new double[n];
        this.a = new double[n];
        this.b = new double[n];
        for (int i = 0; i < n; i++) {
            int k = law.min() + i;
            logP[i] = Math.log(law.pmf()[i]);
            a[i] = k - m;
            b[i] = k + m;
        }
        this.logPm = law.min() == m ? logP[0] : Double.NEGATIVE_INFINITY;
    }

    @Override
    public String name() {
        return name;
    }

    @Override
    public String source() {
        return source;
    }

    @Override
    public BoundKind kind() {
        return kind;
    }

    /** K's law in P. */
    public CountLaw law() {
        return law;
    }

    @Override
    public double delta(double epsilon) {
        return SafeRounding.upProbability(Math.max(remove(epsilon), add(epsilon)));
    }

    /** The privacy loss at x, {@code log dP/dQ (x)}. */
    double loss(double x) {
        double max = Double.NEGATIVE_INFINITY;
        double twoS2 = 2 * s * s;
        for (int i = 0; i < logP.length; i++) {
            max = Math.max(max, logP[i] + a[i] * (2 * x - b[i]) / twoS2);
        }
        if (max == Double.NEGATIVE_INFINITY) {
            return max;
        }
        double sum = 0;
        for (int i = 0; i < logP.length; i++) {
            sum += Math.exp(logP[i] + a[i] * (2 * x - b[i]) / twoS2 - max);
        }
        return max + Math.log(sum);
    }

    /** {@code H_{e^eps}(P || Q)}. */
    double remove(double epsilon) {
        if (law.isPoint() && law.min() == m) {
            return epsilon >= 0 ? 0.0 : -Math.expm1(epsilon);
        }
        if (epsilon < logPm) {
            return -Math.expm1(epsilon); // every x has a loss above eps
        }
        double x = root(epsilon);
        double[] terms = new double[logP.length];
        for (int i = 0; i < logP.length; i++) {
            terms[i] = logP[i] + Normal.logSf((x - law.min() - i) / s);
        }
        double la = LogSpace.sum(terms, 0, terms.length);
        double lb = epsilon + Normal.logSf((x - m) / s);
        return lb >= la ? 0.0 : Math.exp(la + LogSpace.log1mExp(lb - la));
    }

    /** {@code H_{e^eps}(Q || P)}. */
    double add(double epsilon) {
        if (law.isPoint() && law.min() == m) {
            return epsilon >= 0 ? 0.0 : -Math.expm1(epsilon);
        }
        if (-epsilon <= logPm) {
            return 0.0; // no x has a loss below -eps
        }
        double x = root(-epsilon);
        double[] terms = new double[logP.length];
        for (int i = 0; i < logP.length; i++) {
            terms[i] = logP[i] + Normal.logCdf((x - law.min() - i) / s);
        }
        double la = Normal.logCdf((x - m) / s);
        double lb = epsilon + LogSpace.sum(terms, 0, terms.length);
        return lb >= la ? 0.0 : Math.exp(la + LogSpace.log1mExp(lb - la));
    }

    /** The x at which the loss is {@code target} (it increases from {@code log p_m} to infinity). */
    private double root(double target) {
        double step = Math.max(s, 1.0);
        double lo = m;
        while (loss(lo) >= target) {
            lo -= step;
            step *= 2;
        }
        step = Math.max(s, 1.0);
        double hi = Math.max(m, law.max());
        while (loss(hi) < target) {
            hi += step;
            step *= 2;
        }
        for (int i = 0; i < 2000; i++) {
            double mid = 0.5 * (lo + hi);
            if (mid <= lo || mid >= hi) {
                break;
            }
            if (loss(mid) < target) {
                lo = mid;
            } else {
                hi = mid;
            }
        }
        return 0.5 * (lo + hi);
    }
}

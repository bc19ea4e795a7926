package io.dpaudit.mechanisms.shuffle;

import io.dpaudit.core.Checks;
import org.apache.commons.rng.UniformRandomProvider;

/**
 * k-ary randomized response (Kairouz, Bonawitz &amp; Ramage 2016): a category {@code x in {0..k-1}} is reported with
 * probability {@code e^eps0 / (e^eps0 + k - 1)} and each other category with {@code 1 / (e^eps0 + k - 1)}. The
 * likelihood ratio of any two inputs lies in {@code [e^-eps0, e^eps0]}, reached by {@code x = 0} against
 * {@code x' = 1}. Draws: one {@code nextDouble()}, and one {@code nextInt(k - 1)} when the report is not truthful.
 */
public final class KaryRandomizedResponse implements LocalRandomizer {
    private final double eps0;
    private final int k;
    private final double truth;

    /**
     * @param eps0 local privacy level, {@code > 0}
     * @param k number of categories, at least 2
     */
    public KaryRandomizedResponse(double eps0, int k) {
        this.eps0 = Checks.positive("eps0", eps0);
        this.k = Checks.atLeast("symbols", k, 2);
        this.truth = 1.0 / (1.0 + (k - 1) * Math.exp(-eps0));
    }

    @Override
    public String name() {
        return "krr";
    }

    @Override
    public double eps0() {
        return eps0;
    }

    @Override
    public int symbols() {
        return k;
    }

    @Override
    public int inputDimension() {
        return 1;
    }

    @Override
    public double[] law(double[] x, int offset) {
        int c = category(x[offset]);
        double[] p = new double[k];
        double other = (1 - truth) / (k - 1);
        java.util.Arrays.fill(p, other);
        p[c] = truth;
        return p;
    }

    @Override
    public int report(double[] x, int offset, UniformRandomProvider rng) {
        int c = category(x[offset]);
        if (rng.nextDouble() < truth) {
            return c;
        }
        int other = rng.nextInt(k - 1);
        return other >= c ? other + 1 : other;
    }

    private int category(double v) {
        if (!(v >= 0 && v < k) || v != Math.rint(v)) {
            throw new IllegalArgumentException("k-ary randomized response takes a category in [0, " + k + "), not "
                    + v);
        }
        return (int) v;
    }

    @Override
    public double[] target() {
        return new double[] {0};
    }

    @Override
    public double[] replacement() {
        return new double[] {1};
    }

    @Override
    public String describe() {
        return k + "-ary randomized response, eps0 = " + Checks.format(eps0);
    }
}

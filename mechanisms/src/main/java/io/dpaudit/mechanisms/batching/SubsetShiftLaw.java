package io.dpaudit.mechanisms.batching;

import io.dpaudit.core.law.StatisticLaw;
import io.dpaudit.core.numerics.FastExp;

/**
 * The law of a T-vector {@code x = shift 1_S + sigma Z}, {@code Z ~ N(0, I_T)}, with {@code S} a uniformly random
 * {@code k}-subset of the T coordinates ({@code k = 0}: no shift): the per-epoch output of a batch sampler that puts the
 * canary in {@code k} of T steps. Its density is {@code phi_sigma(x) e_k(w) / C(T, k) e^{-k shift^2 / (2 sigma^2)}}
 * with {@code w_i = e^{shift x_i / sigma^2}} and {@code e_k} the elementary symmetric polynomial; so the log-likelihood
 * ratio of two such laws with the same sigma costs O(T) for {@code k = 1} (one log-sum-exp pass) and O(Tk) in general
 * (the recursion {@code e_j <- e_j + w_i e_{j-1}} in log space), never the {@code C(T, k)} components of the mixture.
 *
 * <p>The Gaussian factor {@code phi_sigma(x)} is computed identically in both worlds, so it cancels exactly in a
 * likelihood ratio; the log-sum-exp is evaluated with the running maximum, to a few ulps of the result.
 */
final class SubsetShiftLaw implements StatisticLaw {
    private final int dimension;
    private final int k;
    private final double shift;
    private final double sigma;
    private final double constant; // -log C(T, k) - k shift^2 / (2 sigma^2) - T log(sigma sqrt(2 pi))
    /** Per-thread scratch of the recursion (k > 1): no allocation per evaluation. */
    private final ThreadLocal<double[]> scratch;

    SubsetShiftLaw(int dimension, int k, double shift, double sigma) {
        if (dimension < 1 || k < 0 || k > dimension || !(sigma > 0) || !Double.isFinite(shift)) {
            throw new IllegalArgumentException("bad subset-shift law: T " + dimension + ", k " + k + ", shift "
                    + shift + ", sigma " + sigma);
        }
        this.dimension = dimension;
        this.k = k;
        this.shift = shift;
        this.sigma = sigma;
        this.constant = -logBinomial(dimension, k) - k * shift * shift / (2 * sigma * sigma)
                - dimension * (Math.log(sigma) + 0.5 * Math.log(2 * Math.PI));
        int size = k + 1;
        this.scratch = ThreadLocal.withInitial(() -> new double[size]);
    }

    /** {@code k}, the number of coordinates shifted. */
    int k() {
        return k;
    }

    /** The shift of a chosen coordinate. */
    double shift() {
        return shift;
    }

    @Override
    public int dimension() {
        return dimension;
    }

    @Override
    public double logDensity(double[] x, int offset) {
        double squares = 0;
        for (int i = 0; i < dimension; i++) {
            double v = x[offset + i];
            squares += v * v;
        }
        double gaussian = -squares / (2 * sigma * sigma);
        if (k == 0 || shift == 0) {
            return constant + gaussian + (k == 0 ? 0 : logBinomial(dimension, k));
        }
        double a = shift / (sigma * sigma);
        return constant + gaussian + (k == 1 ? logSumExp(x, offset, a) : logElementarySymmetric(x, offset, a));
    }

    /**
     * Against another subset-shift law of the same dimension and sigma, the Gaussian factor cancels and is not
     * computed; for the pairs the samplers use — one shifted coordinate against none, or against one with half the
     * shift (the shuffle's 2 against 1) — one exponential per coordinate serves both worlds: {@code L = log e_k(w) -
     * log e_k'(w') + const} with {@code w'} a power of {@code w}. Otherwise the densities are subtracted.
     */
    @Override
    public double logRatio(StatisticLaw other, double[] x, int offset) {
        if (!(other instanceof SubsetShiftLaw o) || o.dimension != dimension || o.sigma != sigma) {
            return StatisticLaw.super.logRatio(other, x, offset);
        }
        double base = constant - o.constant;
        boolean mine = k > 0 && shift != 0;
        boolean theirs = o.k > 0 && o.shift != 0;
        if (!mine && !theirs) {
            return base + (k == 0 ? 0 : logBinomial(dimension, k)) - (o.k == 0 ? 0 : logBinomial(dimension, o.k));
        }
        double a = shift / (sigma * sigma);
        double oa = o.shift / (sigma * sigma);
        if (k == 1 && !theirs) {
            return base - (o.k == 0 ? 0 : logBinomial(dimension, o.k)) + logSumExp(x, offset, a);
        }
        if (k == 1 && o.k == 1 && shift == 2 * o.shift) {
            return base + logSumExpSquaredOverPlain(x, offset, oa);
        }
        return base + (mine ? (k == 1 ? logSumExp(x, offset, a) : logElementarySymmetric(x, offset, a))
                : logBinomial(dimension, k)) - (theirs ? (o.k == 1 ? logSumExp(x, offset, oa)
                : o.logElementarySymmetric(x, offset, oa)) : logBinomial(dimension, o.k));
    }

    /**
     * {@code log sum_i e^{2 a x_i} - log sum_i e^{a x_i}} with one exponential per coordinate: the maximum first, then
     * {@code u_i = e^{a (x_i - m)}} summed and squared-summed.
     */
    private double logSumExpSquaredOverPlain(double[] x, int offset, double a) {
        double max = maxScaled(x, offset, a);
        if (!(max < Double.POSITIVE_INFINITY)) {
            return Double.NaN;
        }
        double plain = 0;
        double squared = 0;
        for (int i = 0; i < dimension; i++) {
            double u = FastExp.exp(a * x[offset + i] - max);
            plain += u;
            squared += u * u;
        }
        return max + Math.log(squared) - Math.log(plain);
    }

    /**
     * {@code log sum_i e^{a x_i}} in one pass, relative to the first coordinate (so the sum is at least 1 and no term
     * is lost that matters); if some term exceeds {@code e^700} relative to it, the sum is infinite and
     * {@link #logSumExpTwoPass} takes over.
     */
    private double logSumExp(double[] x, int offset, double a) {
        double reference = a * x[offset];
        double sum = 0;
        for (int i = 0; i < dimension; i++) {
            sum += FastExp.exp(a * x[offset + i] - reference);
        }
        if (sum < Double.POSITIVE_INFINITY) {
            return reference + Math.log(sum);
        }
        return logSumExpTwoPass(x, offset, a);
    }

    /** {@code log sum_i e^{a x_i}}: the maximum first, then one exponential per coordinate. */
    private double logSumExpTwoPass(double[] x, int offset, double a) {
        double max = maxScaled(x, offset, a);
        if (!(max < Double.POSITIVE_INFINITY)) {
            return Double.NaN;
        }
        double sum = 0;
        for (int i = 0; i < dimension; i++) {
            sum += FastExp.exp(a * x[offset + i] - max);
        }
        return max + Math.log(sum);
    }

    /**
     * {@code log e_k(w)} with {@code log w_i = a x_i}, O(Tk): in linear space on {@code w_i / max_i w_i <= 1} (one
     * exponential per coordinate, then multiply-adds), falling back to {@link #logElementarySymmetricInLogSpace} when
     * the scaled sum leaves the normal range (e_k below 1e-280 or infinite), where the linear form would lose digits.
     */
    private double logElementarySymmetric(double[] x, int offset, double a) {
        double max = maxScaled(x, offset, a);
        if (!(max < Double.POSITIVE_INFINITY)) {
            return Double.NaN;
        }
        double[] e = scratch.get();
        java.util.Arrays.fill(e, 0.0);
        e[0] = 1;
        for (int i = 0; i < dimension; i++) {
            double w = FastExp.exp(a * x[offset + i] - max);
            for (int j = Math.min(i + 1, k); j >= 1; j--) {
                e[j] += w * e[j - 1];
            }
        }
        double ek = e[k];
        if (ek >= 1e-280 && ek < Double.POSITIVE_INFINITY) {
            return k * max + Math.log(ek);
        }
        return logElementarySymmetricInLogSpace(x, offset, a);
    }

    /**
     * {@code log e_k(w)} with {@code log w_i = a x_i}: {@code E_j <- E_j + w_i E_{j-1}} for {@code j = min(i, k)..1},
     * held as {@code log E_j} (log-add-exp), O(Tk) with two transcendental calls per step; exact in range, slow.
     */
    double logElementarySymmetricInLogSpace(double[] x, int offset, double a) {
        double[] e = scratch.get();
        java.util.Arrays.fill(e, Double.NEGATIVE_INFINITY);
        e[0] = 0;
        for (int i = 0; i < dimension; i++) {
            double lw = a * x[offset + i];
            for (int j = Math.min(i + 1, k); j >= 1; j--) {
                double add = e[j - 1] + lw;
                double cur = e[j];
                if (cur == Double.NEGATIVE_INFINITY) {
                    e[j] = add;
                } else if (add > cur) {
                    e[j] = add + Math.log1p(Math.exp(cur - add));
                } else {
                    e[j] = cur + Math.log1p(Math.exp(add - cur));
                }
            }
        }
        return e[k];
    }

    /** {@code max_i a x_i} (NaN entries skipped; +inf when one is infinite), for the log-sum-exp forms. */
    private double maxScaled(double[] x, int offset, double a) {
        double max = Double.NEGATIVE_INFINITY;
        for (int i = 0; i < dimension; i++) {
            double v = a * x[offset + i];
            if (v > max) {
                max = v;
            }
        }
        return max;
    }

    /** {@code log C(n, k)}. */
    static double logBinomial(int n, int k) {
        return org.apache.commons.math3.special.Gamma.logGamma(n + 1.0)
                - org.apache.commons.math3.special.Gamma.logGamma(k + 1.0)
                - org.apache.commons.math3.special.Gamma.logGamma(n - k + 1.0);
    }
}

package io.dpaudit.core.law;

import io.dpaudit.core.Checks;
import io.dpaudit.core.numerics.Normal;
import java.util.Arrays;

/**
 * A finite mixture {@code sum_i w_i N(m_i, s^2 I_k)} in {@code R^k} with a common isotropic standard deviation:
 * the law of an additive-noise mechanism's per-round sufficient statistic in one world. Its density is with respect
 * to Lebesgue measure.
 */
public final class GaussianMixture implements StatisticLaw {
    private final int dimension;
    private final double[] weights;
    private final double[][] means;
    private final double sd;
    private final double[] logWeights;

    /**
     * @param weights positive weights summing to 1 (within 1e-9)
     * @param means one mean vector of length {@code dimension} per weight
     * @param sd common standard deviation, {@code > 0}
     */
    public GaussianMixture(double[] weights, double[][] means, double sd) {
        if (weights.length == 0 || weights.length != means.length) {
            throw new IllegalArgumentException("need one mean per weight");
        }
        this.dimension = means[0].length;
        double sum = 0;
        for (int i = 0; i < weights.length; i++) {
            if (!(weights[i] > 0) || means[i].length != dimension) {
                throw new IllegalArgumentException("weights must be > 0 and means of equal length");
            }
            sum += weights[i];
        }
        if (Math.abs(sum - 1) > 1e-9) {
            throw new IllegalArgumentException("weights sum to " + sum);
        }
        this.weights = weights.clone();
        this.means = Arrays.stream(means).map(double[]::clone).toArray(double[][]::new);
        this.sd = Checks.positive("sd", sd);
        this.logWeights = Arrays.stream(weights).map(Math::log).toArray();
    }

    /** A single Gaussian {@code N(mean, sd^2)} on the line. */
    public static GaussianMixture single(double mean, double sd) {
        return new GaussianMixture(new double[] {1.0}, new double[][] {{mean}}, sd);
    }

    /**
     * The one-dimensional {@code (1 - s) N(a, sd^2) + s N(b, sd^2)}, {@code s in [0, 1]}: a single normal when
     * {@code s} is 0 or 1 (a component of weight 0 is not a component) or when {@code a == b}.
     */
    public static GaussianMixture twoPoint(double s, double a, double b, double sd) {
        if (!(s >= 0 && s <= 1)) {
            throw new IllegalArgumentException("mixing weight " + s + " is not in [0, 1]");
        }
        if (s == 0 || a == b) {
            return single(a, sd);
        }
        if (s == 1) {
            return single(b, sd);
        }
        return new GaussianMixture(new double[] {1 - s, s}, new double[][] {{a}, {b}}, sd);
    }

    /** The dimension {@code k}. */
    @Override
    public int dimension() {
        return dimension;
    }

    /** Number of components. */
    public int components() {
        return weights.length;
    }

    /** Weight of component {@code i}. */
    public double weight(int i) {
        return weights[i];
    }

    /** Coordinate {@code j} of the mean of component {@code i}. */
    public double mean(int i, int j) {
        return means[i][j];
    }

    /** The common standard deviation. */
    public double sd() {
        return sd;
    }

    /**
     * Log density at {@code x[offset, offset + k)} up to the additive constant {@code -k log(sd sqrt(2 pi))}, which
     * is the same for every mixture with this {@code sd} and dimension and cancels in likelihood ratios.
     */
    public double logDensityUnnormalized(double[] x, int offset) {
        // Two passes (max, then sum of exponentials) so that no scratch array is needed.
        double inv2s2 = 0.5 / (sd * sd);
        double max = Double.NEGATIVE_INFINITY;
        for (int i = 0; i < weights.length; i++) {
            max = Math.max(max, componentTerm(i, x, offset, inv2s2));
        }
        double sum = 0;
        for (int i = 0; i < weights.length; i++) {
            sum += Math.exp(componentTerm(i, x, offset, inv2s2) - max);
        }
        return max + Math.log(sum);
    }

    private double componentTerm(int i, double[] x, int offset, double inv2s2) {
        double d2 = 0;
        double[] m = means[i];
        for (int j = 0; j < dimension; j++) {
            double d = x[offset + j] - m[j];
            d2 += d * d;
        }
        return logWeights[i] - d2 * inv2s2;
    }

    /** Full log density. */
    @Override
    public double logDensity(double[] x, int offset) {
        return logDensityUnnormalized(x, offset) - dimension * (Math.log(sd) + Normal.LOG_SQRT_2PI);
    }

    /** Smallest coordinate of any mean. */
    public double minMean() {
        return Arrays.stream(means).flatMapToDouble(Arrays::stream).min().orElseThrow();
    }

    /** Largest coordinate of any mean. */
    public double maxMean() {
        return Arrays.stream(means).flatMapToDouble(Arrays::stream).max().orElseThrow();
    }

    @Override
    public String toString() {
        StringBuilder b = new StringBuilder();
        for (int i = 0; i < weights.length; i++) {
            if (i > 0) {
                b.append(" + ");
            }
            b.append(Checks.format(weights[i])).append(" N(").append(Arrays.toString(means[i]).replace(" ", ""))
                    .append(", ").append(Checks.format(sd)).append("^2)");
        }
        return b.toString();
    }
}

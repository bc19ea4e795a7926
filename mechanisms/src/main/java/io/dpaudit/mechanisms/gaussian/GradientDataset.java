package io.dpaudit.mechanisms.gaussian;

import io.dpaudit.mechanisms.common.Clipping;
import java.util.Arrays;
import org.apache.commons.rng.UniformRandomProvider;
import org.apache.commons.rng.sampling.distribution.ZigguratSampler;

/**
 * An explicit dataset for faithful simulation: per-record gradients (unclipped, as a model would compute them) and
 * the canary record's gradient. Immutable.
 */
public final class GradientDataset {
    private final double[][] records;
    private final double[] canary;

    /**
     * @param records gradients of the records both neighbouring datasets share, all of one dimension
     * @param canary gradient of the record only {@code D} holds
     */
    public GradientDataset(double[][] records, double[] canary) {
        for (double[] r : records) {
            if (r.length != canary.length) {
                throw new IllegalArgumentException("all gradients must have dimension " + canary.length);
            }
        }
        if (!(Clipping.norm(canary) > 0)) {
            throw new IllegalArgumentException("the canary gradient must be non-zero");
        }
        this.records = Arrays.stream(records).map(double[]::clone).toArray(double[][]::new);
        this.canary = canary.clone();
    }

    /**
     * A worst-case dataset: the canary's gradient is {@code 2 clip e_1} (so clipping shortens it to {@code clip}),
     * and each of the {@code records} other gradients is a random direction orthogonal to {@code e_1} with a norm
     * uniform in {@code (0, 3 clip)}, so about two thirds of them are clipped. With dimension 1 the other gradients
     * are zero. Only {@code rng} is used.
     */
    public static GradientDataset worstCase(int records, int dimension, double clip, UniformRandomProvider rng) {
        ZigguratSampler.NormalizedGaussian gauss = ZigguratSampler.NormalizedGaussian.of(rng);
        double[] canary = new double[dimension];
        canary[0] = 2 * clip;
        double[][] others = new double[records][dimension];
        for (int i = 0; i < records; i++) {
            if (dimension == 1) {
                continue;
            }
            double[] v = others[i];
            for (int j = 1; j < dimension; j++) {
                v[j] = gauss.sample();
            }
            double n = Clipping.norm(v);
            double target = 3 * clip * rng.nextDouble();
            for (int j = 1; j < dimension; j++) {
                v[j] *= target / n;
            }
        }
        return new GradientDataset(others, canary);
    }

    /** Number of shared records. */
    public int size() {
        return records.length;
    }

    /** Gradient dimension. */
    public int dimension() {
        return canary.length;
    }

    /** A copy of shared record {@code i}'s gradient. */
    public double[] record(int i) {
        return records[i].clone();
    }

    /** A copy of the canary's gradient. */
    public double[] canary() {
        return canary.clone();
    }
}

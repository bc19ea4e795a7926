package io.dpaudit.mechanisms.gaussian;

import io.dpaudit.core.Checks;
import io.dpaudit.core.engine.TrialSampler;
import io.dpaudit.core.engine.World;
import io.dpaudit.core.law.GaussianMixture;
import io.dpaudit.core.model.MechanismSimulator;
import io.dpaudit.core.model.OutputModel;
import io.dpaudit.mechanisms.common.Clipping;
import java.util.Arrays;
import java.util.Locale;
import org.apache.commons.rng.UniformRandomProvider;
import org.apache.commons.rng.sampling.distribution.ZigguratSampler;

/**
 * Faithful simulator of the Poisson-subsampled Gaussian mechanism: an explicit dataset of {@code n} records with
 * {@code m}-dimensional gradients; in every round each record (and, in {@code D}, the canary) is included
 * independently with probability {@code q}, the clipped gradients of the included records are summed, and
 * {@code N(0, sigma^2 I_m)} noise is added. An output is the {@code rounds x m} released sums.
 *
 * <p>Gradients are clipped once, when the simulator is built: they do not change between trials, so this equals
 * clipping in every round. Random draws per round: one {@code nextDouble()} per record in record order, then in
 * {@code D} one for the canary, then {@code m} ziggurat normals.
 *
 * <p>The {@link OutputModel} states the law of the projection on the clipped canary direction, which is exact
 * because the dataset's other gradients are required to be orthogonal to the canary (the worst-case family).
 */
final class FaithfulPoissonGaussianSimulator {
    private final int records;
    private final int dimension;
    private final double[] clippedRecords;
    private final double[] clippedCanary;
    private final double q;
    private final double sigma;
    private final int rounds;
    private final OutputModel model;

    private FaithfulPoissonGaussianSimulator(GradientDataset data, GaussianParameters g) {
        this.q = g.q();
        this.sigma = g.sigma();
        this.rounds = g.rounds();
        double clip = g.clip();
        this.records = data.size();
        this.dimension = data.dimension();
        this.clippedRecords = new double[records * dimension];
        this.clippedCanary = Clipping.clip(data.canary(), clip);
        double canaryNorm = Clipping.norm(clippedCanary);
        double[] unit = Arrays.stream(clippedCanary).map(x -> x / canaryNorm).toArray();
        for (int i = 0; i < records; i++) {
            double[] grad = Clipping.clip(data.record(i), clip);
            double dot = 0;
            for (int j = 0; j < dimension; j++) {
                dot += grad[j] * unit[j];
            }
            if (Math.abs(dot) > 1e-9 * clip) {
                throw new IllegalArgumentException("record " + i + " is not orthogonal to the canary (projection "
                        + dot + "): the output model would not be exact");
            }
            System.arraycopy(grad, 0, clippedRecords, i * dimension, dimension);
        }
        GaussianMixture with = q < 1
                ? new GaussianMixture(new double[] {1 - q, q}, new double[][] {{0.0}, {canaryNorm}}, sigma)
                : GaussianMixture.single(canaryNorm, sigma);
        this.model = OutputModel.linear(rounds, dimension, new double[][] {unit}, with,
                GaussianMixture.single(0.0, sigma), -1, null);
    }

    /** The faithful simulator of {@code g} on {@code data}. */
    static MechanismSimulator of(GradientDataset data, GaussianParameters g) {
        FaithfulPoissonGaussianSimulator f = new FaithfulPoissonGaussianSimulator(data, g);
        return MechanismSimulator.of(f.model, f.description(), f::sampler);
    }

    /**
     * One round's Poisson-sampled sum of clipped gradients into {@code out[base, base + m)}: each of the
     * {@code records} rows of {@code clippedRecords} included with probability {@code q} (one {@code nextDouble()}
     * each, in record order), then the canary (when not null) likewise. The block is zeroed first.
     */
    static void sampledSum(UniformRandomProvider rng, double q, double[] clippedRecords, int records, double[] canary,
            double[] out, int base, int m) {
        Arrays.fill(out, base, base + m, 0.0);
        for (int i = 0; i < records; i++) {
            if (rng.nextDouble() < q) {
                int r = i * m;
                for (int j = 0; j < m; j++) {
                    out[base + j] += clippedRecords[r + j];
                }
            }
        }
        if (canary != null && rng.nextDouble() < q) {
            for (int j = 0; j < m; j++) {
                out[base + j] += canary[j];
            }
        }
    }

    private TrialSampler sampler(UniformRandomProvider rng) {
        return new Sampler(rng);
    }

    private String description() {
        return String.format(Locale.ROOT,
                "faithful: %d records + canary, dimension %d, Poisson(%s) sampling, clip, sum + N(0, %s^2 I), %d round(s)",
                records, dimension, Checks.format(q), Checks.format(sigma), rounds);
    }

    private final class Sampler implements TrialSampler {
        private final UniformRandomProvider rng;
        private final ZigguratSampler.NormalizedGaussian gauss;

        Sampler(UniformRandomProvider rng) {
            this.rng = rng;
            this.gauss = ZigguratSampler.NormalizedGaussian.of(rng);
        }

        @Override
        public void sample(World world, double[] out, int trials) {
            boolean withCanary = world == World.WITH_CANARY;
            int m = dimension;
            for (int block = 0; block < trials * rounds; block++) {
                int base = block * m;
                sampledSum(rng, q, clippedRecords, records, withCanary ? clippedCanary : null, out, base, m);
                for (int j = 0; j < m; j++) {
                    out[base + j] += sigma * gauss.sample();
                }
            }
        }
    }
}

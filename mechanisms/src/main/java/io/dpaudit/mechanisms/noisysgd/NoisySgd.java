package io.dpaudit.mechanisms.noisysgd;

import io.dpaudit.core.blackbox.BlackBoxMechanism;
import org.apache.commons.rng.UniformRandomProvider;
import org.apache.commons.rng.sampling.distribution.ZigguratSampler;

/**
 * Projected noisy SGD on an explicit dataset, releasing only the final model: from {@code theta_0 = 0}, step t draws
 * every record (and, in D, the canary) with probability q, sums their gradients at {@code theta_t} each clipped to norm
 * C, adds {@code N(0, (sigma C)^2 I_d)}, and sets {@code theta_{t+1} = Proj_D(theta_t - eta g_t)} (the Euclidean
 * projection onto the ball of diameter D centred at 0; none when D is infinite). The output is {@code theta_T}.
 *
 * <p>The dataset's inputs are orthogonal to e_1 (their first coordinate is 0), so without projection the other records
 * neither see nor move the model's first coordinate: for the gradient canary ({@code -C e_1} whenever drawn) that
 * coordinate is {@code eta C (K + N(0, T sigma^2))}, K ~ Binomial(T, q) — the last-iterate pair of a linear loss —
 * and the projection, or an input canary whose gradient follows the model, are what make the loss non-linear along
 * the canary.
 *
 * <p>Losses: quadratic {@code (theta.x - y)^2 / 2}, gradient {@code (theta.x - y) x}; logistic
 * {@code log(1 + exp(-y theta.x))}, y in {-1, +1}, gradient {@code -y x / (1 + exp(y theta.x))}. The input canary is
 * the record {@code (s e_1, s)} for the quadratic loss (its fit is {@code theta_1 = 1}) and {@code (s e_1, +1)} for the
 * logistic one: both pull the first coordinate up with a clipped gradient that fades as the model fits them.
 *
 * <p>Random draws per step: one {@code nextDouble()} per record in record order, then one for the canary (in D only),
 * then d ziggurat normals. Two arrays of d doubles are allocated per run.
 */
final class NoisySgd implements BlackBoxMechanism<Boolean> {
    private final NoisySgdParameters p;
    private final double[] inputs; // records x dimension, first coordinate 0
    private final double[] labels;

    NoisySgd(NoisySgdParameters p, double[] inputs, double[] labels) {
        this.p = p;
        this.inputs = inputs.clone();
        this.labels = labels.clone();
    }

    @Override
    public double[] run(Boolean canaryPresent, UniformRandomProvider rng) {
        ZigguratSampler.NormalizedGaussian gauss = ZigguratSampler.NormalizedGaussian.of(rng);
        int d = p.dimension();
        double[] theta = new double[d];
        double[] g = new double[d];
        double c = p.clip();
        double noise = p.sigma() * c;
        double radius = p.diameter() / 2;
        boolean with = canaryPresent;
        for (int t = 0; t < p.steps(); t++) {
            java.util.Arrays.fill(g, 0.0);
            for (int i = 0; i < p.records(); i++) {
                if (rng.nextDouble() < p.q()) {
                    addClippedGradient(theta, i * d, labels[i], g);
                }
            }
            if (with && rng.nextDouble() < p.q()) {
                addCanaryGradient(theta, g);
            }
            for (int j = 0; j < d; j++) {
                theta[j] -= p.learningRate() * (g[j] + noise * gauss.sample());
            }
            if (radius < Double.POSITIVE_INFINITY) {
                project(theta, radius);
            }
        }
        return theta;
    }

    /** Adds record i's gradient at theta, clipped to norm C. */
    private void addClippedGradient(double[] theta, int offset, double y, double[] g) {
        int d = p.dimension();
        double dot = 0;
        double norm2 = 0;
        for (int j = 0; j < d; j++) {
            dot += theta[j] * inputs[offset + j];
            norm2 += inputs[offset + j] * inputs[offset + j];
        }
        double factor = p.loss() == NoisySgdParameters.Loss.QUADRATIC ? dot - y : -y / (1 + Math.exp(y * dot));
        double norm = Math.abs(factor) * Math.sqrt(norm2);
        double scale = norm > p.clip() ? p.clip() / norm : 1.0;
        for (int j = 0; j < d; j++) {
            g[j] += scale * factor * inputs[offset + j];
        }
    }

    /** Adds the canary's gradient: {@code -C e_1}, or the input canary's clipped gradient. */
    private void addCanaryGradient(double[] theta, double[] g) {
        if (p.canary() == NoisySgdParameters.Canary.GRADIENT) {
            g[0] -= p.clip();
            return;
        }
        double s = p.canaryNorm();
        double dot = theta[0] * s;
        double factor = p.loss() == NoisySgdParameters.Loss.QUADRATIC ? dot - s : -1 / (1 + Math.exp(dot));
        double value = factor * s; // the gradient is value * e_1
        g[0] += Math.max(-p.clip(), Math.min(p.clip(), value));
    }

    private static void project(double[] theta, double radius) {
        double n2 = 0;
        for (double v : theta) {
            n2 += v * v;
        }
        if (n2 > radius * radius) {
            double f = radius / Math.sqrt(n2);
            for (int j = 0; j < theta.length; j++) {
                theta[j] *= f;
            }
        }
    }
}

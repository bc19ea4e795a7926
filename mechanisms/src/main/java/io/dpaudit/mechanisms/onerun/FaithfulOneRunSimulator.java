package io.dpaudit.mechanisms.onerun;

import io.dpaudit.core.Checks;
import org.apache.commons.rng.UniformRandomProvider;
import org.apache.commons.rng.sampling.distribution.ZigguratSampler;

/**
 * A one-run DP-SGD audit trained explicitly ({@link OneRunDpSgd}): a parameter vector of dimension
 * {@code m + dimension}, the m canaries' gradients {@code 3 C e_i} (each along its own coordinate, norm 3C so that
 * clipping acts), {@code records} ordinary records whose gradients are fixed Gaussian vectors {@code C N(0, I)} in
 * the last {@code dimension} coordinates (norm about {@code C sqrt(dimension)}, clipped too); the loss is linear, so
 * every gradient is the same at every step and the learning rate (1) only scales. Each canary's coin is drawn first;
 * then at each of the T steps every present record (ordinary, or canary whose coin was heads) joins the batch with
 * probability q, the batch's clipped gradients are summed, {@code N(0, sigma^2)} is added to every coordinate and the
 * result added to the parameters. Canary i's score is coordinate i of the final parameters divided by C.
 *
 * <p>Cost per run: {@code T (m + dimension)} normals and {@code T (records + m/2)} uniforms; the reduced simulator
 * draws the same law with about 3 draws per canary.
 */
public final class FaithfulOneRunSimulator {
    /** Canary gradient norm as a multiple of the clipping norm. */
    static final double CANARY_NORM = 3;

    private FaithfulOneRunSimulator() {
    }

    /**
     * One training run.
     *
     * @param records ordinary (non-canary) records, at least 0
     * @param dimension coordinates of the ordinary records' gradients, at least 1
     */
    public static CanaryScores run(OneRunDpSgd setting, int records, int dimension, UniformRandomProvider rng) {
        Checks.inRange("records", records, 0, 10_000_000);
        Checks.inRange("dimension", dimension, 1, 1 << 16);
        int m = setting.canaries();
        double c = setting.clip();
        double q = setting.q();
        ZigguratSampler.NormalizedGaussian normal = ZigguratSampler.NormalizedGaussian.of(rng);
        boolean[] coins = new boolean[m];
        for (int i = 0; i < m; i++) {
            coins[i] = rng.nextBoolean();
        }
        // Ordinary records' clipped gradients, one row of `dimension` values each.
        double[] ordinary = new double[records * dimension];
        for (int r = 0; r < records; r++) {
            double norm2 = 0;
            for (int k = 0; k < dimension; k++) {
                double g = c * normal.sample();
                ordinary[r * dimension + k] = g;
                norm2 += g * g;
            }
            double scale = clipFactor(Math.sqrt(norm2), c);
            for (int k = 0; k < dimension; k++) {
                ordinary[r * dimension + k] *= scale;
            }
        }
        double canaryClipped = CANARY_NORM * c * clipFactor(CANARY_NORM * c, c);
        double[] parameters = new double[m + dimension];
        double[] update = new double[m + dimension];
        for (int t = 0; t < setting.steps(); t++) {
            java.util.Arrays.fill(update, 0.0);
            for (int i = 0; i < m; i++) {
                if (coins[i] && (q == 1 || rng.nextDouble() < q)) {
                    update[i] += canaryClipped;
                }
            }
            for (int r = 0; r < records; r++) {
                if (q == 1 || rng.nextDouble() < q) {
                    for (int k = 0; k < dimension; k++) {
                        update[m + k] += ordinary[r * dimension + k];
                    }
                }
            }
            for (int k = 0; k < update.length; k++) {
                parameters[k] += update[k] + setting.sigma() * normal.sample();
            }
        }
        double[] scores = new double[m];
        for (int i = 0; i < m; i++) {
            scores[i] = parameters[i] / c;
        }
        return CanaryScores.split(coins, scores);
    }

    /** {@code min(1, C / norm)}: the factor that clips a gradient of that norm to C. */
    static double clipFactor(double norm, double clip) {
        return norm <= clip ? 1.0 : clip / norm;
    }
}

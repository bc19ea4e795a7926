package io.dpaudit.mechanisms.shuffle;

import io.dpaudit.core.Checks;
import org.apache.commons.rng.UniformRandomProvider;

/**
 * An unbiased vector randomizer of the kind dss-SGD assumes (seed 001, conditions (i)–(iv); Girgis et al.'s ℓ∞
 * mechanism of reference [25] is of this form): for a gradient {@code x} clipped to the ℓ∞ ball of radius {@code C}
 * in {@code R^d}, pick a coordinate {@code j} uniformly, then report the sign {@code s = +1} with probability
 * {@code 1/2 + (x_j / 2C)(e^eps0 - 1)/(e^eps0 + 1)}. The report is {@code (j, s)}: {@code b = ceil(log2 d) + 1} bits,
 * symbol {@code 2j + (s > 0 ? 1 : 0)}.
 *
 * <ul>
 *   <li><b>Unbiased</b>: the decoded vector {@code d C (e^eps0 + 1)/(e^eps0 - 1) s e_j} has expectation {@code x}.</li>
 *   <li><b>eps0-LDP</b>: {@code P(j, s | x) / P(j, s | x') = (1 + a s x_j/C)/(1 + a s x'_j/C) <= (1 + a)/(1 - a)
 *       = e^eps0} with {@code a = (e^eps0 - 1)/(e^eps0 + 1)}, reached by {@code x = C 1} against {@code x' = -C 1}
 *       (the worst-case pair used here; every coordinate then distinguishes them).</li>
 * </ul>
 * Draws: one {@code nextInt(d)} and one {@code nextDouble()} per report. Inputs outside the ball are clipped
 * coordinate-wise first, as the algorithm's clipping step would.
 */
public final class SignRandomizer implements LocalRandomizer {
    private final double eps0;
    private final int dimension;
    private final double clip;
    private final double a;

    /**
     * @param eps0 local privacy level, {@code > 0}
     * @param dimension {@code d >= 1}
     * @param clip the ℓ∞ radius {@code C > 0}
     */
    public SignRandomizer(double eps0, int dimension, double clip) {
        this.eps0 = Checks.positive("eps0", eps0);
        this.dimension = Checks.atLeast("dimension", dimension, 1);
        this.clip = Checks.positive("clip", clip);
        this.a = Math.tanh(eps0 / 2); // (e^eps0 - 1)/(e^eps0 + 1)
    }

    @Override
    public String name() {
        return "sign";
    }

    @Override
    public double eps0() {
        return eps0;
    }

    @Override
    public int symbols() {
        return 2 * dimension;
    }

    @Override
    public int inputDimension() {
        return dimension;
    }

    private double plusProbability(double xj) {
        double c = Math.max(-clip, Math.min(clip, xj));
        return 0.5 * (1 + a * c / clip);
    }

    @Override
    public double[] law(double[] x, int offset) {
        double[] p = new double[2 * dimension];
        for (int j = 0; j < dimension; j++) {
            double plus = plusProbability(x[offset + j]);
            p[2 * j + 1] = plus / dimension;
            p[2 * j] = (1 - plus) / dimension;
        }
        return p;
    }

    @Override
    public int report(double[] x, int offset, UniformRandomProvider rng) {
        int j = rng.nextInt(dimension);
        return 2 * j + (rng.nextDouble() < plusProbability(x[offset + j]) ? 1 : 0);
    }

    /** The server's unbiased estimate of the input from one report: coordinate {@code j} of the decoded vector. */
    public double decodedValue(int symbol) {
        double s = (symbol & 1) == 1 ? 1.0 : -1.0;
        return dimension * clip * s / a;
    }

    @Override
    public double[] target() {
        double[] x = new double[dimension];
        java.util.Arrays.fill(x, clip);
        return x;
    }

    @Override
    public double[] replacement() {
        double[] x = new double[dimension];
        java.util.Arrays.fill(x, -clip);
        return x;
    }

    @Override
    public String describe() {
        return "unbiased sign randomizer (one coordinate of " + dimension + ", l-inf radius " + Checks.format(clip)
                + "), eps0 = " + Checks.format(eps0);
    }
}

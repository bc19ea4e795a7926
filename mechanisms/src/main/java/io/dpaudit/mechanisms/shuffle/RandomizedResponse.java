package io.dpaudit.mechanisms.shuffle;

import io.dpaudit.core.Checks;
import org.apache.commons.rng.UniformRandomProvider;

/**
 * Binary randomized response (Warner 1965): a bit {@code x} is reported truthfully with probability
 * {@code e^eps0 / (1 + e^eps0)} and flipped otherwise. Symbols are the reported bit; the worst-case pair is
 * {@code x = 1} against {@code x' = 0}, whose likelihood ratio is {@code e^{+-eps0}} — exactly {@code eps0}-LDP. One
 * {@code nextDouble()} per report.
 */
public final class RandomizedResponse implements LocalRandomizer {
    private final double eps0;
    private final double truth;

    /** @param eps0 local privacy level, {@code > 0} */
    public RandomizedResponse(double eps0) {
        this.eps0 = Checks.positive("eps0", eps0);
        this.truth = 1.0 / (1.0 + Math.exp(-eps0));
    }

    @Override
    public String name() {
        return "rr";
    }

    @Override
    public double eps0() {
        return eps0;
    }

    @Override
    public int symbols() {
        return 2;
    }

    @Override
    public int inputDimension() {
        return 1;
    }

    /** The probability of a truthful report, {@code e^eps0 / (1 + e^eps0)}. */
    public double truthProbability() {
        return truth;
    }

    @Override
    public double[] law(double[] x, int offset) {
        int bit = bit(x[offset]);
        double[] p = new double[2];
        p[bit] = truth;
        p[1 - bit] = 1 - truth;
        return p;
    }

    @Override
    public int report(double[] x, int offset, UniformRandomProvider rng) {
        int bit = bit(x[offset]);
        return rng.nextDouble() < truth ? bit : 1 - bit;
    }

    private static int bit(double v) {
        if (v != 0 && v != 1) {
            throw new IllegalArgumentException("randomized response takes a bit, not " + v);
        }
        return (int) v;
    }

    @Override
    public double[] target() {
        return new double[] {1};
    }

    @Override
    public double[] replacement() {
        return new double[] {0};
    }

    @Override
    public String describe() {
        return "binary randomized response, eps0 = " + Checks.format(eps0);
    }
}

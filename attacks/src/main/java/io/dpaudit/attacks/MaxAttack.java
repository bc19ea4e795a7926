package io.dpaudit.attacks;

import io.dpaudit.core.engine.Scorer;

/**
 * The largest value of the output: the test {@code max_t x_t > C} that Chua et al. (ICML 2024) use to lower-bound the
 * privacy of shuffled batches — where the canary's step stands out by its shift — and a cheap alternative to the
 * likelihood ratio for any output whose informative coordinate is unknown. Generic (it reads only outputs): one pass
 * per output, no allocation.
 */
final class MaxAttack implements Scorer {
    static final String NAME = "max";
    private final int length;

    MaxAttack(int length) {
        this.length = length;
    }

    @Override
    public int outputLength() {
        return length;
    }

    @Override
    public double[] score(double[] outputs, int trials, double[] scratch) {
        for (int i = 0; i < trials; i++) {
            int base = i * length;
            double max = Double.NEGATIVE_INFINITY;
            for (int j = 0; j < length; j++) {
                max = Math.max(max, outputs[base + j]);
            }
            scratch[i] = max;
        }
        return scratch;
    }

    @Override
    public String description() {
        return NAME + ": the largest of the output's " + length + " value(s) (Chua et al. 2024's test)";
    }
}

package io.dpaudit.mechanisms.prifedsync;

import io.dpaudit.core.model.RoundStatistic;

/**
 * A round's block is a flag (1 when client j's update reached the adversary, 0 when not) followed by {@code K} step
 * values along the canary ({@code width} values per step, the first along the canary); the statistic is the {@code K}
 * canary components, and a round whose flag is 0 carries no information.
 */
final class VisibleSteps implements RoundStatistic {
    private final int steps;
    private final int width;

    VisibleSteps(int steps, int width) {
        this.steps = steps;
        this.width = width;
    }

    @Override
    public int dimension() {
        return steps;
    }

    @Override
    public int roundDimension() {
        return 1 + steps * width;
    }

    @Override
    public boolean extract(double[] block, int offset, double[] into) {
        if (block[offset] == 0.0) {
            return false;
        }
        for (int k = 0; k < steps; k++) {
            into[k] = block[offset + 1 + k * width];
        }
        return true;
    }
}

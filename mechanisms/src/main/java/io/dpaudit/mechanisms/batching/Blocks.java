package io.dpaudit.mechanisms.batching;

import io.dpaudit.core.model.RoundStatistic;

/**
 * How a batch sampler's per-epoch statistic is read off its output: the epoch's T step sums themselves (dynamic
 * samplers: one round per epoch), their sums over the epochs (a persistent shuffle: the canary sits in the same step
 * every epoch, so the per-step sums over epochs are sufficient), each shifted by a constant (the faithful shuffle,
 * whose other records contribute -1 to every batch). O(T) per round, no allocation — an identity
 * {@link io.dpaudit.core.model.LinearStatistic} would cost O(T^2).
 */
final class Blocks {
    private Blocks() {
    }

    /** The block of T values (plus {@code shift} each) is the statistic. */
    static RoundStatistic identity(int steps, double shift) {
        return new RoundStatistic() {
            @Override
            public int dimension() {
                return steps;
            }

            @Override
            public int roundDimension() {
                return steps;
            }

            @Override
            public boolean extract(double[] block, int offset, double[] into) {
                for (int t = 0; t < steps; t++) {
                    into[t] = block[offset + t] + shift;
                }
                return true;
            }
        };
    }

    /** One block of E epochs of T values; the statistic is the T per-step sums over the epochs (plus E shift each). */
    static RoundStatistic epochSums(int steps, int epochs, double shift) {
        return new RoundStatistic() {
            @Override
            public int dimension() {
                return steps;
            }

            @Override
            public int roundDimension() {
                return steps * epochs;
            }

            @Override
            public boolean extract(double[] block, int offset, double[] into) {
                for (int t = 0; t < steps; t++) {
                    into[t] = epochs * shift;
                }
                for (int e = 0; e < epochs; e++) {
                    int base = offset + e * steps;
                    for (int t = 0; t < steps; t++) {
                        into[t] += block[base + t];
                    }
                }
                return true;
            }
        };
    }
}

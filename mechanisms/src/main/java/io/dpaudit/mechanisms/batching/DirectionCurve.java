package io.dpaudit.mechanisms.batching;

import io.dpaudit.core.numerics.SafeRounding;

/**
 * One direction's {@code delta(eps)} read off a survival function of its privacy loss on {@link AllocationPld}'s loss
 * grid, from above (an upper end's survival function) or from below (a lower end's).
 */
final class DirectionCurve {
    private DirectionCurve() {
    }

    /**
     * {@code delta(eps)} of one direction whose loss has the survival function {@code survival} on the loss grid from
     * index {@code start} (the last entry the mass at {@code +inf}): {@code sum_i mass_i (1 - e^{eps - l_i})_+} plus the
     * mass at {@code +inf}, rounded up.
     */
    static double upper(double[] survival, long start, double epsilon) {
        int g = survival.length - 1;
        double sum = survival[g];
        for (int i = g - 1; i >= 0; i--) {
            double loss = (start + i) * AllocationPld.LOSS_GRID;
            if (loss <= epsilon) {
                break;
            }
            double mass = survival[i] - survival[i + 1];
            if (mass > 0) {
                sum += mass * -Math.expm1(epsilon - loss);
            }
        }
        return Math.min(1, SafeRounding.up(sum * (1 + 1e-12)));
    }

    /**
     * A lower bound on {@code delta(eps)} of one direction whose loss has, on the loss grid from index {@code start},
     * the lower survival function {@code survival} (entry {@code i} at most {@code P(L >= l_i)}, the last the mass at
     * {@code +inf}): {@code delta = integral_eps^inf e^{eps - u} P(L > u) du}, with {@code P(L > u) >= survival[i + 1]}
     * on {@code [l_i, l_{i+1})}, rounded down.
     */
    static double lower(double[] survival, long start, double epsilon) {
        int g = survival.length - 1;
        double sum = survival[g] * Math.exp(Math.min(0, epsilon - (start + g - 1) * AllocationPld.LOSS_GRID));
        for (int i = g - 2; i >= 0; i--) {
            double upper = (start + i + 1) * AllocationPld.LOSS_GRID;
            if (upper <= epsilon) {
                break;
            }
            double lower = Math.max(epsilon, (start + i) * AllocationPld.LOSS_GRID);
            // e^{eps - lower} - e^{eps - upper}
            double weight = Math.exp(epsilon - lower) * -Math.expm1(lower - upper);
            sum += Math.max(0, survival[i + 1]) * weight;
        }
        return Math.max(0, sum * (1 - 1e-12));
    }
}

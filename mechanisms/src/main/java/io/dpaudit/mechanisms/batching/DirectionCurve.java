package io.dpaudit.mechanisms.batching;

import io.dpaudit.core.numerics.SafeRounding;
import java.util.function.DoubleUnaryOperator;

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

    /**
     * {@link #upper} for many ε at once: suffix sums of the masses and of {@code mass e^{-l}}, so that each query is
     * {@code A - e^eps B} over the losses above ε, plus an allowance for the sums' rounding (at most
     * {@code n u} relative each, n terms) and rounded up; beyond ε = 700 the direct sum.
     */
    static DoubleUnaryOperator upperReader(double[] survival, long start) {
        int g = survival.length - 1;
        double[] mass = new double[g + 1];
        double[] weighted = new double[g + 1];
        for (int i = g - 1; i >= 0; i--) {
            double m = Math.max(0, survival[i] - survival[i + 1]);
            mass[i] = mass[i + 1] + m;
            weighted[i] = weighted[i + 1] + m * Math.exp(-(start + i) * AllocationPld.LOSS_GRID);
        }
        double rounding = (g + 16) * 2.3e-16;
        return epsilon -> {
            if (!(epsilon <= 700)) {
                return upper(survival, start, epsilon);
            }
            int first = firstAbove(start, g, epsilon);
            double level = Math.exp(epsilon);
            double sum = first >= g ? 0 : mass[first] - level * weighted[first];
            double allowance = first >= g ? 0 : rounding * (mass[first] + level * weighted[first]);
            return Math.min(1, SafeRounding.up((survival[g] + Math.max(0, sum) + allowance) * (1 + 1e-12)));
        };
    }

    /**
     * {@link #lower} for many ε at once: suffix sums of {@code survival[i + 1] (e^{-l_i} - e^{-l_{i+1}})} (every term
     * non-negative), times {@code e^eps}, plus the cell that holds ε, rounded down; beyond ε = 700 the direct sum.
     */
    static DoubleUnaryOperator lowerReader(double[] survival, long start) {
        int g = survival.length - 1;
        double[] cells = new double[g + 1];
        double step = -Math.expm1(-AllocationPld.LOSS_GRID);
        for (int i = g - 2; i >= 0; i--) {
            double l = (start + i) * AllocationPld.LOSS_GRID;
            cells[i] = cells[i + 1] + Math.max(0, survival[i + 1]) * Math.exp(-l) * step;
        }
        double rounding = 1 - (g + 16) * 2.3e-16 - 1e-12;
        return epsilon -> {
            if (!(epsilon <= 700)) {
                return lower(survival, start, epsilon);
            }
            double top = survival[g] * Math.exp(Math.min(0, epsilon - (start + g - 1) * AllocationPld.LOSS_GRID));
            int first = firstAtOrAbove(start, g, epsilon);
            double sum = first <= g - 2 ? Math.exp(epsilon) * cells[first] : 0;
            int holding = first - 1; // the cell [l_{first-1}, l_first) holds eps
            if (holding >= 0 && holding <= g - 2) {
                double upper = (start + holding + 1) * AllocationPld.LOSS_GRID;
                if (upper > epsilon) {
                    sum += Math.max(0, survival[holding + 1]) * -Math.expm1(epsilon - upper);
                }
            }
            return Math.max(0, (top + sum) * rounding);
        };
    }

    /** The first index {@code i} in {@code [0, g]} with {@code l_i > eps} ({@code g}: none below the top). */
    private static int firstAbove(long start, int g, double epsilon) {
        long i = (long) Math.floor(epsilon / AllocationPld.LOSS_GRID) - start;
        i = Math.max(0, Math.min(g, i - 2));
        while (i < g && (start + i) * AllocationPld.LOSS_GRID <= epsilon) {
            i++;
        }
        return (int) i;
    }

    /** The first index {@code i} in {@code [0, g]} with {@code l_i >= eps}. */
    private static int firstAtOrAbove(long start, int g, double epsilon) {
        long i = (long) Math.floor(epsilon / AllocationPld.LOSS_GRID) - start;
        i = Math.max(0, Math.min(g, i - 2));
        while (i < g && (start + i) * AllocationPld.LOSS_GRID < epsilon) {
            i++;
        }
        return (int) i;
    }
}

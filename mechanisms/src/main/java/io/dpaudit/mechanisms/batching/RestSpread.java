package io.dpaudit.mechanisms.batching;

import java.util.function.DoubleUnaryOperator;

/**
 * The spread of balls-and-bins' rest {@code R} (the {@code T - 1} terms besides one, mean {@code (T - 1) e1},
 * standard deviation {@code sd}) around its mean, as {@link CenteredRestBound} needs it: {@code pi(r) = E(R - r)_+}
 * right of the mean and {@code E(r - R)_+} left of it, bounded from above and below, read from one epoch's curves of
 * the whole sum {@code S = R + w} ({@link WholeSum}), with Scarf's bound (mean and variance alone) where that is
 * smaller.
 */
final class RestSpread {
    /**
     * One epoch's curves of the whole sum {@code S} from the lattices, each direction bounded from above and below
     * (null where not given): {@code removeUpper(eps) >= E(S - M e^eps)_+ / M}, {@code addUpper(eps) >=
     * E(M e^{-eps} - S)_+ e^eps / M}, and {@code removeLower}, {@code addLower} the same from below. The rest's spread
     * around its mean is read from them ({@link #restSpread}, {@link #lowerLeft}, {@link #lowerRight}).
     */
    record WholeSum(DoubleUnaryOperator removeUpper, DoubleUnaryOperator addUpper, DoubleUnaryOperator removeLower,
            DoubleUnaryOperator addLower) {
    }

    private final int steps;
    private final double tau;
    private final double termMean;
    private final double logMean;
    private final double spread;
    private final WholeSum whole;

    /** For {@code steps} terms of log-scale {@code tau}, the rest's standard deviation {@code spread}. */
    RestSpread(int steps, double tau, double spread, WholeSum whole) {
        this.steps = steps;
        this.tau = tau;
        this.termMean = Math.exp(tau * tau / 2);
        this.logMean = Math.log(steps) + tau * tau / 2;
        this.spread = spread;
        this.whole = whole;
    }

    /**
     * An upper bound on {@code pi(r)} at {@code r = (T - 1) e1 + z sd} for {@link CenteredRestBound}: {@code E(R - r)_+}
     * right of the rest's mean, {@code E(r - R)_+} left of it (at the mean they agree). Scarf's everywhere; right, where
     * smaller, the whole sum's excess ({@code R <= S}); left, the whole sum's shortfall: {@code R = S - w}, so
     * {@code (r - R)_+ <= (r + a - S)_+ + (w - a)_+} for every {@code a}, and {@code E(k - S)_+ = k delta_Q(log(M/k))}
     * for {@code k <= M}, with {@code a} in {e1, 4 e1, 16 e1}.
     */
    double upper(double z) {
        double best = CenteredRestBound.scarf(spread, z);
        double mean = Math.exp(logMean);
        double r = (steps - 1) * termMean + z * spread;
        if (z >= 0 && whole.removeUpper() != null && r >= mean) {
            best = Math.min(best, mean * whole.removeUpper().applyAsDouble(Math.log(r / mean)) * (1 + 1e-12));
        }
        if (z <= 0 && whole.addUpper() != null && r > 0) {
            for (double multiple : new double[] {1, 4, 16}) {
                double a = multiple * termMean;
                double k = r + a;
                double call = Math.exp(CenteredRestBound.logCall(tau, Math.log(a)));
                if (k <= mean && !Double.isNaN(call)) {
                    double shortfall = k * whole.addUpper().applyAsDouble(Math.log(mean / k));
                    best = Math.min(best, (shortfall + call) * (1 + 1e-12));
                }
            }
        }
        return best;
    }

    /**
     * A lower bound on {@code E(r - R_b)_+} at {@code r = (T - 1) e1 + z sd}, {@code R_b} the rest conditioned on every
     * term being at most some level: {@code R_b <= R <= S} in law, so it is at least {@code E(r - S)_+ = r delta_Q(log(M
     * / r))} ({@code r <= M}), from the add direction's lower end.
     */
    double lowerLeft(double z) {
        double mean = Math.exp(logMean);
        double r = (steps - 1) * termMean + z * spread;
        if (!(r > 0 && r <= mean)) {
            return 0;
        }
        return r * whole.addLower().applyAsDouble(Math.log(mean / r)) * (1 - 1e-12);
    }

    /**
     * A lower bound on {@code E(R - r)_+} at {@code r = (T - 1) e1 + z sd}: {@code (S - r)_+ <= (R - r)_+ + w}, so
     * at least {@code E(S - r)_+ - e1}, where {@code E(S - r)_+} is {@code M delta_P(log(r / M))} for {@code r >= M}
     * and {@code M - r + E(r - S)_+} below.
     */
    double lowerRight(double z) {
        double mean = Math.exp(logMean);
        double r = (steps - 1) * termMean + z * spread;
        double excess;
        if (r >= mean) {
            excess = whole.removeLower() == null ? 0 : mean * whole.removeLower().applyAsDouble(Math.log(r / mean));
        } else {
            excess = (mean - r) + (whole.addLower() == null || !(r > 0) ? 0
                    : r * whole.addLower().applyAsDouble(Math.log(mean / r)));
        }
        return (excess * (1 - 1e-12) - termMean * (1 + 1e-12)) * (1 - 1e-12);
    }
}

package io.dpaudit.core.fdp;

import io.dpaudit.core.Checks;

/**
 * The trade-off function of {@code (eps, delta)}-DP (Dong, Roth &amp; Su 2019, Prop. 2.5 as usually cited):
 * {@code f(alpha) = max(0, 1 - delta - e^eps alpha, e^-eps (1 - delta - alpha))}; a mechanism is (ε, δ)-DP if and only
 * if it is f-DP for this {@code f}.
 */
public record EpsilonDeltaTradeOff(double epsilon, double delta) implements TradeOffFunction {
    public EpsilonDeltaTradeOff {
        Checks.nonNegative("epsilon", epsilon);
        if (!(delta >= 0 && delta <= 1)) {
            throw new IllegalArgumentException("delta must be in [0, 1]: " + delta);
        }
    }

    @Override
    public double beta(double alpha) {
        return Math.max(0.0, Math.max(1 - delta - Math.exp(epsilon) * alpha, Math.exp(-epsilon) * (1 - delta - alpha)));
    }
}

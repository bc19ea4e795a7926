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

    /**
     * {@code max(0, e^-eps (power - delta), 1 - delta - e^eps (1 - power))}, the second term in log space so that a
     * large ε does not overflow.
     */
    @Override
    public double leastAlphaAtPower(double power) {
        if (!(power > 0)) {
            return 0.0;
        }
        double p = Math.min(power, 1.0);
        double low = Math.exp(-epsilon) * (p - delta);
        double high = 0;
        if (p >= 1) {
            high = 1 - delta;
        } else {
            double logGap = epsilon + Math.log1p(-p); // log(e^eps (1 - power))
            if (logGap < Math.log1p(-delta)) {
                high = (1 - delta) - Math.exp(logGap);
            }
        }
        return Math.max(0.0, Math.max(low, high));
    }
}

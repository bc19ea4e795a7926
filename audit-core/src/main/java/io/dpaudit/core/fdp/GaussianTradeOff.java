package io.dpaudit.core.fdp;

import io.dpaudit.core.Checks;
import io.dpaudit.core.numerics.Normal;

/**
 * The Gaussian trade-off function {@code G_mu(alpha) = Phi(Phi^{-1}(1 - alpha) - mu)} (Dong, Roth &amp; Su 2019), the
 * trade-off between {@code N(0, 1)} and {@code N(mu, 1)}; evaluated as {@code Phi(isf(alpha) - mu)} so tiny
 * {@code alpha} keep their precision. Symmetric ({@code G_mu^{-1} = G_mu}); composition is
 * {@code G_a (x) G_b = G_{sqrt(a^2 + b^2)}}; the Gaussian mechanism with sensitivity {@code Delta} and noise {@code s}
 * is {@code G_{Delta/s}}-DP.
 */
public record GaussianTradeOff(double mu) implements TradeOffFunction {
    public GaussianTradeOff {
        Checks.nonNegative("mu", mu);
    }

    @Override
    public double beta(double alpha) {
        if (alpha <= 0) {
            return 1.0;
        }
        if (alpha >= 1) {
            return 0.0;
        }
        return Normal.cdf(Normal.inverseSurvival(alpha) - mu);
    }

    /** {@code Phi(Phi^{-1}(power) - mu)}, which is {@code G_mu(1 - power)} by symmetry. */
    @Override
    public double leastAlphaAtPower(double power) {
        if (!(power > 0)) {
            return 0.0;
        }
        if (power >= 1) {
            return 1.0;
        }
        return Normal.cdf(Normal.quantile(power) - mu);
    }
}

package io.dpaudit.core.testing;

import io.dpaudit.core.engine.LossBracket;
import io.dpaudit.core.engine.Scorer;

/**
 * The exact log-likelihood ratio of {@link ShiftedGaussianSampler}'s pair, {@code L(y) = log(1 - q + q e^{mu y -
 * mu^2/2})}, as a scorer with a floating-point bracket; written independently of the production attacks.
 */
public final class ShiftedGaussianLoss implements Scorer {
    private final double q;
    private final double mu;

    public ShiftedGaussianLoss(double q, double mu) {
        this.q = q;
        this.mu = mu;
    }

    /** {@code L(y)}, stable for large {@code mu y}. */
    public double loss(double y) {
        double t = mu * y - mu * mu / 2;
        if (q == 1) {
            return t;
        }
        // log((1-q) + q e^t) = log q + t + log1p((1-q)/q e^-t) for t > 0
        return t > 0 ? Math.log(q) + t + Math.log1p((1 - q) / q * Math.exp(-t))
                : Math.log1p(-q) + Math.log1p(q / (1 - q) * Math.exp(t));
    }

    @Override
    public int outputLength() {
        return 1;
    }

    @Override
    public double[] score(double[] outputs, int trials, double[] scratch) {
        for (int i = 0; i < trials; i++) {
            scratch[i] = loss(outputs[i]);
        }
        return scratch;
    }

    @Override
    public LossBracket lossBracket() {
        return LossBracket.within(1e-12, 1e-12);
    }

    @Override
    public String description() {
        return "test: exact LLR of Bernoulli(" + q + ")*" + mu + " + N(0,1) vs N(0,1)";
    }
}

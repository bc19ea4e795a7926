package io.dpaudit.core.testing;

import io.dpaudit.core.engine.Scorer;
import io.dpaudit.core.engine.TrialSampler;
import io.dpaudit.core.engine.TrialSamplerFactory;
import io.dpaudit.core.engine.World;
import org.apache.commons.rng.UniformRandomProvider;
import org.apache.commons.rng.sampling.distribution.ZigguratSampler;

/**
 * A deliberately plain test mechanism: in {@code D} the output is {@code B mu + Z} with {@code B ~ Bernoulli(q)} (a
 * coin per trial), in {@code D'} it is {@code Z}; {@code Z ~ N(0, 1)}. Its exact profile is the Poisson-subsampled
 * Gaussian's. Written independently of the production samplers so that tests can cross-check them.
 */
public final class ShiftedGaussianSampler implements TrialSamplerFactory {
    private final double q;
    private final double mu;

    public ShiftedGaussianSampler(double q, double mu) {
        this.q = q;
        this.mu = mu;
    }

    @Override
    public int outputLength() {
        return 1;
    }

    @Override
    public TrialSampler create(UniformRandomProvider rng) {
        ZigguratSampler.NormalizedGaussian g = ZigguratSampler.NormalizedGaussian.of(rng);
        return (world, out, trials) -> {
            for (int i = 0; i < trials; i++) {
                double shift = world == World.WITH_CANARY && rng.nextDouble() < q ? mu : 0.0;
                out[i] = shift + g.sample();
            }
        };
    }

    @Override
    public String description() {
        return "test: Bernoulli(" + q + ")*" + mu + " + N(0,1) vs N(0,1)";
    }

    /** The identity scorer (the output is its own score). */
    public static Scorer identity() {
        return new Scorer() {
            @Override
            public int outputLength() {
                return 1;
            }

            @Override
            public double[] score(double[] outputs, int trials, double[] scratch) {
                return outputs;
            }

            @Override
            public String description() {
                return "identity";
            }
        };
    }
}

package io.dpaudit.core.engine;

import org.apache.commons.rng.UniformRandomProvider;

/**
 * A mechanism that can run its two worlds on common random numbers: each coupled trial gives one output of {@code D}
 * and one of {@code D'} drawn from the same random numbers ({@link io.dpaudit.core.rng.CommonRandomNumbers}). Each
 * output alone has the law of an ordinary trial of its world; trials are independent of one another. Implementations
 * are immutable and thread-safe.
 */
public interface CoupledSamplerFactory {
    /** Number of doubles in one output. */
    int outputLength();

    /** One-line description for reports. */
    String description();

    /** A sampler of coupled trials bound to {@code rng}; every random draw it makes comes from {@code rng}. */
    Draws coupled(UniformRandomProvider rng);

    /** Draws coupled trials. Not thread-safe: one per shard. */
    @FunctionalInterface
    interface Draws {
        /**
         * Draws {@code trials} coupled trials: output {@code t} of {@code withCanary} and of {@code withoutCanary}
         * ({@code outputLength()} doubles each, at offset {@code t * outputLength()}) share their random numbers.
         */
        void sample(double[] withCanary, double[] withoutCanary, int trials);
    }
}

package io.dpaudit.core.blackbox;

import org.apache.commons.rng.UniformRandomProvider;

/**
 * A mechanism as its author wrote it: one run on an input, every random draw from the generator it is given, returning
 * an output of fixed length (a noisy value, a vector of noisy counts, an index as a double, a boolean vector as 0/1).
 * dp-audit knows nothing else about it — no likelihood ratio, no law of its output — so it is audited with generic
 * distinguishers ({@link StatisticScorer}, or a learned one from the {@code attacks} module).
 *
 * <p>The engine calls it with the two neighbouring inputs, in shards, each shard with its own stream of the root seed;
 * an implementation must draw only from {@code rng} (no {@code Math.random}, no static generator) for the audit to be
 * reproducible, and must not keep state between runs. It may be called from several threads at once, each with its own
 * {@code rng}.
 *
 * @param <I> the input type (a dataset, a vector of query answers, ...)
 */
@FunctionalInterface
public interface BlackBoxMechanism<I> {
    /**
     * Runs the mechanism once.
     *
     * @param input the dataset
     * @param rng the only source of randomness
     * @return the output; the same length on every call (the array may be reused by the caller's next call only after
     *     the engine has copied it, which it does at once)
     */
    double[] run(I input, UniformRandomProvider rng);
}

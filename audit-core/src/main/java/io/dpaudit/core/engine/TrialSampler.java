package io.dpaudit.core.engine;

/**
 * Draws mechanism outputs in one world. An instance belongs to one shard and is bound to that shard's random
 * stream; it is not thread-safe and keeps whatever scratch state it needs, so sampling allocates nothing.
 *
 * <p>Outputs are written as {@code trials} consecutive blocks of {@link TrialSamplerFactory#outputLength()}
 * doubles each. The block layout (rounds, coordinates) is the one the mechanism documents.
 */
public interface TrialSampler {
    /**
     * Fills {@code out[0, trials * outputLength)} with the outputs of {@code trials} independent runs of the
     * mechanism on the dataset of {@code world}.
     */
    void sample(World world, double[] out, int trials);
}

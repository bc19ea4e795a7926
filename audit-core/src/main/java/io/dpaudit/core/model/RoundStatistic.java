package io.dpaudit.core.model;

/**
 * How the sufficient statistic of one round is read off a simulator's output block: a linear projection for
 * additive-noise mechanisms ({@link LinearStatistic}), counts of received reports for shuffled protocols, or any other
 * function a mechanism documents. Implementations are immutable and thread-safe and allocate nothing per call.
 */
public interface RoundStatistic {
    /** The dimension {@code k} of the statistic. */
    int dimension();

    /** Length of the output block of one round. */
    int roundDimension();

    /**
     * Writes the statistic of the round block at {@code block[offset, offset + roundDimension())} into
     * {@code into[0, k)}.
     *
     * @return {@code false} when the round carries no information about the world (its likelihood ratio is 1, e.g.
     *     the canary's client is revealed not to have taken part); {@code into} is then unspecified
     */
    boolean extract(double[] block, int offset, double[] into);

    /**
     * Whether each round publishes an event that conditions the statistic's laws (a revealed participation flag): the
     * laws are then conditional on it, and an estimate from them would be the conditional profile, not the
     * mechanism's. False by default.
     */
    default boolean revealsFlag() {
        return false;
    }
}

package io.dpaudit.core.engine;

/**
 * The merged histograms of one counted phase, whatever kind of trial filled them ({@link TrialKind}): what the
 * scheduler merges shard by shard, a checkpoint keeps and a remote engine sends back.
 *
 * @param <C> the concrete counts
 */
public interface PhaseCounts<C extends PhaseCounts<C>> {
    /** The histogram layout. */
    HistogramBinning binning();

    /** Trials counted: per world for trials of each world apart, coupled trials for coupled ones. */
    long trials();

    /** Adds all of {@code other}'s counts (the same binning). */
    void add(C other);

    /** A copy (for checkpoints: the counts themselves keep changing). */
    C copy();

    /** The same counts on {@code other}, a binning with the same slots (a binning read back from a checkpoint). */
    C on(HistogramBinning other);

    /** The histograms, in the order of their kind's {@link TrialKind#histogramNames()}, as new arrays. */
    long[][] histograms();
}

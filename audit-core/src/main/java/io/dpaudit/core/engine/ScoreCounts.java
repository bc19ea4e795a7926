package io.dpaudit.core.engine;

import java.util.Arrays;

/**
 * Merged score histograms of one phase of an audit: the count of trials in each slot of a {@link HistogramBinning},
 * for each world, and the number of trials per world. Memory is {@code O(bins)} whatever the number of trials.
 *
 * <p>Counts are exact integers, so merging is exact; the engine merges shards in shard order regardless.
 */
public final class ScoreCounts {
    private final HistogramBinning binning;
    private final long[] withCanary;
    private final long[] withoutCanary;
    private long trials;

    /** Empty counts over {@code binning}. */
    public ScoreCounts(HistogramBinning binning) {
        this.binning = binning;
        this.withCanary = new long[binning.slots()];
        this.withoutCanary = new long[binning.slots()];
    }

    /** Counts from explicit slot arrays (both of length {@code binning.slots()} with equal totals). */
    public static ScoreCounts of(HistogramBinning binning, long[] withCanary, long[] withoutCanary) {
        if (withCanary.length != binning.slots() || withoutCanary.length != binning.slots()) {
            throw new IllegalArgumentException("count arrays must have " + binning.slots() + " slots");
        }
        long a = Arrays.stream(withCanary).sum();
        long b = Arrays.stream(withoutCanary).sum();
        if (a != b) {
            throw new IllegalArgumentException("worlds have different trial counts: " + a + " vs " + b);
        }
        ScoreCounts c = new ScoreCounts(binning);
        System.arraycopy(withCanary, 0, c.withCanary, 0, withCanary.length);
        System.arraycopy(withoutCanary, 0, c.withoutCanary, 0, withoutCanary.length);
        c.trials = a;
        return c;
    }

    void add(ShardCounts shard, int shardTrials) {
        int[] a = shard.withCanary;
        int[] b = shard.withoutCanary;
        for (int i = 0; i < a.length; i++) {
            withCanary[i] += a[i];
            withoutCanary[i] += b[i];
        }
        trials += shardTrials;
    }

    /** The binning the counts refer to. */
    public HistogramBinning binning() {
        return binning;
    }

    /** Trials per world. */
    public long trials() {
        return trials;
    }

    /** Count in slot {@code slot} of {@code world}. */
    public long count(World world, int slot) {
        return (world == World.WITH_CANARY ? withCanary : withoutCanary)[slot];
    }

    /**
     * Upper-tail counts of {@code world}: element {@code k in [0, bins]} is the number of trials whose score lies at
     * or above threshold edge {@code k}, i.e. in slots {@code k+1 .. bins+1}.
     */
    public long[] upperTail(World world) {
        long[] c = world == World.WITH_CANARY ? withCanary : withoutCanary;
        int bins = binning.bins();
        long[] tail = new long[bins + 1];
        long acc = 0;
        for (int k = bins; k >= 0; k--) {
            acc += c[k + 1];
            tail[k] = acc;
        }
        return tail;
    }
}

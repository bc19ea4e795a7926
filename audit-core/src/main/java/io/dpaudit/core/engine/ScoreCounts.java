package io.dpaudit.core.engine;

import java.util.Arrays;

/**
 * Merged score histograms of one phase of an audit: the count of trials in each slot of a {@link HistogramBinning},
 * for each world, and the number of trials of each world. Memory is {@code O(bins)} whatever the number of trials.
 *
 * <p>Simulated phases run both worlds equally often ({@link #trials()}); counts of external scores may hold different
 * numbers of trials per world ({@link #trials(World)}).
 *
 * <p>Counts are exact integers, so merging is exact; the engine merges shards in shard order regardless.
 */
public final class ScoreCounts implements PhaseCounts<ScoreCounts> {
    private final HistogramBinning binning;
    private final long[] withCanary;
    private final long[] withoutCanary;
    private long trials;
    private long trialsWithout;

    /** Empty counts over {@code binning}. */
    public ScoreCounts(HistogramBinning binning) {
        this.binning = binning;
        this.withCanary = new long[binning.slots()];
        this.withoutCanary = new long[binning.slots()];
    }

    /** Counts from explicit slot arrays (both of length {@code binning.slots()} with equal totals). */
    public static ScoreCounts of(HistogramBinning binning, long[] withCanary, long[] withoutCanary) {
        ScoreCounts c = ofUnequal(binning, withCanary, withoutCanary);
        if (c.trials != c.trialsWithout) {
            throw new IllegalArgumentException("worlds have different trial counts: " + c.trials + " vs "
                    + c.trialsWithout);
        }
        return c;
    }

    /**
     * Counts from explicit slot arrays whose totals may differ between the worlds (external scores: a run may hold
     * more trials of one world than of the other). Each world needs at least one trial.
     */
    public static ScoreCounts ofUnequal(HistogramBinning binning, long[] withCanary, long[] withoutCanary) {
        if (withCanary.length != binning.slots() || withoutCanary.length != binning.slots()) {
            throw new IllegalArgumentException("count arrays must have " + binning.slots() + " slots");
        }
        long a = Arrays.stream(withCanary).sum();
        long b = Arrays.stream(withoutCanary).sum();
        ScoreCounts c = new ScoreCounts(binning);
        System.arraycopy(withCanary, 0, c.withCanary, 0, withCanary.length);
        System.arraycopy(withoutCanary, 0, c.withoutCanary, 0, withoutCanary.length);
        c.trials = a;
        c.trialsWithout = b;
        return c;
    }

    /** Adds all of {@code other}'s counts (same binning). */
    @Override
    public void add(ScoreCounts other) {
        for (int i = 0; i < withCanary.length; i++) {
            withCanary[i] += other.withCanary[i];
            withoutCanary[i] += other.withoutCanary[i];
        }
        trials += other.trials;
        trialsWithout += other.trialsWithout;
    }

    /** The same counts on {@code other}, a binning with the same slots (a binning read back from a checkpoint). */
    @Override
    public ScoreCounts on(HistogramBinning other) {
        if (other.slots() != binning.slots()) {
            throw new IllegalArgumentException("binnings differ in slots: " + other.slots() + " vs " + binning.slots());
        }
        ScoreCounts c = new ScoreCounts(other);
        System.arraycopy(withCanary, 0, c.withCanary, 0, withCanary.length);
        System.arraycopy(withoutCanary, 0, c.withoutCanary, 0, withoutCanary.length);
        c.trials = trials;
        c.trialsWithout = trialsWithout;
        return c;
    }

    /** A copy (for checkpoints). */
    @Override
    public ScoreCounts copy() {
        ScoreCounts c = new ScoreCounts(binning);
        System.arraycopy(withCanary, 0, c.withCanary, 0, withCanary.length);
        System.arraycopy(withoutCanary, 0, c.withoutCanary, 0, withoutCanary.length);
        c.trials = trials;
        c.trialsWithout = trialsWithout;
        return c;
    }

    /** The two worlds' histograms, with the canary first. */
    @Override
    public long[][] histograms() {
        return new long[][] {withCanary.clone(), withoutCanary.clone()};
    }

    void add(ShardCounts shard, int shardTrials) {
        int[] a = shard.withCanary;
        int[] b = shard.withoutCanary;
        for (int i = 0; i < a.length; i++) {
            withCanary[i] += a[i];
            withoutCanary[i] += b[i];
        }
        trials += shardTrials;
        trialsWithout += shardTrials;
    }

    /** The binning the counts refer to. */
    public HistogramBinning binning() {
        return binning;
    }

    /**
     * Trials per world.
     *
     * @throws IllegalStateException when the worlds hold different numbers of trials (see {@link #trials(World)})
     */
    public long trials() {
        if (trials != trialsWithout) {
            throw new IllegalStateException("the worlds hold " + trials + " and " + trialsWithout + " trials");
        }
        return trials;
    }

    /** Trials of {@code world}. */
    public long trials(World world) {
        return world == World.WITH_CANARY ? trials : trialsWithout;
    }

    /** Whether both worlds hold the same number of trials. */
    public boolean balanced() {
        return trials == trialsWithout;
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

package io.dpaudit.core.engine;

import java.util.Objects;

/**
 * Histograms of coupled trials: each world's score slots, as {@link ScoreCounts} holds them, and the slots of the
 * smaller and of the larger of each trial's two scores, from which the number of trials whose both scores lie in a tail
 * follows. For a threshold edge {@code k} ("score at or above edge k" is "slot > k", see {@link HistogramBinning}):
 * both scores are at or above it when the smaller one's slot is above {@code k}, and both below it when the larger
 * one's slot is at most {@code k}. Memory is four arrays of {@code bins + 2} longs, whatever the number of trials.
 */
public final class CoupledCounts implements PhaseCounts<CoupledCounts> {
    private final HistogramBinning binning;
    private final long[] withCanary;
    private final long[] withoutCanary;
    private final long[] smaller;
    private final long[] larger;
    private long trials;

    /** Empty counts on {@code binning}. */
    public CoupledCounts(HistogramBinning binning) {
        this.binning = Objects.requireNonNull(binning, "binning");
        int slots = binning.slots();
        this.withCanary = new long[slots];
        this.withoutCanary = new long[slots];
        this.smaller = new long[slots];
        this.larger = new long[slots];
    }

    /** The four histograms, by the names a checkpoint gives them. */
    public enum Histogram {
        /** Slots of D's scores. */
        WITH_CANARY("withCanary"),
        /** Slots of D''s scores. */
        WITHOUT_CANARY("withoutCanary"),
        /** Slots of the smaller of each trial's two scores. */
        SMALLER("smaller"),
        /** Slots of the larger of each trial's two scores. */
        LARGER("larger");

        private final String key;

        Histogram(String key) {
            this.key = key;
        }

        /** The histogram's name in a checkpoint. */
        public String key() {
            return key;
        }
    }

    /**
     * Counts from explicit slot arrays (a checkpoint read back), refused unless they could have come from coupled
     * trials: every array has {@code binning.slots()} non-negative entries summing to the same number of trials; in
     * every slot the two worlds' counts add up to the smaller and larger scores' counts (each trial puts its two slots
     * in both pairs); and at every edge at least as many smaller scores as scores of either world lie at or below it.
     *
     * @param histograms the arrays in the order of {@link Histogram}
     * @throws IllegalArgumentException naming what is impossible
     */
    public static CoupledCounts of(HistogramBinning binning, long[]... histograms) {
        CoupledCounts c = new CoupledCounts(binning);
        long[][] into = {c.withCanary, c.withoutCanary, c.smaller, c.larger};
        if (histograms.length != into.length) {
            throw new IllegalArgumentException("coupled counts need " + into.length + " histograms, not "
                    + histograms.length);
        }
        long[] sums = new long[into.length];
        for (int h = 0; h < into.length; h++) {
            if (histograms[h].length != into[h].length) {
                throw new IllegalArgumentException("histogram " + Histogram.values()[h].key() + " has "
                        + histograms[h].length + " slots, not " + into[h].length);
            }
            for (int i = 0; i < into[h].length; i++) {
                long v = histograms[h][i];
                if (v < 0) {
                    throw new IllegalArgumentException("histogram " + Histogram.values()[h].key() + " has count " + v
                            + " in slot " + i);
                }
                into[h][i] = v;
                sums[h] = Math.addExact(sums[h], v);
            }
            if (sums[h] != sums[0]) {
                throw new IllegalArgumentException("histogram " + Histogram.values()[h].key() + " holds " + sums[h]
                        + " trials, " + Histogram.WITH_CANARY.key() + " " + sums[0]);
            }
        }
        long belowD = 0;
        long belowDPrime = 0;
        long belowSmaller = 0;
        for (int i = 0; i < c.withCanary.length; i++) {
            if (c.withCanary[i] + c.withoutCanary[i] != c.smaller[i] + c.larger[i]) {
                throw new IllegalArgumentException("slot " + i + " of the coupled counts: the worlds' counts do not "
                        + "add up to the smaller and larger scores' counts");
            }
            belowD += c.withCanary[i];
            belowDPrime += c.withoutCanary[i];
            belowSmaller += c.smaller[i];
            if (belowSmaller < Math.max(belowD, belowDPrime)) {
                throw new IllegalArgumentException("slot " + i + " of the coupled counts: fewer smaller scores than "
                        + "scores of one world lie at or below it");
            }
        }
        c.trials = sums[0];
        return c;
    }

    /** The count of {@code histogram} in {@code slot}. */
    public long count(Histogram histogram, int slot) {
        return switch (histogram) {
            case WITH_CANARY -> withCanary[slot];
            case WITHOUT_CANARY -> withoutCanary[slot];
            case SMALLER -> smaller[slot];
            case LARGER -> larger[slot];
        };
    }

    /** The same counts on {@code other}, a binning with the same slots (a binning read back from a checkpoint). */
    @Override
    public CoupledCounts on(HistogramBinning other) {
        if (other.slots() != binning.slots()) {
            throw new IllegalArgumentException("binnings differ in slots: " + other.slots() + " vs " + binning.slots());
        }
        return of(other, withCanary, withoutCanary, smaller, larger);
    }

    /** A copy (for checkpoints). */
    @Override
    public CoupledCounts copy() {
        return on(binning);
    }

    /** Counts one coupled trial whose scores fell in slot {@code slotD} of D and {@code slotDPrime} of D'. */
    public void add(int slotD, int slotDPrime) {
        withCanary[slotD]++;
        withoutCanary[slotDPrime]++;
        smaller[Math.min(slotD, slotDPrime)]++;
        larger[Math.max(slotD, slotDPrime)]++;
        trials++;
    }

    /** The four histograms, in the order of {@link Histogram}. */
    @Override
    public long[][] histograms() {
        return new long[][] {withCanary.clone(), withoutCanary.clone(), smaller.clone(), larger.clone()};
    }

    /** Empties the counts (a shard buffer reused). */
    void clear() {
        java.util.Arrays.fill(withCanary, 0);
        java.util.Arrays.fill(withoutCanary, 0);
        java.util.Arrays.fill(smaller, 0);
        java.util.Arrays.fill(larger, 0);
        trials = 0;
    }

    /** Adds {@code other}'s counts (same binning). */
    @Override
    public void add(CoupledCounts other) {
        if (other.binning != binning) {
            throw new IllegalArgumentException("coupled counts on different binnings");
        }
        for (int i = 0; i < withCanary.length; i++) {
            withCanary[i] += other.withCanary[i];
            withoutCanary[i] += other.withoutCanary[i];
            smaller[i] += other.smaller[i];
            larger[i] += other.larger[i];
        }
        trials += other.trials;
    }

    /** The binning. */
    @Override
    public HistogramBinning binning() {
        return binning;
    }

    /** Coupled trials counted (each is one trial of each world). */
    @Override
    public long trials() {
        return trials;
    }

    /** Each world's counts alone: the histograms an uncoupled phase of as many trials would fill, in law. */
    public ScoreCounts marginals() {
        return ScoreCounts.of(binning, withCanary.clone(), withoutCanary.clone());
    }

    /** Element {@code k in [0, bins]}: trials whose two scores both lie at or above edge {@code k}. */
    public long[] bothUpperTail() {
        int bins = binning.bins();
        long[] tail = new long[bins + 1];
        long acc = 0;
        for (int k = bins; k >= 0; k--) {
            acc += smaller[k + 1];
            tail[k] = acc;
        }
        return tail;
    }

    /** Element {@code k in [0, bins]}: trials whose two scores both lie below edge {@code k}. */
    public long[] bothLowerTail() {
        int bins = binning.bins();
        long[] tail = new long[bins + 1];
        long acc = 0;
        for (int k = 0; k <= bins; k++) {
            acc += larger[k];
            tail[k] = acc;
        }
        return tail;
    }
}

package io.dpaudit.core.engine;

import java.util.Objects;

/**
 * Histograms of coupled trials: each world's score slots, as {@link ScoreCounts} holds them, and the slots of the
 * smaller and of the larger of each trial's two scores, from which the number of trials whose both scores lie in a tail
 * follows. For a threshold edge {@code k} ("score at or above edge k" is "slot > k", see {@link HistogramBinning}):
 * both scores are at or above it when the smaller one's slot is above {@code k}, and both below it when the larger
 * one's slot is at most {@code k}. Memory is four arrays of {@code bins + 2} longs, whatever the number of trials.
 */
public final class CoupledCounts {
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

    /** Counts one coupled trial whose scores fell in slot {@code slotD} of D and {@code slotDPrime} of D'. */
    public void add(int slotD, int slotDPrime) {
        withCanary[slotD]++;
        withoutCanary[slotDPrime]++;
        smaller[Math.min(slotD, slotDPrime)]++;
        larger[Math.max(slotD, slotDPrime)]++;
        trials++;
    }

    /** Adds {@code other}'s counts (same binning). */
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
    public HistogramBinning binning() {
        return binning;
    }

    /** Coupled trials counted (each is one trial of each world). */
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

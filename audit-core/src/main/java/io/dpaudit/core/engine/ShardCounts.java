package io.dpaudit.core.engine;

import java.util.Arrays;

/**
 * Score counts of one shard in both worlds, in {@code int}s (a shard has fewer than 2^31 trials). Reused: the
 * engine resets and recycles instances, so running a shard allocates nothing.
 */
final class ShardCounts {
    final int[] withCanary;
    final int[] withoutCanary;
    private final double lo;
    private final double inverseWidth;
    private final int bins;

    ShardCounts(HistogramBinning binning) {
        this.withCanary = new int[binning.slots()];
        this.withoutCanary = new int[binning.slots()];
        this.lo = binning.lo();
        this.inverseWidth = binning.inverseWidth();
        this.bins = binning.bins();
    }

    /** Counts {@code scores[0, n)} in the histogram of {@code world}. Same rule as {@link HistogramBinning#index}. */
    void add(World world, double[] scores, int n) {
        int[] counts = world == World.WITH_CANARY ? withCanary : withoutCanary;
        double lower = lo;
        double inv = inverseWidth;
        int overflow = bins + 1;
        double limit = bins + 1.0;
        for (int i = 0; i < n; i++) {
            double t = (scores[i] - lower) * inv + 1.0;
            int index = t < 1.0 ? 0 : (t >= limit ? overflow : (int) t);
            counts[index]++;
        }
    }

    void reset() {
        Arrays.fill(withCanary, 0);
        Arrays.fill(withoutCanary, 0);
    }
}

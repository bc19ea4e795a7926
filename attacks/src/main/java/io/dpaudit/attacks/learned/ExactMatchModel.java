package io.dpaudit.attacks.learned;

import io.dpaudit.core.engine.ShardedPhase;
import io.dpaudit.core.engine.TrialSampler;
import io.dpaudit.core.engine.TrialSamplerFactory;
import io.dpaudit.core.engine.World;
import java.util.Locale;
import org.apache.commons.rng.UniformRandomProvider;

/**
 * For discrete outputs (an index, a count, a vector of flags): the log ratio of how often each distinct output occurs
 * in the two worlds' fitting samples, with half a count added to both ({@code log((c_D + 1/2) / (c_D' + 1/2))}); an
 * output never seen scores 0. This is the plug-in likelihood ratio, the best test there is once the counts are
 * accurate. It applies when the fitting sample holds at most {@value #MAX_DISTINCT} distinct outputs, each seen
 * {@value #MIN_MEAN_COUNT} times on average.
 *
 * <p>Outputs are looked up in an open-addressing table keyed by their coordinates' bits (-0.0 as 0.0, one NaN), so
 * scoring allocates nothing.
 */
final class ExactMatchModel implements ScoreModel {
    static final int MAX_DISTINCT = 1 << 16;
    static final int MIN_MEAN_COUNT = 8;

    private final int length;
    private final double[] keys;     // distinct outputs, length each
    private final double[] logRatio; // per distinct output
    private final int[] slots;       // -1 empty, else index into logRatio
    private final int mask;
    /** Outputs per world the ratios were counted on after a {@link #refit}; 0 when counted on the fitting sample. */
    private final long refitOutputs;

    private ExactMatchModel(int length, double[] keys, double[] logRatio, int[] slots, long refitOutputs) {
        this.length = length;
        this.keys = keys;
        this.logRatio = logRatio;
        this.slots = slots;
        this.mask = slots.length - 1;
        this.refitOutputs = refitOutputs;
    }

    /** The model, or null when the outputs are too varied for counts to mean anything. */
    static ExactMatchModel fit(TrainingSample s) {
        int n = s.fitCount();
        int limit = Math.min(MAX_DISTINCT, 2 * n / MIN_MEAN_COUNT);
        if (limit < 2) {
            return null;
        }
        int l = s.length();
        int capacity = Integer.highestOneBit(Math.max(4, limit) * 4);
        int[] slots = new int[capacity];
        java.util.Arrays.fill(slots, -1);
        double[] keys = new double[limit * l];
        long[] with = new long[limit];
        long[] without = new long[limit];
        int distinct = 0;
        for (int world = 0; world < 2; world++) {
            double[] data = world == 0 ? s.fitWith() : s.fitWithout();
            for (int i = 0; i < n; i++) {
                int off = i * l;
                int at = find(slots, capacity - 1, keys, l, data, off);
                int idx = slots[at];
                if (idx < 0) {
                    if (distinct == limit) {
                        return null;
                    }
                    idx = distinct++;
                    for (int j = 0; j < l; j++) {
                        keys[idx * l + j] = canonical(data[off + j]);
                    }
                    slots[at] = idx;
                }
                if (world == 0) {
                    with[idx]++;
                } else {
                    without[idx]++;
                }
            }
        }
        double[] ratio = new double[distinct];
        for (int i = 0; i < distinct; i++) {
            ratio[i] = Math.log((with[i] + 0.5) / (without[i] + 0.5));
        }
        return new ExactMatchModel(l, java.util.Arrays.copyOf(keys, distinct * l), ratio, slots, 0);
    }

    /**
     * The same distinct outputs with their counts taken afresh on {@code outputs} more outputs per world, drawn from
     * {@code rng} in batches (D then D', as the training sample) and counted as they come — nothing is held, so the
     * count can far exceed the training sample held in memory. Outputs not among the known ones are drawn and skipped
     * (they keep score 0). The plug-in ratio's accuracy, and with it the order of outputs whose ratios are close, then
     * grows with the audit's budget instead of stopping at the held sample.
     */
    ExactMatchModel refit(TrialSamplerFactory factory, long outputs, UniformRandomProvider rng) {
        int l = length;
        long[] with = new long[logRatio.length];
        long[] without = new long[logRatio.length];
        TrialSampler sampler = factory.create(rng);
        int batch = ShardedPhase.batchTrials(l);
        double[] buffer = new double[batch * l];
        for (long done = 0; done < outputs; ) {
            int b = (int) Math.min(batch, outputs - done);
            for (World w : World.values()) {
                sampler.sample(w, buffer, b);
                long[] counts = w == World.WITH_CANARY ? with : without;
                for (int i = 0; i < b; i++) {
                    int idx = slots[find(slots, mask, keys, l, buffer, i * l)];
                    if (idx >= 0) {
                        counts[idx]++;
                    }
                }
            }
            done += b;
        }
        double[] ratio = new double[logRatio.length];
        for (int i = 0; i < ratio.length; i++) {
            ratio[i] = Math.log((with[i] + 0.5) / (without[i] + 0.5));
        }
        return new ExactMatchModel(l, keys, ratio, slots, outputs);
    }

    private static double canonical(double v) {
        return v == 0 ? 0.0 : (Double.isNaN(v) ? Double.NaN : v);
    }

    private static int hash(double[] data, int off, int l) {
        long h = 0x9E3779B97F4A7C15L;
        for (int j = 0; j < l; j++) {
            long bits = Double.doubleToLongBits(canonical(data[off + j]));
            h ^= bits + 0x9E3779B97F4A7C15L + (h << 6) + (h >>> 2);
            h *= 0xBF58476D1CE4E5B9L;
            h ^= h >>> 31;
        }
        return (int) (h ^ (h >>> 32));
    }

    /** The slot holding this output, or the empty slot where it would go. */
    private static int find(int[] slots, int mask, double[] keys, int l, double[] data, int off) {
        int at = hash(data, off, l) & mask;
        while (true) {
            int idx = slots[at];
            if (idx < 0 || equal(keys, idx * l, data, off, l)) {
                return at;
            }
            at = (at + 1) & mask;
        }
    }

    private static boolean equal(double[] keys, int k, double[] data, int off, int l) {
        for (int j = 0; j < l; j++) {
            if (Double.compare(keys[k + j], canonical(data[off + j])) != 0) {
                return false;
            }
        }
        return true;
    }

    @Override
    public double score(double[] outputs, int offset) {
        int idx = slots[find(slots, mask, keys, length, outputs, offset)];
        return idx < 0 ? 0.0 : logRatio[idx];
    }

    @Override
    public String description() {
        String counted = refitOutputs > 0 ? String.format(Locale.ROOT, ", counted on %d further outputs per world",
                refitOutputs) : "";
        return String.format(Locale.ROOT, "plug-in likelihood ratio of the %d distinct outputs seen%s",
                logRatio.length, counted);
    }
}

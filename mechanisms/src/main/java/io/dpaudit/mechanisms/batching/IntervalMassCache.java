package io.dpaudit.mechanisms.batching;

import java.lang.ref.SoftReference;
import java.util.Iterator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * The last few lognormal interval-mass arrays ({@code P(w in (i h, (i+1) h])}, {@code i < n}), kept so that a
 * bracket's set-up computes each once: its plain, rounded-down and tilted lattices and the rounding offsets' means all
 * ask for the same {@code (n, h, tau, shift)}, 42 arrays of 2^20 normal tails where 9 differ (balls-and-bins, T = 1000,
 * σ = 1: about 1.8 s of its 11 s). A pure function's memo: the key is the arguments' exact bits, the arrays are shared
 * and never written by their readers, and each is held softly, so memory pressure clears it rather than the heap
 * running out; at most {@value #KEPT} are kept.
 */
final class IntervalMassCache {
    /** Arrays kept (8 MB each at 2^20 points). */
    static final int KEPT = 12;

    /** How an array is computed on a miss. */
    @FunctionalInterface
    interface Masses {
        double[] compute(int n, double h, double tau, double shift);
    }

    private final Masses masses;
    private final Map<List<Long>, SoftReference<double[]>> kept = new LinkedHashMap<>(16, 0.75f, true);

    IntervalMassCache(Masses masses) {
        this.masses = masses;
    }

    /** The masses for these arguments; the array is shared: callers must not write to it. */
    double[] get(int n, double h, double tau, double shift) {
        List<Long> key = List.of((long) n, Double.doubleToLongBits(h), Double.doubleToLongBits(tau),
                Double.doubleToLongBits(shift));
        synchronized (kept) {
            SoftReference<double[]> ref = kept.get(key);
            double[] found = ref == null ? null : ref.get();
            if (found != null) {
                return found;
            }
        }
        double[] computed = masses.compute(n, h, tau, shift);
        synchronized (kept) {
            kept.put(key, new SoftReference<>(computed));
            Iterator<Map.Entry<List<Long>, SoftReference<double[]>>> it = kept.entrySet().iterator();
            while (kept.size() > KEPT && it.hasNext()) {
                it.next();
                it.remove();
            }
        }
        return computed;
    }
}

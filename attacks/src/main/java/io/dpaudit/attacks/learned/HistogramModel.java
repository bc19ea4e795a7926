package io.dpaudit.attacks.learned;

import java.util.Arrays;
import java.util.Locale;

/**
 * For one-dimensional outputs: the log ratio of the two worlds' histograms over bins placed at quantiles of the pooled
 * fitting sample (so that every bin holds data), with half a count added to every bin of both worlds. It estimates the
 * likelihood ratio itself, so it also catches ratios that are not monotone in the output, which no threshold on the
 * raw value can. The score of an output is its bin's log ratio; looking up a bin is a binary search.
 */
final class HistogramModel implements ScoreModel {
    /** Pooled fitting outputs per bin, about. */
    static final int OUTPUTS_PER_BIN = 200;
    static final int MAX_BINS = 4096;

    private final double[] upperEdges; // bin i holds values < upperEdges[i] (and >= the previous edge); last is +inf
    private final double[] logRatio;

    private HistogramModel(double[] upperEdges, double[] logRatio) {
        this.upperEdges = upperEdges;
        this.logRatio = logRatio;
    }

    static HistogramModel fit(TrainingSample s) {
        int n = s.fitCount();
        double[] pooled = new double[2 * n];
        System.arraycopy(s.fitWith(), 0, pooled, 0, n);
        System.arraycopy(s.fitWithout(), 0, pooled, n, n);
        Arrays.sort(pooled);
        int bins = Math.max(2, Math.min(MAX_BINS, 2 * n / OUTPUTS_PER_BIN));
        double[] edges = new double[bins];
        int k = 0;
        for (int i = 1; i < bins; i++) {
            double e = pooled[(int) ((long) i * pooled.length / bins)];
            if (k == 0 || e > edges[k - 1]) {
                edges[k++] = e;
            }
        }
        // Bins: (-inf, e0), [e0, e1), ..., [e_{k-1}, +inf). A value equal to an edge belongs to the bin it starts.
        double[] upper = new double[k + 1];
        System.arraycopy(edges, 0, upper, 0, k);
        upper[k] = Double.POSITIVE_INFINITY;
        long[] with = new long[k + 1];
        long[] without = new long[k + 1];
        for (int i = 0; i < n; i++) {
            with[bin(upper, s.fitWith()[i])]++;
            without[bin(upper, s.fitWithout()[i])]++;
        }
        double[] ratio = new double[k + 1];
        for (int b = 0; b <= k; b++) {
            ratio[b] = Math.log((with[b] + 0.5) / (without[b] + 0.5));
        }
        return new HistogramModel(upper, ratio);
    }

    private static int bin(double[] upper, double v) {
        if (Double.isNaN(v)) {
            return upper.length - 1;
        }
        int i = Arrays.binarySearch(upper, v);
        // an exact hit on edge i starts bin i + 1; otherwise the insertion point is the first edge above v
        return i >= 0 ? Math.min(i + 1, upper.length - 1) : -i - 1;
    }

    @Override
    public double score(double[] outputs, int offset) {
        return logRatio[bin(upperEdges, outputs[offset])];
    }

    @Override
    public String description() {
        return String.format(Locale.ROOT, "histogram likelihood ratio over %d quantile bins", logRatio.length);
    }
}

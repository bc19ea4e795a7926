package io.dpaudit.core.engine;

import io.dpaudit.core.Checks;

/**
 * Equal-width bins over {@code [lo, hi)} plus an underflow and an overflow bin, so that every score is counted
 * exactly once whatever its value.
 *
 * <p>Index 0 holds scores below {@code lo} (and NaN, which a correct attack never produces), index
 * {@code bins + 1} holds scores at or above {@code hi}, and index {@code i in [1, bins]} holds
 * {@code [lo + (i-1) w, lo + i w)} with {@code w = (hi - lo) / bins}. Threshold {@code k in [0, bins]} is the edge
 * {@code lo + k w}; the test "score at or above threshold k" is "index > k", which is exact on the counts.
 */
public final class HistogramBinning {
    private final double lo;
    private final double hi;
    private final int bins;
    private final double inverseWidth;
    /** For a rank binning, the value each edge (rank) stands for; null otherwise. */
    private final double[] edgeValues;

    /**
     * @param lo lower edge, finite
     * @param hi upper edge, finite and {@code > lo}
     * @param bins number of interior bins, at least 1
     */
    public HistogramBinning(double lo, double hi, int bins) {
        this(lo, hi, bins, null);
    }

    private HistogramBinning(double lo, double hi, int bins, double[] edgeValues) {
        Checks.finite("histogram.lo", lo);
        Checks.finite("histogram.hi", hi);
        Checks.atLeast("histogram.bins", bins, 1);
        if (!(hi > lo)) {
            throw new IllegalArgumentException("histogram range is empty: [" + lo + ", " + hi + ")");
        }
        this.lo = lo;
        this.hi = hi;
        this.bins = bins;
        this.inverseWidth = bins / (hi - lo);
        this.edgeValues = edgeValues;
    }

    /**
     * The exact binning of a score that is a rank {@code r in [0, K)} standing for {@code values[r]} (see
     * {@link Scorer#rankValues()}): edges at the integers {@code 0 .. K-1}, so that rank {@code r} falls in slot
     * {@code r + 1} alone and edge {@code k} is the test "value at least {@code values[k]}".
     * With one value only, the single edge 0 admits every score and edge 1 none.
     */
    public static HistogramBinning ranks(double[] values) {
        int k = values.length;
        if (k == 0) {
            throw new IllegalArgumentException("a rank binning needs at least one value");
        }
        for (int i = 1; i < k; i++) {
            if (!(values[i] > values[i - 1])) {
                throw new IllegalArgumentException("rank values must increase strictly");
            }
        }
        if (k == 1) {
            return new HistogramBinning(0, 1, 1, new double[] {values[0], Double.POSITIVE_INFINITY});
        }
        return new HistogramBinning(0, k - 1, k - 1, values.clone());
    }

    /** Whether this is a rank binning, which counts every value of a discrete score exactly. */
    public boolean exact() {
        return edgeValues != null;
    }

    /**
     * Binning for a pilot sample with finite scores in {@code [min, max]}: the range is widened by half its span
     * on each side so that tails longer than the pilot saw still fall in interior bins.
     */
    public static HistogramBinning fromPilot(double min, double max, int bins) {
        double span = max - min;
        if (!(span > 0)) {
            span = 1.0 + Math.abs(max);
        }
        return new HistogramBinning(min - 0.5 * span, max + 0.5 * span, bins);
    }

    /** Lower edge of the first interior bin. */
    public double lo() {
        return lo;
    }

    /** Upper edge of the last interior bin. */
    public double hi() {
        return hi;
    }

    /** Number of interior bins. */
    public int bins() {
        return bins;
    }

    /** Length of a count array: interior bins plus underflow and overflow. */
    public int slots() {
        return bins + 2;
    }

    /** {@code bins / (hi - lo)}. */
    public double inverseWidth() {
        return inverseWidth;
    }

    /**
     * The threshold value of edge {@code k in [0, bins]}: the score at which the test "score at or above edge k"
     * starts, or for a rank binning the value rank {@code k} stands for.
     */
    public double edge(int k) {
        if (edgeValues != null) {
            return edgeValues[k];
        }
        return k == bins ? hi : lo + k / inverseWidth;
    }

    /** The slot of a score (see class comment). */
    public int index(double score) {
        double t = (score - lo) * inverseWidth + 1.0;
        return t < 1.0 ? 0 : (t >= bins + 1 ? bins + 1 : (int) t);
    }
}

package io.dpaudit.core.engine;

import java.util.Arrays;

/**
 * A scorer whose scores take few values, made exact: each score {@code s} becomes the rank {@code r} of the largest
 * known value at or below it ({@code values[r] <= s < values[r + 1]}; 0 below {@code values[0]}), so the rank binning
 * ({@link HistogramBinning#ranks}) gives every known value a slot of its own. The map is non-decreasing, so the test
 * "rank at least k" is the test "score at least {@code values[k]}": a threshold test on the original score. A value
 * the pilot did not see shares the slot of the known value below it — a coarser test, never an invalid one.
 *
 * <p>NaN stays NaN (a bug in the inner scorer, reported as such). Scoring allocates nothing.
 */
public final class RankedScorer implements Scorer {
    private final Scorer inner;
    private final double[] values;

    /**
     * @param inner the scorer whose values are ranked
     * @param values its known values, strictly increasing, finite
     */
    public RankedScorer(Scorer inner, double[] values) {
        this.inner = inner;
        this.values = values.clone();
        for (int i = 1; i < values.length; i++) {
            if (!(values[i] > values[i - 1])) {
                throw new IllegalArgumentException("values must increase strictly");
            }
        }
    }

    @Override
    public int outputLength() {
        return inner.outputLength();
    }

    @Override
    public double[] score(double[] outputs, int trials, double[] scratch) {
        double[] raw = inner.score(outputs, trials, scratch);
        for (int t = 0; t < trials; t++) {
            scratch[t] = rank(raw[t]);
        }
        return scratch;
    }

    private double rank(double s) {
        if (Double.isNaN(s)) {
            return s;
        }
        int i = Arrays.binarySearch(values, s);
        if (i >= 0) {
            return i;
        }
        int insertion = -i - 1; // first index whose value exceeds s
        return Math.max(0, insertion - 1);
    }

    @Override
    public String description() {
        return inner.description() + " (its " + values.length + " values seen in the pilot counted exactly, one slot "
                + "each; a value the pilot did not see would count with the next smaller one)";
    }

    @Override
    public double[] rankValues() {
        return values.clone();
    }

    /** The scorer whose values are ranked. */
    public Scorer inner() {
        return inner;
    }
}

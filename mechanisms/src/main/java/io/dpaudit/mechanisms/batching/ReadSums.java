package io.dpaudit.mechanisms.batching;

import java.util.function.IntToDoubleFunction;

/**
 * A lattice's masses summed by blocks of {@value #BLOCK} points from the top down, with index times mass, so that a
 * read of {@code sum_{from <= j < to} mass_j (a j - w)} costs its two ragged ends ({@link ConvexOrderLattice}'s reads;
 * every mass is at least 0).
 */
final class ReadSums {
    /** Points per block. */
    static final int BLOCK = 1024;
    private static final double U = 0x1p-53;
    /** Per block: the sums of mass, and of index times mass, over that block and every block above it. */
    private final double[] aboveMass;
    private final double[] aboveMoment;

    private ReadSums(double[] aboveMass, double[] aboveMoment) {
        this.aboveMass = aboveMass;
        this.aboveMoment = aboveMoment;
    }

    /** The block sums of {@code mass} over points {@code 0..length-1}. */
    static ReadSums of(int length, IntToDoubleFunction mass) {
        int blocks = (length + BLOCK - 1) / BLOCK;
        double[] m0s = new double[blocks + 1];
        double[] m1s = new double[blocks + 1];
        for (int b = blocks - 1; b >= 0; b--) {
            double m0 = 0;
            double m1 = 0;
            int end = Math.min(length, (b + 1) * BLOCK);
            for (int j = b * BLOCK; j < end; j++) {
                double v = mass.applyAsDouble(j);
                m0 += v;
                m1 += v * j;
            }
            m0s[b] = m0s[b + 1] + m0;
            m1s[b] = m1s[b + 1] + m1;
        }
        return new ReadSums(m0s, m1s);
    }

    /**
     * Into {@code out}: the sums of {@code mass} over points {@code [from, to)} and of index times mass, the ragged ends
     * point by point and the blocks between from the sums above them. Returns a bound on the rounding of
     * {@code a out[1] - w out[0]}: each sum of non-negative terms is within {@code (blocks + BLOCK) u} of itself and a
     * difference of two sums above within twice that of the larger, all at most the sums over every point from
     * {@code from} up (rounded up four-fold, with the products' and the difference's own rounding).
     */
    double range(int from, int to, double[] out, double a, double w, IntToDoubleFunction mass) {
        double m0 = 0;
        double m1 = 0;
        int firstFull = Math.min(to, (from + BLOCK - 1) / BLOCK * BLOCK);
        for (int j = from; j < firstFull; j++) {
            double v = mass.applyAsDouble(j);
            m0 += v;
            m1 += v * j;
        }
        // what the rounding is stated relative to: every point from `from` up (the ragged start, the blocks above it)
        double base0 = m0;
        double base1 = m1;
        if (firstFull < to) {
            base0 += aboveMass[firstFull / BLOCK];
            base1 += aboveMoment[firstFull / BLOCK];
            int lastFull = to / BLOCK * BLOCK;
            if (lastFull > firstFull) {
                m0 += aboveMass[firstFull / BLOCK] - aboveMass[lastFull / BLOCK];
                m1 += aboveMoment[firstFull / BLOCK] - aboveMoment[lastFull / BLOCK];
            }
            for (int j = lastFull; j < to; j++) {
                double v = mass.applyAsDouble(j);
                m0 += v;
                m1 += v * j;
            }
        }
        out[0] = m0;
        out[1] = m1;
        double errors = 8.0 * (aboveMass.length + BLOCK) * U;
        return errors * (Math.abs(a) * base1 + Math.abs(w) * base0);
    }
}

package io.dpaudit.mechanisms.checkin;

import io.dpaudit.core.model.RoundStatistic;

/**
 * The sufficient statistic of a round of check-ins, read off the block of releases: the releases of the target's
 * window {@code [from, from + width)} (the others are independent of the target on the simulated dataset) — for
 * randomized response the number of ones among them ({@code ones = true}, an atom index), for the Gaussian randomizer
 * the releases themselves. A skipped release (NaN, the planted skip-dummies fault) counts as no one.
 */
final class WindowStatistic implements RoundStatistic {
    private final int roundDimension;
    private final int from;
    private final int width;
    private final boolean ones;

    WindowStatistic(int roundDimension, int from, int width, boolean ones) {
        if (from < 0 || width < 1 || from + width > roundDimension) {
            throw new IllegalArgumentException("window [" + from + ", " + (from + width) + ") of " + roundDimension);
        }
        this.roundDimension = roundDimension;
        this.from = from;
        this.width = width;
        this.ones = ones;
    }

    @Override
    public int dimension() {
        return ones ? 1 : width;
    }

    @Override
    public int roundDimension() {
        return roundDimension;
    }

    @Override
    public boolean extract(double[] block, int offset, double[] into) {
        int start = offset + from;
        if (ones) {
            int k = 0;
            for (int i = 0; i < width; i++) {
                if (block[start + i] == 1.0) {
                    k++;
                }
            }
            into[0] = k;
        } else {
            System.arraycopy(block, start, into, 0, width);
        }
        return true;
    }
}

package io.dpaudit.core.numerics;

/** Drawing from a finite distribution given as a cumulative table, by inversion. */
public final class Inversion {
    private Inversion() {
    }

    /**
     * The first index {@code i} with {@code cumulative[i] >= u}, by binary search: for a non-decreasing table ending
     * in 1 and {@code u} uniform on [0, 1), index i is drawn with probability {@code cumulative[i] - cumulative[i-1]}.
     * Returns the last index when no entry reaches {@code u}.
     */
    public static int index(double[] cumulative, double u) {
        int a = 0;
        int b = cumulative.length - 1;
        while (a < b) {
            int m = (a + b) >>> 1;
            if (cumulative[m] < u) {
                a = m + 1;
            } else {
                b = m;
            }
        }
        return a;
    }

    /**
     * The cumulative table of the distribution with log weights {@code logWeights} (unnormalised, at least one
     * finite): {@code e^{w_i - max}} summed and divided by the total, the last entry set to exactly 1.
     */
    public static double[] cumulativeOfLogs(double[] logWeights) {
        double top = Double.NEGATIVE_INFINITY;
        for (double w : logWeights) {
            top = Math.max(top, w);
        }
        double[] cumulative = new double[logWeights.length];
        double acc = 0;
        for (int i = 0; i < logWeights.length; i++) {
            acc += Math.exp(logWeights[i] - top);
            cumulative[i] = acc;
        }
        for (int i = 0; i < cumulative.length; i++) {
            cumulative[i] /= acc;
        }
        cumulative[cumulative.length - 1] = 1.0;
        return cumulative;
    }
}

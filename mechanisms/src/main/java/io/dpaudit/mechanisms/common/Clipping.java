package io.dpaudit.mechanisms.common;

/** Per-record l2 clipping: {@code g * min(1, C / ||g||)} (Abadi et al. 2016, DP-SGD). */
public final class Clipping {
    private Clipping() {
    }

    /** l2 norm. */
    public static double norm(double[] g) {
        double s = 0;
        for (double x : g) {
            s += x * x;
        }
        return Math.sqrt(s);
    }

    /** A clipped copy of {@code g}: scaled down to norm {@code clip} when longer, unchanged otherwise. */
    public static double[] clip(double[] g, double clip) {
        double n = norm(g);
        double scale = n > clip ? clip / n : 1.0;
        double[] out = new double[g.length];
        for (int i = 0; i < g.length; i++) {
            out[i] = g[i] * scale;
        }
        return out;
    }
}

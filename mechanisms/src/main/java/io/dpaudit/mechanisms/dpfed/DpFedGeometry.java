package io.dpaudit.mechanisms.dpfed;

/**
 * The directions that matter for auditing a (smoothed) DP-Fed release {@code y = c A^{-1} x}, where
 * {@code x = sum of clipped updates + N(0, nu^2 I)} and the canary's update points along the unit vector {@code u}.
 *
 * <ul>
 *   <li>{@code v1 = A u / |A u|}: since {@code <y, A u> = c <x, u>}, the projection of {@code y} on {@code v1} is
 *       the sufficient statistic {@code <x, u>} scaled by {@code c / |A u|} — the likelihood-ratio attack reads it
 *       ("undoing the smoothing" costs nothing).</li>
 *   <li>{@code v2}: the unit vector completing {@code v1} to an orthonormal basis of {@code span{u, A u}}, so that
 *       the naive projection {@code <y, u>} is {@code <u, v1> <y, v1> + <u, v2> <y, v2>}.</li>
 *   <li>{@code <y, v2> = c (<x, u> k1 + nu k2 Z')} with {@code k1 = <u, A^{-1} v2>},
 *       {@code k2 = |A^{-1} v2 - k1 u|} and {@code Z'} standard normal, independent of {@code <x, u>}: the noise
 *       orthogonal to {@code u} seen through {@code A^{-1} v2}. Exact whenever every client's update lies in
 *       {@code span{u}} plus the orthogonal complement of {@code span{u, A^{-1} u}} (then nothing but noise reaches
 *       {@code A^{-1} v2} off {@code u}, because {@code A^{-1} v2} lies in {@code span{u, A^{-1} u}}).</li>
 * </ul>
 * When {@code u} is an eigenvector of {@code A} (no smoothing, or a constant canary) {@code v1 = u} and there is no
 * {@code v2}: {@link #hasSecond()} is false and one number per round suffices.
 */
final class DpFedGeometry {
    /** Below this norm of {@code u - <u, v1> v1} the canary counts as an eigenvector. */
    private static final double EIGEN_TOLERANCE = 1e-9;

    final double[] u;
    final double[] v1;
    final double[] v2;
    final double auNorm;
    final double k1;
    final double k2;
    final double[] inverseU;

    DpFedGeometry(LaplacianSmoothing smoothing, double[] u) {
        int d = u.length;
        this.u = u.clone();
        double[] au = smoothing.apply(u);
        this.auNorm = norm(au);
        this.v1 = scale(au, 1 / auNorm);
        this.inverseU = smoothing.applyInverseSpectral(u);
        double c = dot(u, v1);
        double[] r = new double[d];
        for (int i = 0; i < d; i++) {
            r[i] = u[i] - c * v1[i];
        }
        double rn = norm(r);
        if (rn > EIGEN_TOLERANCE) {
            this.v2 = scale(r, 1 / rn);
            double[] w = smoothing.applyInverseSpectral(v2);
            this.k1 = dot(u, w);
            double rest = 0;
            for (int i = 0; i < d; i++) {
                double x = w[i] - k1 * u[i];
                rest += x * x;
            }
            this.k2 = Math.sqrt(rest);
        } else {
            this.v2 = null;
            this.k1 = 0;
            this.k2 = 0;
        }
    }

    boolean hasSecond() {
        return v2 != null;
    }

    /** The canary direction's coordinates in the reduced block ({@code <u, v1>} and, if present, {@code <u, v2>}). */
    double[] canaryInBlock() {
        return hasSecond() ? new double[] {dot(u, v1), dot(u, v2)} : new double[] {1.0};
    }

    /** The canary direction: {@code e_1} ({@code spike}) or the constant unit vector ({@code smooth}). */
    static double[] canary(String shape, int dimension) {
        double[] u = new double[dimension];
        if (shape.equals("smooth")) {
            java.util.Arrays.fill(u, 1 / Math.sqrt(dimension));
        } else {
            u[0] = 1;
        }
        return u;
    }

    static double dot(double[] a, double[] b) {
        double s = 0;
        for (int i = 0; i < a.length; i++) {
            s += a[i] * b[i];
        }
        return s;
    }

    static double norm(double[] a) {
        return Math.sqrt(dot(a, a));
    }

    private static double[] scale(double[] a, double f) {
        double[] out = new double[a.length];
        for (int i = 0; i < a.length; i++) {
            out[i] = a[i] * f;
        }
        return out;
    }
}

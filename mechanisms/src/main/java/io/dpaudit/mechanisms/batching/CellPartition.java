package io.dpaudit.mechanisms.batching;

import io.dpaudit.core.numerics.Normal;

/**
 * The cells of one balls-and-bins term's range for the cell-mean lattice ({@link ConvexOrderLattice.Kind#CELL_MEANS}):
 * a partition of {@code (0, n h]} whose every cell (but the last) has its conditional mean at or just above a lattice
 * point, so that putting each cell's mass at that point is a conditional expectation, rounded down by a negligible
 * amount ({@value #CELL_AIM} of itself at most): below the term in convex order, with no first-order loss of the mean.
 * Since 2026-12-01 (tenth session); the cells were centred on the points before, each mean shifted towards its point to
 * second order, which at σ = 0.5 lost 0.033 h of each term's mean (the first cell, {@code (0, h/2]}, went to 0 whole).
 */
final class CellPartition {
    /** How far above its lattice point a cell's lowered mean may be aimed, relative (the lower end's loss per term). */
    static final double CELL_AIM = 1e-9;

    private CellPartition() {
    }

    /** The cells of one term's range: edges {@code b_0 = 0 < ... < b_C = n h}, each cell's point and mass. */
    record Cells(double[] edges, int[] points, double[] masses) {
    }

    /** The cell edges (class comment). */
    static double[] edges(int n, double h, double tau) {
        return cells(n, h, tau).edges();
    }

    /** One term's masses on points {@code 0..n}: each cell's mass at its point (class comment). */
    static double[] law(int n, double h, double tau) {
        Cells c = cells(n, h, tau);
        double[] a = new double[n + 1];
        for (int i = 0; i < c.points().length; i++) {
            if (c.points()[i] >= 0) {
                a[c.points()[i]] += c.masses()[i];
            }
        }
        return a;
    }

    /** The lattice point each cell's mass goes to ({@link #law}; -1 for a cell without mass). */
    static int[] points(int n, double h, double tau) {
        return cells(n, h, tau).points();
    }

    /**
     * The cells, from {@code 0} up: a cell starting at {@code b} aims its mean at the first lattice point {@code p h}
     * above {@code b + h/2}, its upper edge found by safeguarded Newton steps on the mean
     * ({@code d mean / dx = f(x) (x - mean) / F}) until the computed mean, lowered by its rounding allowance
     * ({@link #meanError}), is at least {@code p h} and above it by at most {@value #CELL_AIM} of itself; the last cell,
     * ending at the clamp, goes to its mean rounded down.
     */
    static Cells cells(int n, double h, double tau) {
        double clamp = n * h;
        double mu = Math.exp(tau * tau / 2);
        // each cell is wider than h / 2 (its mean, at most its upper edge, is past its start by that)
        double[] edges = new double[2 * n + 4];
        int[] points = new int[2 * n + 3];
        double[] masses = new double[2 * n + 3];
        int count = 0;
        double[] lo = tails(0, tau);
        double[] top = tails(clamp, tau);
        double start = 0;
        while (start < clamp && count < points.length) {
            edges[count] = start;
            int p = (int) Math.floor(start / h + 1.5);
            double target = p * h;
            double[] hi = top;
            double end = clamp;
            if (p <= n && loweredMean(lo, top, mu) > target) {
                // the mean rises with the upper edge: keep [below, above] around the aim
                double below = start;
                double above = clamp;
                double x = Math.min(clamp, start + 2 * (target - start));
                for (int it = 0; it < 100; it++) {
                    double[] t = tails(x, tau);
                    double mean = loweredMean(lo, t, mu);
                    if (mean >= target) {
                        above = x;
                        hi = t;
                        end = x;
                        if (mean <= target * (1 + CELL_AIM)) {
                            break;
                        }
                    } else {
                        below = x;
                    }
                    double f = between(lo, t, 0);
                    double slope = f > 0 ? Normal.pdf(t[4]) / (tau * x) * (x - mean) / f : 0;
                    double next = slope > 0 ? x - (mean - target * (1 + CELL_AIM / 2)) / slope : Double.NaN;
                    x = next > below && next < above ? next : (below + above) / 2;
                }
            } else {
                p = -1;
            }
            double f = between(lo, hi, 0);
            if (p < 0 && f > 0) {
                p = (int) Math.max(0, Math.min(n, Math.floor(loweredMean(lo, hi, mu) / h)));
            }
            points[count] = f > 0 ? p : -1;
            masses[count++] = f;
            lo = hi;
            start = end;
        }
        edges[count] = clamp;
        return new Cells(java.util.Arrays.copyOf(edges, count + 1), java.util.Arrays.copyOf(points, count),
                java.util.Arrays.copyOf(masses, count));
    }

    /** A cell's mean {@code mu g / f} lowered by its rounding allowance ({@link #meanError}); 0 without mass. */
    private static double loweredMean(double[] lo, double[] hi, double mu) {
        double f = between(lo, hi, 0);
        double g = between(lo, hi, 2);
        return f > 0 ? mu * g / f * (1 - meanError(lo, hi, f, g)) : 0;
    }

    /**
     * A bound on the relative error of a cell's computed mean {@code mu g / f}: each difference of two normal tails
     * {@code A - B} is off by at most {@code 4u (A + B)} from the tails' rounding (commons-numbers' erfc: 3e-16
     * relative) plus, for the shifted law's arguments {@code z - tau} (rounded once more), {@code 2u (|z| + tau)} times
     * the density there; the ratio adds the two relative errors and {@code 4u} more; all doubled.
     */
    static double meanError(double[] lo, double[] hi, double f, double g) {
        double u = 0x1p-53;
        double errF = 4 * u * (side(lo, hi, 0)) / f;
        double errG = (4 * u * side(lo, hi, 2) + 2 * u * (lo[5] + hi[5])) / g;
        return 2 * (errF + errG + 4 * u);
    }

    /** The sum of the two tails a difference {@link #between} was taken of. */
    private static double side(double[] lo, double[] hi, int k) {
        return lo[k] >= 0.5 ? lo[k + 1] + hi[k + 1] : lo[k] + hi[k];
    }

    /**
     * At {@code x}: {@code {cdf(z), sf(z), cdf(z - tau), sf(z - tau)}}, {@code z = log(x) / tau}, each computed on the
     * side where it is small and the other as its complement; then {@code z} and {@code (|z| + tau) phi(z - tau)}.
     */
    private static double[] tails(double x, double tau) {
        if (!(x > 0)) {
            return new double[] {0, 1, 0, 1, Double.NEGATIVE_INFINITY, 0};
        }
        double z = Math.log(x) / tau;
        double[] out = new double[6];
        for (int k = 0; k < 2; k++) {
            double y = k == 0 ? z : z - tau;
            if (y <= 0) {
                out[2 * k] = Normal.cdf(y);
                out[2 * k + 1] = 1 - out[2 * k];
            } else {
                out[2 * k + 1] = Normal.sf(y);
                out[2 * k] = 1 - out[2 * k + 1];
            }
        }
        out[4] = z;
        out[5] = (Math.abs(z) + tau) * Normal.pdf(z - tau);
        return out;
    }

    /** The mass between two points' {@link #tails} ({@code k = 0}: under Q; 2: under the shifted law). */
    private static double between(double[] lo, double[] hi, int k) {
        return Math.max(0, lo[k] >= 0.5 ? lo[k + 1] - hi[k + 1] : hi[k] - lo[k]);
    }
}

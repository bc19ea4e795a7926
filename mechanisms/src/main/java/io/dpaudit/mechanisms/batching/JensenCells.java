package io.dpaudit.mechanisms.batching;

import io.dpaudit.core.numerics.Normal;
import java.util.Arrays;

/**
 * Upper bounds on {@code G(r) = E[(1 - c/(Y + r))_+; Y > lower]}, {@code log Y ~ N(mu, tau^2)}, for every
 * {@code r} in {@code [0, rMax]}, by Jensen on cells of {@code log Y}: the cells' masses and means are computed once
 * (two normal tails per edge), and each {@code G(r)} sums {@code P_cell (1 - c/(m_cell + r))} over the cells above
 * its threshold {@code max(c - r, lower)}, the cell that holds the threshold taken from the threshold up (its mass
 * and mean in closed form), plus the mass above the last cell (counted as 1). The cells' log-width is
 * {@value #CELL} near {@code c}, growing with {@code sqrt(y/c)} above (Jensen's gap is about the width squared over
 * 12, times {@code c/(y + r)}); they start at the lowest threshold needed, or at {@code mu - }{@value #REACH}
 * {@code tau} with the mass below counted at the first edge ({@code G}'s integrand is increasing in {@code y}).
 */
final class JensenCells {
    /** Log-width of the cells next to {@code c} (Jensen's gap about its square / 12, relative). */
    static final double CELL = 0.004;
    /** How far the cells reach, in standard deviations of {@code log Y}. */
    static final double REACH = 12;

    private final double tau;
    private final double c;
    private final double mu;
    private final double lower;
    private final double scale;
    private final double[] edge;
    private final double[] sf;
    private final double[] sfShifted;
    private final double[] mean;
    /** Each cell's mass, {@code sf[i] - sf[i + 1]}, and 0 where that is not positive. */
    private final double[] cellMass;
    private final double below;
    private final int count;

    /**
     * The cells for threshold {@code c}, {@code log Y ~ N(mu, tau^2)} restricted to {@code Y > lower}, serving every
     * {@code r} in {@code [0, rMax]}.
     */
    JensenCells(double c, double mu, double tau, double lower, double rMax) {
        this.tau = tau;
        this.c = c;
        this.mu = mu;
        this.lower = lower;
        this.scale = Math.exp(mu + tau * tau / 2);
        double uTop = mu + REACH * tau;
        double uBottom = mu - REACH * tau;
        double lowest = Math.max(c - rMax, lower);
        double u0 = lowest > 0 ? Math.max(uBottom, Math.log(lowest)) : uBottom;
        this.below = lowest < Math.exp(uBottom) ? Normal.cdf(-REACH) : 0;
        int capacity = 1024;
        double[] edges = new double[capacity];
        int k = 0;
        double u = Math.min(u0, uTop);
        edges[k++] = u;
        while (u < uTop) {
            double width = Math.min(0.25, CELL * Math.max(1, Math.sqrt(Math.exp(u) / c)));
            u = Math.min(uTop, u + width);
            if (k == capacity) {
                capacity *= 2;
                edges = Arrays.copyOf(edges, capacity);
            }
            edges[k++] = u;
        }
        this.count = k - 1;
        this.edge = Arrays.copyOf(edges, k);
        this.sf = new double[k];
        this.sfShifted = new double[k];
        for (int i = 0; i < k; i++) {
            double z = (edge[i] - mu) / tau;
            sf[i] = Normal.sf(z);
            sfShifted[i] = Normal.sf(z - tau);
        }
        this.mean = new double[count];
        this.cellMass = new double[count];
        for (int i = 0; i < count; i++) {
            mean[i] = cellMean(sf[i] - sf[i + 1], sfShifted[i] - sfShifted[i + 1], edge[i], edge[i + 1]);
            double mass = sf[i] - sf[i + 1];
            cellMass[i] = mass > 0 ? mass : 0;
        }
    }

    /** The mean of a cell {@code [u0, u1]} of log Y from its mass and partial first moment, kept inside it. */
    private double cellMean(double mass, double moment, double u0, double u1) {
        if (!(mass > 0)) {
            return Math.exp(u1);
        }
        return Math.max(Math.exp(u0), Math.min(Math.exp(u1), scale * moment / mass));
    }

    /** The upper bound on {@code G(r)}. */
    double at(double r) {
        double threshold = Math.max(c - r, lower);
        double total = sf[count]; // above the last cell
        int first;
        if (threshold > 0 && Math.log(threshold) > edge[0]) {
            double u = Math.log(threshold);
            if (u >= edge[count]) {
                return Normal.sf((u - mu) / tau);
            }
            int i = Arrays.binarySearch(edge, u);
            int k = i >= 0 ? i : -i - 2; // the cell [edge[k], edge[k+1]) holding u
            double z = (u - mu) / tau;
            double sfU = Normal.sf(z);
            double mass = sfU - sf[k + 1];
            if (mass > 0) {
                double m = cellMean(mass, Normal.sf(z - tau) - sfShifted[k + 1], u, edge[k + 1]);
                total += mass * Math.max(0, 1 - c / (m + r));
            }
            first = k + 1;
        } else {
            double phi = 1 - c / (Math.exp(edge[0]) + r);
            if (phi > 0) {
                total += below * phi;
            }
            first = 0;
        }
        // a cell of no mass adds +0.0, which leaves the sum as it was
        for (int i = first; i < count; i++) {
            total += cellMass[i] * Math.max(0, 1 - c / (mean[i] + r));
        }
        return total;
    }
}

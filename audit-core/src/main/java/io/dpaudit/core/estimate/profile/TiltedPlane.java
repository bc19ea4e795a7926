package io.dpaudit.core.estimate.profile;

import io.dpaudit.core.law.GaussianMixture;
import io.dpaudit.core.numerics.LogSpace;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.TreeMap;
import org.apache.commons.rng.UniformRandomProvider;

/**
 * One round of a pair of two-dimensional Gaussian mixtures with one σ (seed 000's orthogonal configuration: the
 * canary's coordinate and the other records' coordinate), tilted: a component p_c of the world's mixture p (a group of
 * its components, normalised; p itself when there are no groups) reweighted by {@code e^{θ ℓ(x)}},
 * {@code ℓ = log p/q},
 * <pre>
 *   r(x) = p_c(x) e^{θ ℓ(x)} / M_c(θ) = e^{f(x)} / M_c(θ),    f = log p_c + θ (log p - log q),    M_c(θ) = E_{p_c}[e^{θ ℓ}].
 * </pre>
 *
 * <p><b>Exact sampling on a table.</b> The Hessian of f is at least {@code -K I} with
 * {@code K = 1/σ^2 + θ D_q^2/(4σ^4)}, D_q the diameter of q's means: for a mixture with one σ,
 * {@code ∇² log m = -I/σ^2 + Cov_post(μ)/σ^4} with {@code 0 <= Cov_post <= D^2/4 I} (Popoviciu along every
 * direction), so {@code ∇² log p_c >= -I/σ^2}, {@code θ ∇² log p >= -θ I/σ^2} and
 * {@code -θ ∇² log q >= θ I/σ^2 - θ D_q^2/(4σ^4) I}. On a square grid of step {@code h = σ/32}, f exceeds the bilinear
 * interpolant of a cell's corners by at most {@code K (h^2 + h^2)/8} (the excess vanishes on the corners; along an
 * edge, then along the other axis, its second derivative is {@code >= -K}), so {@code U = max(corners) + K h^2/4}
 * bounds f on the cell. A cell drawn in proportion to {@code e^U}, a uniform point in it and acceptance with probability
 * {@code e^{f - U}} give an exact draw of r restricted to the tabulated cells.
 *
 * <p><b>What is not tabulated, and its mass.</b> A mixture of n components is at most n times its largest weighted
 * component, and {@code q >= b_j φ(x - ν_j)} for every j, so
 * {@code e^f <= Σ_{i in c} Σ_k e^{c_ik} φ(x - m_ik)} with {@code m_ik = μ_i + θ(μ_k - ν_j)},
 * {@code c_ik = log(n_c w_i) + θ log(n w_k) - θ log b_j + β·μ_i + σ^2|β|^2/2 + θ(|ν_j|^2 - |μ_k|^2)/(2σ^2)},
 * {@code β = θ(μ_k - ν_j)/σ^2}, j chosen per pair to make {@code c_ik} smallest. The rectangle covers, by a margin of
 * W σ (W = 12, widened up to 40 when needed), every centre whose {@code c_ik} is within 60 of the largest or above
 * {@code log M - 40 - log(terms)} (M first roughly, then confirmed); the mass outside is at most {@code Σ e^{c_ik}} times the
 * centre's Gaussian mass beyond the rectangle's edges (1 for the centres left out, whose total is below e^{-40} M).
 * Cells whose bound is 50 below the largest are not stored; their mass is at most {@code h^2 e^U} each. Both are
 * added and compared with M: a tilt is {@linkplain #layout refused} unless the total is at most e^{-30} of M, the table
 * has at most {@value #MAX_NODES} nodes and the cells' slack {@code K h^2/4} is at most {@value #MAX_SLACK}.
 *
 * <p><b>The normaliser</b> {@code log M_c(θ)} is the product trapezoidal rule over the rectangle with step σ/8,
 * checked against step σ/6 (they must agree to 1e-12 relative; the rule converges geometrically for these analytic,
 * Gaussian-tailed integrands); the mass outside the rectangle is below e^{-31} of M by the check above.
 *
 * <p><b>Evaluation.</b> The log densities are computed on the grid separably: a mixture whose means take few distinct
 * first coordinates {@code a} is {@code Σ_a φ(u - a) P_a(v)} with {@code P_a} the one-dimensional mixture of the
 * components at {@code a}, so a grid row costs one {@code P_a(v)} per distinct {@code a}. {@link #supports} asks for at
 * most {@value #MAX_GROUPS} distinct first coordinates in each world. When p has exactly two groups (seed 000: the
 * canary's record sampled or not) they are the components the estimator stratifies by.
 */
final class TiltedPlane {
    static final int CELLS_PER_SD = 32;
    static final int MAX_GROUPS = 8;
    static final int MAX_COMPONENTS = 4096;
    static final long MAX_NODES = 1L << 23;
    static final double MAX_SLACK = 1.5;
    static final double MAX_LOG_TRUNCATED_MASS = -30;
    private static final double KEEP_BELOW_TOP = 50;
    private static final double CENTRE_CUTOFF = 60;
    private static final double[] MARGINS = {12, 20, 30, 40};

    private final Mixture component;
    private final Mixture p;
    private final Mixture q;
    private final double theta;
    private final double sd;
    private final double h;
    private final double uLo;
    private final double vLo;
    private final int[] cells;
    private final int rowCells;
    private final double[] cumulative;
    private final double[] cellBound;
    private final double logMoment;

    /** Whether the pair can be tilted: two dimensions, one σ, few distinct first coordinates, not too many components. */
    static boolean supports(GaussianMixture p, GaussianMixture q) {
        return p.dimension() == 2 && q.dimension() == 2 && p.sd() == q.sd()
                && p.components() <= MAX_COMPONENTS && q.components() <= MAX_COMPONENTS
                && new Mixture(p).groups() <= MAX_GROUPS && new Mixture(q).groups() <= MAX_GROUPS;
    }

    /**
     * @param component the component p_c of p drawn from (p itself, or one of its {@link Mixture#group groups})
     * @param p the world whose divergence is estimated (ℓ's numerator)
     * @param q the other world
     * @param theta the tilt, {@code >= 0}
     * @param layout {@link #layout}{@code (component, p, q, theta)}
     * @throws IllegalArgumentException when the tilt cannot be tabulated (a null layout, or too many cells dropped)
     */
    TiltedPlane(Mixture component, Mixture p, Mixture q, double theta, Layout layout) {
        if (!(theta >= 0) || !Double.isFinite(theta)) {
            throw new IllegalArgumentException("tilt must be finite and >= 0: " + theta);
        }
        this.component = component;
        this.p = p;
        this.q = q;
        this.theta = theta;
        this.sd = p.sd;
        this.h = sd / CELLS_PER_SD;
        if (layout == null || slack(q, theta, h) > MAX_SLACK) {
            throw new IllegalArgumentException("tilted plane at tilt " + theta + " cannot be tabulated");
        }
        this.logMoment = layout.logMoment;
        this.uLo = layout.rect[0];
        this.vLo = layout.rect[2];
        int nu = layout.cells(0, h);
        int nv = layout.cells(1, h);
        this.rowCells = nu;
        double slack = slack(this.q, theta, h);
        // Pass 1: the largest cell bound; pass 2: keep the cells within KEEP_BELOW_TOP of it.
        double top = Double.NEGATIVE_INFINITY;
        Rows rows = new Rows(component, p, q, theta, uLo, h, nu);
        double[] below = rows.row(vLo);
        for (int b = 0; b < nv; b++) {
            double[] above = rows.row(vLo + (b + 1) * h);
            for (int a = 0; a < nu; a++) {
                top = Math.max(top, corners(below, above, a));
            }
            below = above;
        }
        top += slack;
        double[] bounds = new double[1024];
        int n = 0;
        double droppedLog = Double.NEGATIVE_INFINITY;
        below = rows.row(vLo);
        int[] indices = new int[1024];
        for (int b = 0; b < nv; b++) {
            double[] above = rows.row(vLo + (b + 1) * h);
            for (int a = 0; a < nu; a++) {
                double c = corners(below, above, a);
                double bound = c + slack + 1e-12 * Math.max(1, Math.abs(c));
                if (bound >= top - KEEP_BELOW_TOP) {
                    if (n == bounds.length) {
                        bounds = Arrays.copyOf(bounds, 2 * n);
                        indices = Arrays.copyOf(indices, 2 * n);
                    }
                    bounds[n] = bound;
                    indices[n] = b * nu + a;
                    n++;
                } else {
                    droppedLog = LogSpace.add(droppedLog, bound + 2 * Math.log(h));
                }
            }
            below = above;
        }
        double logTruncated = LogSpace.add(layout.logOutside, droppedLog) - logMoment;
        if (!(logTruncated <= MAX_LOG_TRUNCATED_MASS)) {
            throw new IllegalArgumentException("tilted plane's mass beyond its table is not negligible (log "
                    + logTruncated + " at tilt " + theta + ")");
        }
        this.cells = Arrays.copyOf(indices, n);
        this.cellBound = Arrays.copyOf(bounds, n);
        this.cumulative = io.dpaudit.core.numerics.Inversion.cumulativeOfLogs(cellBound);
    }

    private static double corners(double[] below, double[] above, int a) {
        return Math.max(Math.max(below[a], below[a + 1]), Math.max(above[a], above[a + 1]));
    }

    /** {@code K h^2/4}: the most f can exceed its largest corner on a cell of side h. */
    private static double slack(Mixture q, double theta, double h) {
        double s2 = q.sd * q.sd;
        double d = q.diameter();
        return (1 / s2 + theta * d * d / (4 * s2 * s2)) * h * h / 4;
    }

    /**
     * The rectangle, the bound on the mass outside it and the verified normaliser {@code log M(θ)}; null when the tilt
     * cannot be tabulated: the normaliser does not converge, the table would exceed {@value #MAX_NODES} nodes, the
     * cells' slack {@value #MAX_SLACK}, or no margin brings the mass outside below e^{-31} of M (the dropped cells'
     * share is checked again when the table is built).
     */
    static Layout layout(Mixture component, Mixture p, Mixture q, double theta) {
        if (slack(q, theta, p.sd / CELLS_PER_SD) > MAX_SLACK) {
            return null;
        }
        double s2 = p.sd * p.sd;
        int terms = component.size() * p.size();
        double[] c = new double[terms];
        double[][] centre = new double[terms][2];
        double logNc = Math.log(component.size());
        double logN = Math.log(p.size());
        double top = Double.NEGATIVE_INFINITY;
        int t = 0;
        for (int i = 0; i < component.size(); i++) {
            for (int k = 0; k < p.size(); k++) {
                double best = Double.POSITIVE_INFINITY;
                for (int j = 0; j < q.size(); j++) {
                    double bu = theta * (p.u[k] - q.u[j]) / s2;
                    double bv = theta * (p.v[k] - q.v[j]) / s2;
                    double ck = component.logW[i] + logNc + theta * (p.logW[k] + logN) - theta * q.logW[j]
                            + bu * component.u[i] + bv * component.v[i] + s2 * (bu * bu + bv * bv) / 2
                            + theta * (q.u[j] * q.u[j] + q.v[j] * q.v[j] - p.u[k] * p.u[k] - p.v[k] * p.v[k])
                            / (2 * s2);
                    if (ck < best) {
                        best = ck;
                        centre[t][0] = component.u[i] + s2 * bu;
                        centre[t][1] = component.v[i] + s2 * bv;
                    }
                }
                c[t] = best;
                top = Math.max(top, best);
                t++;
            }
        }
        // The rectangle covers the centres near the largest constant and those that could matter against M: a rough
        // M (coarse quadrature over the first) sets the threshold, which the verified M must then confirm.
        double include = top - CENTRE_CUTOFF;
        double[] rough = rectangle(c, centre, include, MARGINS[0] * p.sd);
        if (rough == null) {
            return null;
        }
        double roughLog = trapezoid(component, p, q, theta, rough, p.sd / 4);
        include = Math.min(include, roughLog - 45 - Math.log(terms));
        Layout layout = layout(component, p, q, theta, c, centre, include);
        if (layout == null || layout.logMoment - 40 - Math.log(terms) < include) {
            return null;
        }
        return layout.logOutside - layout.logMoment <= MAX_LOG_TRUNCATED_MASS - 1 ? layout : null;
    }

    /** The bounding box of the centres whose constant is at least {@code include}, widened by {@code margin}. */
    private static double[] rectangle(double[] c, double[][] centre, double include, double margin) {
        double[] rect = {Double.POSITIVE_INFINITY, Double.NEGATIVE_INFINITY, Double.POSITIVE_INFINITY,
            Double.NEGATIVE_INFINITY};
        for (int i = 0; i < c.length; i++) {
            if (c[i] >= include) {
                rect[0] = Math.min(rect[0], centre[i][0]);
                rect[1] = Math.max(rect[1], centre[i][0]);
                rect[2] = Math.min(rect[2], centre[i][1]);
                rect[3] = Math.max(rect[3], centre[i][1]);
            }
        }
        rect[0] -= margin;
        rect[1] += margin;
        rect[2] -= margin;
        rect[3] += margin;
        double h = margin / MARGINS[0] / CELLS_PER_SD;
        long nodes = (long) (Math.ceil((rect[1] - rect[0]) / h) + 1) * (long) (Math.ceil((rect[3] - rect[2]) / h) + 1);
        return nodes > MAX_NODES ? null : rect;
    }

    private static Layout layout(Mixture component, Mixture p, Mixture q, double theta, double[] c,
            double[][] centre, double include) {
        Layout last = null;
        for (double margin : MARGINS) {
            double[] rect = rectangle(c, centre, include, margin * p.sd);
            if (rect == null) {
                return last;
            }
            double outside = Double.NEGATIVE_INFINITY;
            for (int i = 0; i < c.length; i++) {
                double tail = c[i] >= include ? logOutside(centre[i], rect, p.sd) : 0;
                outside = LogSpace.add(outside, c[i] + tail);
            }
            // The normaliser: trapezoid with step σ/8 checked against σ/6.
            double fine = trapezoid(component, p, q, theta, rect, p.sd / 8);
            double coarse = trapezoid(component, p, q, theta, rect, p.sd / 6);
            if (!(Math.abs(fine - coarse) <= 1e-12 * Math.max(1, Math.abs(fine)))) {
                return null;
            }
            last = new Layout(rect, outside, fine);
            if (outside - fine <= MAX_LOG_TRUNCATED_MASS - 1) {
                return last;
            }
        }
        return last;
    }

    /** Log of an upper bound on the mass of {@code N(centre, σ^2 I)} outside the rectangle (a union bound). */
    private static double logOutside(double[] centre, double[] rect, double sd) {
        double total = Double.NEGATIVE_INFINITY;
        double[] gaps = {centre[0] - rect[0], rect[1] - centre[0], centre[1] - rect[2], rect[3] - centre[1]};
        for (double g : gaps) {
            double z = g / sd;
            // Mills: Φ̄(z) <= φ(z)/z for z > 0.
            total = LogSpace.add(total, z > 1 ? -z * z / 2 - Math.log(z) - 0.5 * Math.log(2 * Math.PI) : 0);
        }
        return Math.min(0, total);
    }

    /**
     * {@code log ∫_rect e^f}, the product trapezoidal rule with the given step (the rectangle's sides rounded up to
     * whole steps).
     */
    private static double trapezoid(Mixture component, Mixture p, Mixture q, double theta, double[] rect,
            double step) {
        int nu = (int) Math.ceil((rect[1] - rect[0]) / step);
        int nv = (int) Math.ceil((rect[3] - rect[2]) / step);
        Rows rows = new Rows(component, p, q, theta, rect[0], step, nu);
        double total = Double.NEGATIVE_INFINITY;
        double[] rowLogs = new double[nv + 1];
        double[] logs = new double[nu + 1];
        for (int b = 0; b <= nv; b++) {
            double[] f = rows.row(rect[2] + b * step);
            for (int a = 0; a <= nu; a++) {
                logs[a] = f[a] + (a == 0 || a == nu ? Math.log(0.5) : 0);
            }
            rowLogs[b] = LogSpace.sum(logs, 0, logs.length) + (b == 0 || b == nv ? Math.log(0.5) : 0);
        }
        total = LogSpace.sum(rowLogs, 0, rowLogs.length);
        return total + 2 * Math.log(step);
    }

    /** {@code log M(θ)}, by quadrature, without allowance. */
    double logMoment() {
        return logMoment;
    }

    /**
     * For tests of the sampler's proof: the largest {@code f(x) - U} over {@code perCell} uniform points of every stored
     * cell (at most 0 when the cell bounds hold).
     */
    double maxBoundExcess(UniformRandomProvider rng, int perCell) {
        double worst = Double.NEGATIVE_INFINITY;
        for (int j = 0; j < cells.length; j++) {
            for (int k = 0; k < perCell; k++) {
                double x = uLo + (cells[j] % rowCells + rng.nextDouble()) * h;
                double y = vLo + (Math.floorDiv(cells[j], rowCells) + rng.nextDouble()) * h; // the cell's row
                double lp = p.logDensity(x, y);
                double f = component.logDensity(x, y) + theta * (lp - q.logDensity(x, y));
                worst = Math.max(worst, f - cellBound[j]);
            }
        }
        return worst;
    }

    /** Cells stored in the table. */
    int cells() {
        return cells.length;
    }

    /** A sampler on its own random source; one per thread. */
    TiltedFamily.RoundSampler sampler(UniformRandomProvider rng) {
        return () -> {
            while (true) {
                int j = io.dpaudit.core.numerics.Inversion.index(cumulative, rng.nextDouble());
                int cell = cells[j];
                double x = uLo + (cell % rowCells + rng.nextDouble()) * h;
                double y = vLo + (Math.floorDiv(cell, rowCells) + rng.nextDouble()) * h; // the cell's row
                double lp = p.logDensity(x, y);
                double lq = q.logDensity(x, y);
                double f = (component == p ? lp : component.logDensity(x, y)) + theta * (lp - lq);
                if (Math.log(rng.nextDouble()) <= f - cellBound[j]) {
                    return lp - lq;
                }
            }
        };
    }

    /** Where the tilted law is tabulated, the mass bound outside it and the normaliser. */
    record Layout(double[] rect, double logOutside, double logMoment) {
        int cells(int axis, double h) {
            return (int) Math.ceil((rect[2 * axis + 1] - rect[2 * axis]) / h);
        }
    }

    /** The values {@code f = log p_c + θ (log p - log q)} along a grid row of fixed v, separably. */
    private static final class Rows {
        private final Mixture component;
        private final Mixture p;
        private final Mixture q;
        private final double theta;
        private final double[] us;

        Rows(Mixture component, Mixture p, Mixture q, double theta, double uLo, double step, int cells) {
            this.component = component;
            this.p = p;
            this.q = q;
            this.theta = theta;
            us = new double[cells + 1];
            for (int a = 0; a <= cells; a++) {
                us[a] = uLo + a * step;
            }
        }

        /** f at the row's nodes (the returned array is fresh). */
        double[] row(double v) {
            double[] pg = p.groupLogs(v);
            double[] qg = q.groupLogs(v);
            double[] cg = component == p ? pg : component.groupLogs(v);
            double[] out = new double[us.length];
            for (int a = 0; a < us.length; a++) {
                double lp = p.combine(pg, us[a]);
                double lq = q.combine(qg, us[a]);
                double lc = component == p ? lp : component.combine(cg, us[a]);
                out[a] = lc + theta * (lp - lq);
            }
            return out;
        }
    }

    /**
     * A two-dimensional mixture with one σ, its components grouped by their first coordinate: full log densities
     * (normalised) at a point, and per row the groups' one-dimensional log densities in v.
     */
    static final class Mixture {
        final double sd;
        final double[] u;
        final double[] v;
        final double[] logW;
        private final double inv;
        private final double logNorm;
        private final double[] groupU;
        private final int[][] members;

        Mixture(GaussianMixture m) {
            this(m.sd(), means(m, 0), means(m, 1), logWeights(m));
        }

        private static double[] means(GaussianMixture m, int axis) {
            double[] out = new double[m.components()];
            for (int i = 0; i < out.length; i++) {
                out[i] = m.mean(i, axis);
            }
            return out;
        }

        private static double[] logWeights(GaussianMixture m) {
            double[] out = new double[m.components()];
            for (int i = 0; i < out.length; i++) {
                out[i] = Math.log(m.weight(i));
            }
            return out;
        }

        private Mixture(double sd, double[] u, double[] v, double[] logW) {
            this.sd = sd;
            this.u = u;
            this.v = v;
            this.logW = logW;
            int n = u.length;
            TreeMap<Double, List<Integer>> groups = new TreeMap<>();
            for (int i = 0; i < n; i++) {
                groups.computeIfAbsent(u[i], k -> new ArrayList<>()).add(i);
            }
            groupU = new double[groups.size()];
            members = new int[groups.size()][];
            int g = 0;
            for (var e : groups.entrySet()) {
                groupU[g] = e.getKey();
                members[g] = e.getValue().stream().mapToInt(Integer::intValue).toArray();
                g++;
            }
            inv = 0.5 / (sd * sd);
            logNorm = -Math.log(2 * Math.PI * sd * sd);
        }

        int size() {
            return u.length;
        }

        /** Group g's components (those at the g-th smallest first coordinate), weights normalised. */
        Mixture group(int g) {
            int[] mem = members[g];
            double[] gu = new double[mem.length];
            double[] gv = new double[mem.length];
            double[] gw = new double[mem.length];
            for (int i = 0; i < mem.length; i++) {
                gu[i] = u[mem[i]];
                gv[i] = v[mem[i]];
                gw[i] = logW[mem[i]];
            }
            double total = LogSpace.sum(gw, 0, gw.length);
            for (int i = 0; i < gw.length; i++) {
                gw[i] -= total;
            }
            return new Mixture(sd, gu, gv, gw);
        }

        /** The total weight of group g. */
        double groupWeight(int g) {
            double[] gw = Arrays.stream(members[g]).mapToDouble(i -> logW[i]).toArray();
            return Math.exp(LogSpace.sum(gw, 0, gw.length));
        }

        int groups() {
            return groupU.length;
        }

        /** The diameter of the means' bounding box (an upper bound on the means' diameter). */
        double diameter() {
            double du = Arrays.stream(u).max().orElseThrow() - Arrays.stream(u).min().orElseThrow();
            double dv = Arrays.stream(v).max().orElseThrow() - Arrays.stream(v).min().orElseThrow();
            return Math.hypot(du, dv);
        }

        /** {@code log Σ_{i in g} w_i e^{-(v - v_i)^2/(2σ^2)}} per group g. */
        double[] groupLogs(double y) {
            double[] out = new double[groupU.length];
            for (int g = 0; g < groupU.length; g++) {
                int[] mem = members[g];
                double max = Double.NEGATIVE_INFINITY;
                for (int i : mem) {
                    double d = y - v[i];
                    max = Math.max(max, logW[i] - d * d * inv);
                }
                double sum = 0;
                for (int i : mem) {
                    double d = y - v[i];
                    sum += Math.exp(logW[i] - d * d * inv - max);
                }
                out[g] = max + Math.log(sum);
            }
            return out;
        }

        /** The normalised log density at {@code (x, ·)} from the row's group logs. */
        double combine(double[] groupLogs, double x) {
            double max = Double.NEGATIVE_INFINITY;
            for (int g = 0; g < groupU.length; g++) {
                double d = x - groupU[g];
                max = Math.max(max, groupLogs[g] - d * d * inv);
            }
            if (groupU.length == 1) {
                return max + logNorm;
            }
            double sum = 0;
            for (int g = 0; g < groupU.length; g++) {
                double d = x - groupU[g];
                sum += Math.exp(groupLogs[g] - d * d * inv - max);
            }
            return max + Math.log(sum) + logNorm;
        }

        /** The normalised log density at {@code (x, y)}. */
        double logDensity(double x, double y) {
            double max = Double.NEGATIVE_INFINITY;
            for (int i = 0; i < u.length; i++) {
                double du = x - u[i];
                double dv = y - v[i];
                max = Math.max(max, logW[i] - (du * du + dv * dv) * inv);
            }
            double sum = 0;
            for (int i = 0; i < u.length; i++) {
                double du = x - u[i];
                double dv = y - v[i];
                sum += Math.exp(logW[i] - (du * du + dv * dv) * inv - max);
            }
            return max + Math.log(sum) + logNorm;
        }

        String key() {
            StringBuilder b = new StringBuilder().append(Double.doubleToLongBits(sd));
            for (int i = 0; i < u.length; i++) {
                b.append(' ').append(Double.doubleToLongBits(logW[i])).append('@').append(Double.doubleToLongBits(u[i]))
                        .append(',').append(Double.doubleToLongBits(v[i]));
            }
            return b.toString();
        }
    }
}


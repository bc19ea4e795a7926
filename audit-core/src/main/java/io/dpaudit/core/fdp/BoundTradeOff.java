package io.dpaudit.core.fdp;

import io.dpaudit.core.bounds.AccountingLimitException;
import io.dpaudit.core.bounds.LabelledBound;
import io.dpaudit.core.bounds.PairProfile;
import io.dpaudit.core.bounds.PrivacyBound;

/**
 * The trade-off function of an analytic bound, for f-DP claims and for drawing the trade-off plane.
 *
 * <ul>
 *   <li>A bound that is exactly {@code G_mu} ({@link PrivacyBound#gdpMu}) is {@link GaussianTradeOff}.</li>
 *   <li>A pair whose curve is known in closed form ({@link PairProfile#tradeOffVertices}: discrete laws) is that
 *       piecewise-linear curve.</li>
 *   <li>The exact profile of any other pair ({@link PairProfile}, possibly under a {@link LabelledBound}) gives that pair's
 *       curve {@code T(M(D), M(D'))} from both directions of its hockey-stick divergences: a test rejecting
 *       {@code P = M(D)} with errors {@code (alpha, beta)} satisfies {@code beta >= 1 - H_{e^eps}(Q||P) - e^eps alpha}
 *       and {@code beta >= e^-eps (1 - alpha - H_{e^eps}(P||Q))} for every {@code eps >= 0}, and likelihood-ratio
 *       tests attain the better of the two (Neyman–Pearson).</li>
 *   <li>Any other bound, a symmetric profile {@code delta(eps)}, gives {@code sup_eps f_{eps, delta(eps)}}.</li>
 * </ul>
 * The suprema run over a fixed grid of ε (0 and 600 values from 1e-4 to 60, log-spaced), with the bound's δ computed
 * once per grid value: on a grid the supremum is at most the true curve, which is the safe side (a smaller {@code f} is
 * a weaker claim, so a point below it is below the true claim as well), but where the curve has a kink between two
 * grid values (randomized response at eps0, say) it is below by up to about {@code 1e-3} in β — which is why discrete
 * pairs use their exact vertices. Where the bound certifies no finite ε at some grid value its δ there counts as 1.
 */
public final class BoundTradeOff implements TradeOffFunction {
    private static final double[] GRID = grid(600);
    private static final double[] COARSE = grid(60);

    private final double[] expGrid;
    private final double[] remove;
    private final double[] add;

    private BoundTradeOff(double[] grid, double[] remove, double[] add) {
        this.expGrid = exp(grid);
        this.remove = remove;
        this.add = add;
    }

    /** The trade-off function of {@code bound} (see the class comment), on the full grid of 600 ε values. */
    public static TradeOffFunction of(PrivacyBound bound) {
        return of(bound, GRID);
    }

    /**
     * The trade-off function of the <i>reversed</i> pair, {@code T(M(D'), M(D))}, that {@code bound} implies. For the
     * exact profile of one ordered pair ({@link PairProfile}) that is {@code f^{-1}}, the reflection of {@link #of}
     * in the diagonal (the hockey-stick divergences with their directions swapped, or the vertices with their axes
     * swapped); claiming {@code T(M(D'), M(D)) >= f} instead would be wrong for an asymmetric pair (a subsampled
     * mixture against a Gaussian, say) and would refute a true curve. Every other bound is a statement about every
     * neighbouring pair of a symmetric adjacency, so it constrains both orders by the same function: {@link #of}.
     */
    public static TradeOffFunction reverseOf(PrivacyBound bound) {
        PrivacyBound b = unwrap(bound);
        if (!(b instanceof PairProfile pp) || !Double.isNaN(bound.gdpMu())) {
            return of(bound);
        }
        if (pp.tradeOffVertices() != null) {
            double[][] v = pp.tradeOffVertices();
            int n = v[0].length;
            double[] alpha = new double[n];
            double[] beta = new double[n];
            for (int i = 0; i < n; i++) {
                alpha[i] = v[1][n - 1 - i];
                beta[i] = v[0][n - 1 - i];
            }
            return new PiecewiseLinearTradeOff(alpha, beta);
        }
        double[] r = new double[GRID.length];
        double[] a = new double[GRID.length];
        for (int i = 0; i < GRID.length; i++) {
            double eps = GRID[i];
            r[i] = safe(() -> pp.add(eps)); // T(Q, P): Q plays the part of the law with the record
            a[i] = safe(() -> pp.remove(eps));
        }
        return new BoundTradeOff(GRID, r, a);
    }

    /** Whether {@code bound} is the exact profile of one ordered pair (so that its trade-off curve is asymmetric). */
    public static boolean isOrderedPair(PrivacyBound bound) {
        return unwrap(bound) instanceof PairProfile && Double.isNaN(bound.gdpMu());
    }

    private static PrivacyBound unwrap(PrivacyBound bound) {
        PrivacyBound b = bound;
        while (b instanceof LabelledBound l) {
            b = l.values();
        }
        return b;
    }

    /**
     * The same on a coarse grid of 60 ε values (for drawing: a bound whose δ is costly to evaluate, such as a composed
     * PLD, then costs a tenth). Still at most the true curve.
     */
    public static TradeOffFunction forDrawing(PrivacyBound bound) {
        return of(bound, COARSE);
    }

    private static TradeOffFunction of(PrivacyBound bound, double[] grid) {
        if (!Double.isNaN(bound.gdpMu())) {
            return new GaussianTradeOff(bound.gdpMu());
        }
        PrivacyBound b = unwrap(bound);
        if (b instanceof PairProfile pp && pp.tradeOffVertices() != null) {
            double[][] v = pp.tradeOffVertices();
            return new PiecewiseLinearTradeOff(v[0], v[1]);
        }
        double[] r = new double[grid.length];
        double[] a = new double[grid.length];
        if (!(b instanceof PairProfile)) {
            double[] batch = batch(b, grid);
            if (batch != null) {
                return new BoundTradeOff(grid, batch, batch);
            }
        }
        for (int i = 0; i < grid.length; i++) {
            double eps = grid[i];
            if (b instanceof PairProfile pp) {
                r[i] = safe(() -> pp.remove(eps));
                a[i] = safe(() -> pp.add(eps));
            } else {
                PrivacyBound fb = b;
                r[i] = safe(() -> fb.delta(eps));
                a[i] = r[i];
            }
        }
        return new BoundTradeOff(grid, r, a);
    }

    /**
     * The profile on the whole grid in one pass ({@link PrivacyBound#deltas}: upper bounds, so the trade-off function is
     * at most the exact one), each value clamped to [0, 1] with NaN read as 1; null when the bound cannot answer some
     * point in one pass (an accountant at its limits), for the point-by-point path.
     */
    private static double[] batch(PrivacyBound b, double[] grid) {
        double[] d;
        try {
            d = b.deltas(grid);
        } catch (AccountingLimitException e) {
            return null;
        }
        double[] out = new double[d.length];
        for (int i = 0; i < d.length; i++) {
            out[i] = Double.isNaN(d[i]) ? 1.0 : Math.min(1.0, Math.max(0.0, d[i]));
        }
        return out;
    }

    private static double safe(java.util.function.DoubleSupplier d) {
        try {
            double v = d.getAsDouble();
            return Double.isNaN(v) ? 1.0 : Math.min(1.0, Math.max(0.0, v));
        } catch (AccountingLimitException e) {
            return 1.0;
        }
    }

    @Override
    public double beta(double alpha) {
        double best = 0;
        for (int i = 0; i < expGrid.length; i++) {
            double e = expGrid[i];
            best = Math.max(best, 1 - add[i] - e * alpha);
            best = Math.max(best, (1 - alpha - remove[i]) / e);
        }
        return Math.min(1 - alpha, best);
    }

    /** {@code e^eps} on the grid, once per curve rather than once per evaluation (the same values). */
    private static double[] exp(double[] grid) {
        double[] e = new double[grid.length];
        for (int i = 0; i < grid.length; i++) {
            e[i] = Math.exp(grid[i]);
        }
        return e;
    }

    private static double[] grid(int n) {
        double[] g = new double[n + 1];
        g[0] = 0;
        for (int i = 1; i <= n; i++) {
            g[i] = 1e-4 * Math.pow(6e5, (i - 1) / (n - 1.0));
        }
        return g;
    }
}

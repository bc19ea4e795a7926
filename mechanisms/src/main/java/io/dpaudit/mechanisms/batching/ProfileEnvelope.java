package io.dpaudit.mechanisms.batching;

import io.dpaudit.core.accounting.DpEvent;
import java.util.Arrays;
import java.util.function.DoubleUnaryOperator;

/**
 * Tightens the tail of one epoch's upper law of the privacy loss with pointwise bounds on its curve {@code delta(eps)},
 * so that a composition of several epochs gains from bounds that hold for the curve but not for the survival function
 * (the deep tail's second order, {@link AllocationDeepTail#removeUpper}).
 *
 * <p><b>Why a curve bound is enough.</b> For a law {@code w} of the loss (a non-negative measure on the grid and
 * {@code +inf}) write {@code D_w(x) = w(+inf) + sum_l w(l) (1 - e^{x - l})_+}. The composed curve is
 * {@code D_{w*v}(x) = sum_l v(l) D_w(x - l)} (the same formula summed over the second law), so if
 * {@code D_w >= D_true} at every real {@code x}, then {@code D_{w*v} >= D_{true*v}} for every non-negative {@code v},
 * and by induction every {@code E}-fold composition of {@code w} bounds the true one's from above. No property of a
 * pair of distributions is needed, only that {@code w} is non-negative.
 *
 * <p><b>The construction.</b> In {@code alpha = e^x} every {@code D_w} is convex, non-increasing and linear between
 * grid points; its slope changes at grid point {@code l} by {@code w(l) e^{-l}}. Let {@code u_i} be the given law's
 * {@code D_i}, lowered to the curve bound where one is evaluated and smaller, then the smallest of those up to {@code i}
 * (the true curve is non-increasing, so that is still an upper bound). The lower convex hull of the points
 * {@code (alpha_i, u_i)} is at least the true curve (convex, and below every chord of points above it; beyond the last
 * point the curve is its mass at {@code +inf}, the last {@code u}), and it is the curve of the masses read off its
 * slope changes. Left of the hull's last vertex {@code a} before the first lowered point the hull is the law's own
 * curve, so the masses there are kept and the mass put at {@code a} is the slope change there (not negative: the hull
 * is convex); then the new curve minus the old one below {@code a} is {@code [D'(x_a) - D(x_a)] + (alpha_a - alpha)
 * (B' - B)}, {@code B} the mass from {@code a} on weighted by {@code e^{x_a - l}}, both brackets zero.
 *
 * <p><b>Rounding.</b> The new masses are scaled up by a relative {@value #SCALE_UP} (the curve is linear in them), and
 * the result is checked: its curve, recomputed, must be at least the hull at every grid point from {@code a} by a
 * relative {@value #CHECK_MARGIN}, and its weighted mass from {@code a} at least the old one by as much; where a check
 * fails, or no bound is below the law's curve, the given law is returned unchanged. Both curves are computed by a
 * recursion that only adds non-negative numbers (relative error far under the margins).
 *
 * <p>Measured ({@code bound balls-and-bins}, four epochs; the deep tail's second order as the bounds, its upper bound
 * on about 300 points, its lower bound on about every grid point of the tail): T = 10^4, σ = 0.7, δ = 1e-8: [0.5948,
 * 0.5967] (0.32%; was 3.1% wide); T = 1000, σ = 1, 1e-12: [1.024, 1.027] (0.25%; was 2%), 1e-10: [0.6686,
 * 0.6721] (0.52%; was 0.96%); T = 10^4, σ = 1, 1e-12: [0.1758, 0.1780] (1.2%; was 15%); 12 to 23 s a call as before.
 */
final class ProfileEnvelope {
    /** Relative amount by which the new masses are scaled up against rounding. */
    static final double SCALE_UP = 1e-9;
    /** Relative margin by which the recomputed curve must exceed every point it was built from. */
    static final double CHECK_MARGIN = 1e-10;

    /** Where the tail's replacement starts: the first grid point whose curve is below this. */
    static final double START_BELOW = 1e-5;
    /** Where the curve bound is no longer evaluated. */
    static final double STOP_BELOW = 1e-20;
    /** Ratio of the law's curve between consecutive points where the bound is evaluated. */
    static final double RATIO = 1.1;
    /**
     * The same for a lower end, whose bound holds between points only as the next point's value (the deep tail's lower
     * bound costs about 0.06 ms a point, its upper bound 10 ms).
     */
    static final double LOWER_RATIO = 1.001;
    /** Largest span of the grid in loss (its {@code e^{span}} must not overflow). */
    static final double MAX_LOG_RANGE = 600;

    private ProfileEnvelope() {
    }

    /** {@link #upper(double[], long, double, double, double, double, DoubleUnaryOperator)} at the defaults. */
    static DpEvent.LossMasses upper(double[] survival, long iLo, double h, DoubleUnaryOperator bound) {
        return upper(survival, iLo, h, START_BELOW, STOP_BELOW, RATIO, bound);
    }

    /** {@link #lower(double[], long, double, double, double, double, DoubleUnaryOperator)} at the defaults. */
    static DpEvent.LossMasses lower(double[] survival, long iLo, double h, DoubleUnaryOperator bound) {
        return lower(survival, iLo, h, START_BELOW, STOP_BELOW, LOWER_RATIO, bound);
    }

    /**
     * The law of survival function {@code survival} (grid {@code h}, its entry {@code i} the mass at loss at least
     * {@code (iLo + i) h}, its last entry the mass at {@code +inf}) with its tail replaced as above: from the first grid
     * point where the law's curve is below {@code startBelow}, {@code bound} (a certified upper bound on the true curve;
     * {@code +inf} or NaN where it has none) is evaluated at grid points each {@code ratio} times below the last on the
     * law's curve, down to {@code stopBelow}. The masses below the rebuilt tail are those {@link SurvivalMerge#losses}
     * reads, bit for bit (all of them where nothing is lowered).
     */
    static DpEvent.LossMasses upper(double[] survival, long iLo, double h, double startBelow, double stopBelow,
            double ratio, DoubleUnaryOperator bound) {
        Law law = new Law(survival, h);
        if (!law.usable()) {
            return law.masses(iLo);
        }
        double[] u = law.curve.clone();
        int firstLowered = -1;
        for (int i : law.points(startBelow, stopBelow, ratio)) {
            double v = bound.applyAsDouble((iLo + i) * h);
            if (v < u[i]) {
                u[i] = v;
                firstLowered = firstLowered < 0 ? i : firstLowered;
            }
        }
        for (int j = 1; j < u.length; j++) {
            u[j] = Math.min(u[j], u[j - 1]);
        }
        return law.rebuild(u, firstLowered, true, iLo);
    }

    /**
     * The same for a lower end: {@code survival} a law whose curve is at most the true one at every ε, {@code bound} a
     * proven lower bound on the true curve (0 or NaN where it has none), evaluated at grid points each {@code ratio}
     * times below the last on the law's curve. Between points the true curve is at least the bound at the next point
     * (it is non-increasing), so on each grid interval the larger of the law's own line and that constant, whichever
     * is larger over the whole interval, is below the true curve; the law is rebuilt from the lower convex hull of
     * those pieces' ends (a convex function under them, so under the true curve), and its masses are scaled down.
     */
    static DpEvent.LossMasses lower(double[] survival, long iLo, double h, double startBelow, double stopBelow,
            double ratio, DoubleUnaryOperator bound) {
        Law law = new Law(survival, h);
        if (!law.usable()) {
            return law.masses(iLo);
        }
        int g = law.curve.length;
        double[] d = law.curve;
        double[] step = new double[g + 1]; // step[i]: the largest bound at or after grid point i (true curve there)
        for (int i : law.points(startBelow, stopBelow, ratio)) {
            double v = bound.applyAsDouble((iLo + i) * h);
            if (v > 0) {
                step[i] = v;
            }
        }
        for (int i = g - 1; i >= 0; i--) {
            step[i] = Math.max(step[i], step[i + 1]);
        }
        double[] u = d.clone();
        int firstRaised = -1;
        for (int i = 1; i < g - 1; i++) {
            // the piece on (x_{i-1}, x_i] is the constant step[i] if it is at least the law's line there, else the line
            double right = step[i] >= d[i - 1] ? step[i] : d[i];
            double left = step[i + 1] >= d[i] ? step[i + 1] : d[i];
            u[i] = Math.min(right, left);
            if (u[i] > d[i] && firstRaised < 0) {
                firstRaised = i;
            }
        }
        return law.rebuild(u, firstRaised, false, iLo);
    }

    /**
     * One epoch's lower law rebuilt to second order in the grid from a lower read with cell weights ({@link
     * SurvivalMerge}; null weights: the read itself), as a survival function on the same grid ({@code +inf} last).
     *
     * <p>Each cell's mass {@code mu_k} at its weighted mean loss ({@code nu_k = min(mu_k, W_k)}) gives a curve
     * {@code J <= D_true} (Jensen), convex in {@code alpha = e^x} and linear between the cells' mean losses. On the grid
     * interval {@code [g_k, g_{k+1}]} the linear piece of {@code J} active at the interval's midpoint is a tangent, so
     * it is below {@code J} everywhere; each grid point takes the smaller of its two intervals' tangents there,
     * {@code y_k = J(g_k) - max([cell k-1 above its midpoint] (nu_{k-1} e^h - mu_{k-1}), [cell k below its midpoint]
     * (mu_k - nu_k))}, so the chord between two grid points is below both tangents and hence below {@code J}. The
     * last point takes at most the mass at {@code +inf} (the law is constant beyond it), and left of the first point the
     * law's line stays below {@code J}'s if its total mass is at most the read's. The law is read off the lower convex hull of {@code (alpha_k, y_k)} (below the
     * chords), its masses scaled down by {@value #SCALE_UP}, its curve recomputed and checked against the hull and its
     * total mass against the read's by {@value #CHECK_MARGIN}; where a check fails the read is returned. The error
     * at a grid point is a cell's own mass times at most {@code h/2}, where rounding down moves every mass above it.
     */
    static double[] jensenLower(SurvivalMerge.Read read, double h) {
        double[] survival = read.survival();
        double[] weight = read.weight();
        int g = survival.length - 1;
        if (weight == null || g < 3 || g * h >= MAX_LOG_RANGE) {
            return survival;
        }
        double[] mu = new double[g];
        double[] nu = new double[g];
        for (int k = 0; k < g; k++) {
            mu[k] = Math.max(0, survival[k] - survival[k + 1]);
            nu[k] = Math.min(mu[k], weight[k]);
        }
        double infinity = Math.max(0, survival[g]);
        double down = Math.exp(-h);
        double rise = -Math.expm1(-h);
        double up = Math.exp(h);
        double half = Math.exp(-h / 2);
        // base[k] = J(g_k) without cell k: infinity + sum_{i > k} (mu_i - nu_i e^{g_k - g_i}), by
        // base[k] = base[k+1] + (mu_{k+1} - nu_{k+1} e^{-h}) + (1 - e^{-h}) w[k+1], w[k] = e^{-h} (nu_{k+1} + w[k+1])
        double[] base = new double[g];
        double w = 0;
        base[g - 1] = infinity;
        for (int k = g - 2; k >= 0; k--) {
            base[k] = base[k + 1] + (mu[k + 1] - nu[k + 1] * down) + rise * w;
            w = down * (nu[k + 1] + w);
        }
        double leftSlope = -(nu[0] + w); // J's slope left of g_0, in t = e^{x - g_0}
        // each interval's line: the tangent active at its midpoint (the cell's hinge kept where its mean loss is above
        // the midpoint, unless that takes the right end under the mass at +inf), else the line without the hinge
        boolean[] hinge = new boolean[g];
        for (int k = 0; k + 1 < g; k++) {
            hinge[k] = nu[k] < mu[k] * half && base[k + 1] + (mu[k + 1] - nu[k + 1]) + (mu[k] - nu[k] * up) >= infinity;
        }
        double[] y = new double[g];
        for (int k = 0; k < g; k++) {
            double j = base[k] + (mu[k] - nu[k]);
            double cut = hinge[k] ? 0 : mu[k] - nu[k];
            if (k > 0 && hinge[k - 1]) {
                cut = Math.max(cut, nu[k - 1] * up - mu[k - 1]);
            }
            y[k] = j - Math.max(0, cut);
            if (k > 0) {
                y[k] = Math.min(y[k], y[k - 1]); // the true curve is non-increasing
            }
        }
        y[g - 1] = Math.min(y[g - 1], infinity);
        double[] t = new double[g];
        for (int k = 0; k < g; k++) {
            t[k] = Math.exp(k * h);
        }
        int[] hull = lowerHull(t, y);
        double[] mass = new double[g];
        for (int k = 0; k < hull.length; k++) {
            int i = hull[k];
            double right = k + 1 < hull.length ? (y[hull[k + 1]] - y[i]) / (t[hull[k + 1]] - t[i]) : 0.0;
            double left = k == 0 ? leftSlope : (y[i] - y[hull[k - 1]]) / (t[i] - t[hull[k - 1]]);
            mass[i] = Math.max(0, t[i] * (right - left)) * (1 - SCALE_UP);
        }
        double newInfinity = Math.max(0, y[g - 1]) * (1 - SCALE_UP);
        double[] check = new double[g];
        double[] checkWeighted = new double[g];
        curveOf(mass, newInfinity, 0, h, check, checkWeighted);
        for (int k = 0; k + 1 < hull.length; k++) {
            int a = hull[k];
            int b = hull[k + 1];
            for (int i = a; i <= b; i++) {
                double chord = y[a] + (y[b] - y[a]) * ((t[i] - t[a]) / (t[b] - t[a]));
                if (!(check[i] <= chord)) {
                    return survival;
                }
            }
        }
        // left of g_0 both curves are lines in alpha, the law's at or below J's at g_0: it stays below if its value
        // at alpha = 0, its total mass, is at most J's (the read's)
        double total = newInfinity;
        double totalJ = infinity;
        for (int k = 0; k < g; k++) {
            total += mass[k];
            totalJ += mu[k];
        }
        if (hull[0] != 0 || !(total <= totalJ * (1 - CHECK_MARGIN))) {
            return survival;
        }
        double[] out = new double[g + 1];
        out[g] = newInfinity;
        for (int k = g - 1; k >= 0; k--) {
            out[k] = out[k + 1] + mass[k];
        }
        return out;
    }

    /** A law on the grid: its masses, mass at {@code +inf}, and its curve {@code D_i} at the grid points. */
    private static final class Law {
        final double h;
        final double[] mass;
        final double infinity;
        final double[] curve;
        final double[] weighted;

        Law(double[] survival, double h) {
            this.h = h;
            int g = survival.length - 1; // finite grid points 0 .. g-1, mass at +inf survival[g]
            mass = new double[g];
            for (int i = 0; i < g; i++) {
                mass[i] = Math.max(0, survival[i] - survival[i + 1]);
            }
            infinity = survival[g];
            curve = new double[g];
            weighted = new double[g];
            if (usable()) {
                curveOf(mass, infinity, 0, h, curve, weighted);
            }
        }

        boolean usable() {
            return mass.length >= 3 && mass.length * h < MAX_LOG_RANGE;
        }

        /** Grid points from where the curve is below {@code start}, each {@code ratio} times below the last. */
        int[] points(double start, double stop, double ratio) {
            int g = curve.length;
            int i = 0;
            while (i < g && !(curve[i] < start)) {
                i++;
            }
            int[] out = new int[g];
            int count = 0;
            for (double last = curve[Math.min(i, g - 1)]; i < g && curve[i] >= stop; i++) {
                if (curve[i] * ratio <= last) {
                    last = curve[i];
                    out[count++] = i;
                }
            }
            return Arrays.copyOf(out, count);
        }

        DpEvent.LossMasses masses(long iLo) {
            return SurvivalMerge.lossMasses(mass, infinity, iLo, h);
        }

        /**
         * The law whose curve is the lower convex hull of {@code (alpha_i, u_i)} from the hull's last vertex before
         * {@code firstChanged} on (left of it the hull is the law's own curve, its points there being the law's, so
         * the slope change there is not negative), the law's masses kept below; scaled and checked as the class
         * describes ({@code upper}: up, and the curve at least the hull; else down, and at most).
         */
        DpEvent.LossMasses rebuild(double[] u, int firstChanged, boolean upper, long iLo) {
            if (firstChanged < 0) {
                return masses(iLo);
            }
            int g = curve.length;
            double[] t = new double[g];
            for (int j = 0; j < g; j++) {
                t[j] = Math.exp(j * h);
            }
            int[] whole = lowerHull(t, u);
            int first = 0;
            while (first + 1 < whole.length && whole[first + 1] < firstChanged) {
                first++;
            }
            int from = whole[first];
            int[] hull = Arrays.copyOfRange(whole, first, whole.length);
            double scale = upper ? 1 + SCALE_UP : 1 - SCALE_UP;
            double margin = upper ? 1 + CHECK_MARGIN : 1 - CHECK_MARGIN;
            double[] newMass = mass.clone();
            for (int j = from; j < g; j++) {
                newMass[j] = 0;
            }
            double leftSlope = -(mass[from] + weighted[from]) / t[from]; // the law's slope just below from, in t
            for (int k = 0; k < hull.length; k++) {
                int j = hull[k];
                double right = k + 1 < hull.length ? (u[hull[k + 1]] - u[j]) / (t[hull[k + 1]] - t[j]) : 0.0;
                double left = k == 0 ? leftSlope : (u[j] - u[hull[k - 1]]) / (t[j] - t[hull[k - 1]]);
                newMass[j] = Math.max(0, t[j] * (right - left)) * scale;
            }
            double newInfinity = u[g - 1] * scale;
            double[] check = new double[g - from];
            double[] checkWeighted = new double[g - from];
            curveOf(newMass, newInfinity, from, h, check, checkWeighted);
            for (int k = 0; k + 1 < hull.length; k++) {
                int a = hull[k];
                int b = hull[k + 1];
                for (int j = a; j <= b; j++) {
                    double chord = u[a] + (u[b] - u[a]) * ((t[j] - t[a]) / (t[b] - t[a]));
                    if (upper ? !(check[j - from] >= chord * margin) : !(check[j - from] <= chord * margin)) {
                        return masses(iLo);
                    }
                }
            }
            double before = mass[from] + weighted[from];
            double after = newMass[from] + checkWeighted[0];
            if (upper ? !(after >= before * margin) : !(after <= before * margin)) {
                return masses(iLo);
            }
            return SurvivalMerge.lossMasses(newMass, newInfinity, iLo, h);
        }
    }

    /**
     * The curve {@code D_i} at grid indices {@code from + i} and {@code W_i = sum_{j > from + i} w_j e^{x_{from+i} -
     * x_j}}, by {@code D_i = D_{i+1} + (1 - e^{-h}) (w_{i+1} + W_{i+1})}, {@code W_i = e^{-h} (w_{i+1} + W_{i+1})}:
     * sums of non-negative numbers only.
     */
    static void curveOf(double[] mass, double infinity, int from, double h, double[] curve, double[] weighted) {
        int n = curve.length;
        double down = Math.exp(-h);
        double rise = -Math.expm1(-h);
        curve[n - 1] = infinity;
        weighted[n - 1] = 0;
        for (int i = n - 2; i >= 0; i--) {
            double next = mass[from + i + 1] + weighted[i + 1];
            curve[i] = curve[i + 1] + rise * next;
            weighted[i] = down * next;
        }
    }

    /** Indices of the lower convex hull of the points {@code (t_i, u_i)}, {@code t} increasing (Andrew's chain). */
    static int[] lowerHull(double[] t, double[] u) {
        int[] hull = new int[t.length];
        int size = 0;
        for (int i = 0; i < t.length; i++) {
            while (size >= 2 && !turnsUp(t, u, hull[size - 2], hull[size - 1], i)) {
                size--;
            }
            hull[size++] = i;
        }
        return Arrays.copyOf(hull, size);
    }

    /** Whether the middle point lies strictly below the chord from {@code a} to {@code c}. */
    private static boolean turnsUp(double[] t, double[] u, int a, int b, int c) {
        return (u[b] - u[a]) * (t[c] - t[a]) < (u[c] - u[a]) * (t[b] - t[a]);
    }
}

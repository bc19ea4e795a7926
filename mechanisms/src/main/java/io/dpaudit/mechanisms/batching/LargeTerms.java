package io.dpaudit.mechanisms.batching;

import io.dpaudit.core.numerics.Normal;

/**
 * The events {@code E1} and {@code E2} that exactly one, or exactly two, of balls-and-bins' {@code T} terms exceed the
 * clamp {@code B}, read apart from the lattices in convex order ({@link ConvexOrderLattice}), so that the clamp may sit
 * where two (or three) terms above it are negligible rather than one: at σ = 0.7 and T = 10^4 about 2.4e4 (under the
 * mean sum 2.8e4) instead of 9.8e5; at σ = 0.5 and T = 10^4, with both events apart, 2.3e5 instead of 7.6e8. Under
 * {@code Q} (likelihood ratio {@code X = S / (T mu)}, both directions' hockey sticks {@code phi} convex, the remove
 * direction's increasing, the add direction's decreasing):
 * <pre>
 *   E_Q[phi(X); E1] = T E_Q[phi((w + S_{T-1}) / (T mu)); w &gt; B, the other T - 1 terms &lt;= B],
 *   E_Q[phi(X); E2] = C(T, 2) E_Q[phi((w + w' + S_{T-2}) / (T mu)); w, w' &gt; B, the other T - 2 terms &lt;= B].
 * </pre>
 * <ul>
 *   <li><b>Upper end.</b> The large term's range {@code (B, W]} is cut into cells of relative width {@value #RATIO},
 *       each cell's mass split between its edges with its mean kept (Jensen, as the lattice's split); two large
 *       terms' sum is that law convolved with itself, each pair's sum split between the points of a like grid from
 *       {@code 2 B}. The rest {@code S_{T-1}} is the split lattice of {@code T - 1} terms (above it in convex order, the
 *       event that none of them escaped built in), its points split onto {@value #COARSE} coarse points (mean kept, so
 *       again above); for {@code E2}, {@code E[phi(v + S_{T-2}); T - 2 terms <= B] <= E[phi(v + S_{T-1}); T - 1
 *       terms <= B] / F(B)} for the increasing {@code phi >= 0} ({@code S_{T-1} = S_{T-2} + w >= S_{T-2}},
 *       {@code F(B) = Q(w <= B)}). Terms above {@code W} ({@link #FAR} under {@code P}) add {@code E_Q[X; some term >
 *       W]}, the escape probability under {@code P}; the rest's sums beyond the lattice's length add
 *       {@code E[(w + S - c)_+; S >= m h] <= w P(S >= m h) + E[S; S >= m h]}, both by the lattice's Chernoff bounds
 *       ({@link ConvexOrderLattice#aliasMass}, {@link ConvexOrderLattice#removeTail}).</li>
 *   <li><b>Lower end</b> (remove direction). Each cell's mass sits at its mean (a conditional expectation: below in
 *       convex order), two terms' sums merged per cell at their means; the rest is the cell-mean lattice of
 *       {@code T - 1} terms (below {@code S_{T-1}} in convex order), its points merged in blocks at their means
 *       (conditional expectations again); for {@code E2} scaled by {@code (T - 2) / (T - 1)}: the terms are
 *       exchangeable, so {@code E[w | S_{T-1}] = S_{T-1} / (T - 1)} and by Jensen
 *       {@code E phi(v + S_{T-2}) >= E phi(v + S_{T-1} (T - 2) / (T - 1))}.</li>
 *   <li><b>Add direction</b> (upper end). The large terms read at their cells' lower edges (the integrand decreases
 *       in them); for {@code E1} the rest as the split lattice at its lower positions, for {@code E2} the rest read as
 *       0.</li>
 * </ul>
 * The event of more terms above {@code B} is bounded by its probability ({@link TermEscape#atLeast}), which the
 * lattice's reads add in place of the escape probability. The large term's mean and mass per cell are differences of
 * normal tails (relative error under 1e-12 at the cells' widths); the masses are moved by 1e-9 of themselves, the
 * split's upper share raised by 1e-7 (pairs: 1e-9), and the means lowered by 1e-9, each the end's safe way.
 */
final class LargeTerms {
    /** The large term's cells: relative width. */
    static final double RATIO = 2e-3;
    /** Coarse points the rest's lattice is merged onto. */
    static final int COARSE = 4096;
    /** The probability under {@code P} that some term exceeds the cells' top {@code W}. */
    static final double FAR = 1e-18;

    private final double meanSum;
    /**
     * Upper end: the large term's points (cell edges) with masses times {@code T / F(B)}; the rest's coarse points,
     * their masses, and the masses' and moments' sums from each point up.
     */
    private final double[] upperW;
    private final double[] upperWMass;
    private final double[] upperRest;
    private final double[] upperRestMass;
    private final double[] upperRestAbove;
    private final double[] upperRestMomentAbove;
    /** {@code E_Q[X; E1]} beyond the lattice's length, and beyond the cells' top. */
    private final double upperBeyond;
    /** Lower end: the large term's cell means with masses times {@code T}; the rest's block means. */
    private final double[] lowerW;
    private final double[] lowerWMass;
    private final double[] lowerRest;
    private final double[] lowerRestMass;
    private final double[] lowerRestAbove;
    private final double[] lowerRestMomentAbove;
    /**
     * Add direction: the large term's cells read at their lower edges (the last edge carrying everything above it),
     * masses times {@code T}; the rest's coarse points at the split lattice's lower positions, their masses, and the
     * masses' and moments' sums from the bottom up to each point (exclusive).
     */
    private final double[] addW;
    private final double[] addWMass;
    private final double[] addRest;
    private final double[] addRestMass;
    private final double[] addRestBelow;
    private final double[] addRestMomentBelow;

    /**
     * An event with its laws: {@code upper} = {large points, masses, rest's points, masses} (the rest's sums beyond the
     * lattice {@code split}'s length bounded through its Chernoff bounds, class comment), {@code far} added at
     * {@code +inf}; {@code lower} and {@code add} alike.
     */
    private LargeTerms(double meanSum, ConvexOrderLattice split, double[][] upper, double far, double[][] lower,
            double[][] add) {
        double wMass = 0;
        double wMoment = 0;
        for (int i = 0; i < upper[0].length; i++) {
            wMass += upper[1][i];
            wMoment += upper[1][i] * upper[0][i];
        }
        // sums at or beyond the lattice's length: E[(w + S - c)_+; S >= m h] <= w P(S >= m h) + E[S; S >= m h]
        this.upperBeyond = (wMoment * split.aliasMass() + wMass * split.meanSum() * split.removeTail(split.points()))
                / meanSum * (1 + 1e-9) + far;
        this.meanSum = meanSum;
        this.addW = add[0];
        this.addWMass = add[1];
        this.addRest = add[2];
        this.addRestMass = add[3];
        this.addRestBelow = prefix(add[3], null);
        this.addRestMomentBelow = prefix(add[3], add[2]);
        this.upperW = upper[0];
        this.upperWMass = upper[1];
        this.upperRest = upper[2];
        this.upperRestMass = upper[3];
        this.upperRestAbove = suffix(upper[3], null);
        this.upperRestMomentAbove = suffix(upper[3], upper[2]);
        this.lowerW = lower[0];
        this.lowerWMass = lower[1];
        this.lowerRest = lower[2];
        this.lowerRestMass = lower[3];
        this.lowerRestAbove = suffix(lower[3], null);
        this.lowerRestMomentAbove = suffix(lower[3], lower[2]);
    }

    /**
     * The events of exactly one and (where {@code count} is 2) exactly two of {@code steps} terms of log-scale
     * {@code tau} above the clamp {@code B = split.clamp()}, read with the untilted lattices of the other
     * {@code steps - 1} terms, {@code split} and {@code cells} (class comment).
     */
    static LargeTerms[] events(ConvexOrderLattice split, ConvexOrderLattice cells, int steps, double tau, int count) {
        double clamp = split.clamp();
        double top = TermEscape.clamp(steps, tau, FAR, 1);
        double[] edges = edges(clamp, Math.max(top, clamp * (1 + RATIO)));
        double mu = Math.exp(tau * tau / 2);
        int k = edges.length - 1;
        // one term's laws on the cells: split at the edges, at the cells' means, at the lower edges (the last edge
        // carrying the whole tail above it)
        double[] upperMass = new double[k + 1];
        double[] lowerAt = new double[k];
        double[] lowerMass = new double[k];
        double[] addMass = new double[k + 1];
        addMass[k] = Normal.sf(Math.log(edges[k]) / tau);
        for (int i = 0; i < k; i++) {
            double zLo = Math.log(edges[i]) / tau;
            double zHi = Math.log(edges[i + 1]) / tau;
            double q = between(zLo, zHi);
            if (!(q > 0)) {
                continue;
            }
            double mean = mu * between(zLo - tau, zHi - tau) / q;
            double p = Math.max(0, Math.min(1, (mean - edges[i]) / (edges[i + 1] - edges[i]) + 1e-7));
            upperMass[i] += q * (1 - p);
            upperMass[i + 1] += q * p;
            lowerAt[i] = Math.max(edges[i], mean * (1 - 1e-9));
            lowerMass[i] = q;
            addMass[i] = q;
        }
        double meanSum = steps * mu;
        double[][] upperRest = coarseSplit(split, true);
        double[][] addRest = coarseSplit(split, false);
        LargeTerms one = new LargeTerms(meanSum, split, new double[][] {edges, scaled(upperMass, steps * (1 + 1e-9)),
            upperRest[0], upperRest[1]}, TermEscape.atLeast(1, steps, tau, edges[k]),
            scaledPoints(new double[][] {lowerAt, lowerMass}, steps * (1 - 1e-9), blockMeans(cells, 1)),
            new double[][] {edges, scaled(addMass, steps * (1 + 1e-9)), addRest[0], addRest[1]});
        if (count < 2) {
            return new LargeTerms[] {one};
        }
        // two terms: their sum's law on cells from 2B up, C(T, 2) ordered pairs' worth; the rest of T - 2 terms through
        // the T - 1 terms' lattices (class comment)
        double pairs = steps * (steps - 1.0) / 2;
        double inside = 1 - Normal.sf(Math.log(clamp) / tau);
        double[] sums = edges(2 * clamp, 2 * edges[k] * (1 + RATIO));
        double[][] lowerRest = blockMeans(cells, (steps - 2.0) / (steps - 1.0));
        LargeTerms two = new LargeTerms(meanSum, split, new double[][] {sums,
            scaled(pairSplit(edges, upperMass, sums), pairs / inside * (1 + 1e-9)), upperRest[0], upperRest[1]}, 0,
            scaledPoints(pairMeans(lowerAt, lowerMass, sums), pairs * (1 - 1e-9), lowerRest),
            new double[][] {sums, scaled(pairDown(edges, addMass, sums), pairs * (1 + 1e-9)), {0}, {1}});
        return new LargeTerms[] {one, two};
    }

    private static double[] scaled(double[] a, double factor) {
        double[] out = new double[a.length];
        for (int i = 0; i < a.length; i++) {
            out[i] = a[i] * factor;
        }
        return out;
    }

    /** {points, masses times factor, the rest's points, the rest's masses}. */
    private static double[][] scaledPoints(double[][] law, double factor, double[][] rest) {
        return new double[][] {law[0], scaled(law[1], factor), rest[0], rest[1]};
    }

    /** The index of the cell of the geometric {@code grid} (ratio {@code 1 + RATIO}) holding {@code x}, clamped. */
    private static int cellOf(double[] grid, double x) {
        int c = (int) Math.floor(Math.log(x / grid[0]) / Math.log1p(RATIO));
        c = Math.max(0, Math.min(grid.length - 2, c));
        while (c > 0 && grid[c] > x) {
            c--;
        }
        while (c + 2 < grid.length && grid[c + 1] <= x) {
            c++;
        }
        return c;
    }

    /**
     * The sum of two independent terms with masses {@code mass} at {@code at}, each pair's sum split between the
     * {@code grid} points around it with its mean kept (the upper share rounded up): masses on {@code grid}.
     */
    private static double[] pairSplit(double[] at, double[] mass, double[] grid) {
        double[] out = new double[grid.length];
        for (int i = 0; i < at.length; i++) {
            for (int j = i; j < at.length; j++) {
                double m = mass[i] * mass[j] * (i == j ? 1 : 2);
                if (!(m > 0)) {
                    continue;
                }
                double x = at[i] + at[j];
                int c = cellOf(grid, x);
                double share = Math.max(0, Math.min(1, (x - grid[c]) / (grid[c + 1] - grid[c]) + 1e-9));
                out[c] += m * (1 - share);
                out[c + 1] += m * share;
            }
        }
        return out;
    }

    /** The same sums moved down to the {@code grid} point at or below each (the add direction's safe way). */
    private static double[] pairDown(double[] at, double[] mass, double[] grid) {
        double[] out = new double[grid.length];
        for (int i = 0; i < at.length; i++) {
            for (int j = i; j < at.length; j++) {
                double m = mass[i] * mass[j] * (i == j ? 1 : 2);
                if (m > 0) {
                    out[cellOf(grid, (at[i] + at[j]) * (1 - 1e-12))] += m;
                }
            }
        }
        return out;
    }

    /**
     * The same sums (of masses at the cells' means) merged per {@code grid} cell at their means, lowered by 1e-12 of
     * themselves: {points, masses}, with mass only.
     */
    private static double[][] pairMeans(double[] at, double[] mass, double[] grid) {
        double[] total = new double[grid.length];
        double[] moment = new double[grid.length];
        for (int i = 0; i < at.length; i++) {
            for (int j = i; j < at.length; j++) {
                double m = mass[i] * mass[j] * (i == j ? 1 : 2);
                if (m > 0) {
                    double x = at[i] + at[j];
                    int c = cellOf(grid, x);
                    total[c] += m;
                    moment[c] += m * x;
                }
            }
        }
        int count = 0;
        for (double t : total) {
            count += t > 0 ? 1 : 0;
        }
        double[][] out = new double[2][count];
        int o = 0;
        for (int c = 0; c < grid.length; c++) {
            if (total[c] > 0) {
                out[0][o] = moment[c] / total[c] * (1 - 1e-12);
                out[1][o++] = total[c] * (1 - 1e-12);
            }
        }
        return out;
    }

    /** The largest loss {@code log X} the event's reads place below {@code +inf}: the top cell's with the rest's top. */
    double topLoss() {
        return Math.log((upperW[upperW.length - 1] + upperRest[upperRest.length - 1]) / meanSum);
    }

    /** An upper bound on {@code E_Q[(X - e^eps)_+; E1]}, the remove direction's hockey stick on the event. */
    double removeUpper(double eps) {
        return stick(eps, upperW, upperWMass, upperRest, upperRestAbove, upperRestMomentAbove, true) + upperBeyond;
    }

    /**
     * An upper bound on {@code E_Q[(1 - e^eps X)_+; E1]}, the add direction's hockey stick on the event: the large
     * term read at its cell's lower edge (the integrand decreases in it), the rest from the split lattice at its lower
     * positions {@code (j h - (T - 1) KAPPA h) / (1 + KAPPA)}.
     */
    double addUpper(double eps) {
        double k = Math.exp(eps) / meanSum;
        double total = 0;
        for (int i = 0; i < addW.length; i++) {
            int b = firstAbove(addRest, 1 / k - addW[i]);
            if (b == 0) {
                break; // the edges increase: no later cell has a positive integrand either
            }
            double part = (1 - k * addW[i]) * addRestBelow[b] - k * addRestMomentBelow[b];
            double slack = 1e-11 * (Math.abs(1 - k * addW[i]) * addRestBelow[b] + k * Math.abs(addRestMomentBelow[b]));
            total += addWMass[i] * Math.max(0, part + slack);
        }
        return total * (1 + 1e-12);
    }

    /**
     * The add direction's upper law on the event: the loss {@code -log X} under {@code Q}, at
     * {@code -log((e + s) / (T mu))} for each cell's lower edge {@code e} and rest point {@code s} (as
     * {@link #addUpper}), moved up to the grid from {@code iLo} ({@code g} points, the last {@code +inf}) with its share
     * to the point below.
     */
    SurvivalMerge.Read addRead(long iLo, int g) {
        double[] mass = new double[g + 1];
        double[] down = new double[g + 1];
        for (int k = 0; k < addW.length; k++) {
            for (int b = 0; b < addRest.length; b++) {
                double m = addWMass[k] * addRestMass[b] * (1 + 1e-12);
                if (m > 0) {
                    ConvexOrderReads.addAt(mass, down, (addW[k] + addRest[b]) / meanSum, m, iLo, g);
                }
            }
        }
        return new SurvivalMerge.Read(suffix(mass, null), down);
    }

    /** A lower bound on {@code E_Q[(X - e^eps)_+; E1]}. */
    double removeLower(double eps) {
        return stick(eps, lowerW, lowerWMass, lowerRest, lowerRestAbove, lowerRestMomentAbove, false);
    }

    /**
     * The upper end's law of the loss {@code log X} under {@code P} on the event, on the loss grid from {@code iLo}
     * ({@code g} points, the last {@code +inf}), each mass moved up with its share to the point below
     * ({@link SurvivalMerge#downShare}); what lies beyond the lattice and the cells at {@code +inf}.
     */
    SurvivalMerge.Read upperRead(long iLo, int g) {
        double[] mass = new double[g + 1];
        double[] down = new double[g + 1];
        double top = (iLo + g - 1) * AllocationPld.LOSS_GRID;
        double[] rest = upperRestMass;
        for (int k = 0; k < upperW.length; k++) {
            if (!(upperWMass[k] > 0)) {
                continue;
            }
            for (int b = 0; b < upperRest.length; b++) {
                double x = (upperW[k] + upperRest[b]) / meanSum;
                double pm = upperWMass[k] * rest[b] * x * (1 + 1e-12);
                if (!(pm > 0)) {
                    continue;
                }
                double loss = Math.log(x);
                if (loss > top) {
                    mass[g] += pm;
                    continue;
                }
                int i = LossSurvivalReader.index(loss, true, iLo, g);
                mass[i] += pm;
                if (i > 0) {
                    down[i] += pm * SurvivalMerge.downShare(Math.exp((iLo + i) * AllocationPld.LOSS_GRID - loss));
                }
            }
        }
        mass[g] += upperBeyond;
        return new SurvivalMerge.Read(suffix(mass, null), down);
    }

    /**
     * The lower end's law of the loss under {@code P} on the event, on the loss grid from {@code iLo}: each mass moved
     * down with its weight {@code e^{g_i - l}} (losses under the grid dropped).
     */
    SurvivalMerge.Read lowerRead(long iLo, int g) {
        double[] mass = new double[g + 1];
        double[] weight = new double[g + 1];
        double bottom = iLo * AllocationPld.LOSS_GRID;
        double[] rest = lowerRestMass;
        for (int k = 0; k < lowerW.length; k++) {
            if (!(lowerWMass[k] > 0)) {
                continue;
            }
            for (int b = 0; b < lowerRest.length; b++) {
                double x = (lowerW[k] + lowerRest[b]) / meanSum;
                double pm = lowerWMass[k] * rest[b] * x * (1 - 1e-12);
                double loss = Math.log(x);
                if (!(pm > 0) || loss < bottom) {
                    continue;
                }
                int i = LossSurvivalReader.index(loss, false, iLo, g);
                mass[i] += pm;
                weight[i] += pm * Math.min(1, Math.exp((iLo + i) * AllocationPld.LOSS_GRID - loss) * (1 + 1e-12));
            }
        }
        double[] survival = suffix(mass, null);
        for (int i = 0; i <= g; i++) {
            survival[i] *= 1 - 1e-12;
        }
        return new SurvivalMerge.Read(survival, null, weight);
    }

    /** Two reads' laws added (their survival functions, shares down and weights): the sum of two events' laws. */
    static SurvivalMerge.Read plus(SurvivalMerge.Read a, SurvivalMerge.Read b) {
        return new SurvivalMerge.Read(add(a.survival(), b.survival()), add(a.down(), b.down()),
                add(a.weight(), b.weight()));
    }

    private static double[] add(double[] a, double[] b) {
        if (a == null || b == null) {
            return a == null ? b : a;
        }
        double[] out = a.clone();
        for (int i = 0; i < out.length; i++) {
            out[i] += b[i];
        }
        return out;
    }

    /**
     * {@code sum_k sum_b mW_k mS_b (w_k + s_b - T mu e^eps)_+ / (T mu)} through the rest's suffix sums, each term's
     * rounding allowed ({@code 1e-11} of the sums it is taken from) the end's way.
     */
    private double stick(double eps, double[] w, double[] wMass, double[] s, double[] sMass, double[] sMoment,
            boolean upper) {
        double c = meanSum * Math.exp(eps);
        double total = 0;
        for (int k = 0; k < w.length; k++) {
            if (!(wMass[k] > 0)) {
                continue;
            }
            int b = firstAbove(s, c - w[k]);
            if (b == s.length) {
                continue;
            }
            double part = (w[k] - c) * sMass[b] + sMoment[b];
            double slack = 1e-11 * (Math.abs(w[k] - c) * sMass[b] + sMoment[b]);
            total += wMass[k] * Math.max(0, upper ? part + slack : part - slack);
        }
        double v = total / meanSum;
        return upper ? v * (1 + 1e-12) : v * (1 - 1e-12);
    }

    /** The first index whose point exceeds {@code t} in the increasing {@code s} ({@code s.length}: none). */
    private static int firstAbove(double[] s, double t) {
        int lo = 0;
        int hi = s.length;
        while (lo < hi) {
            int mid = (lo + hi) >>> 1;
            if (s[mid] > t) {
                hi = mid;
            } else {
                lo = mid + 1;
            }
        }
        return lo;
    }

    /** Cell edges {@code B (1 + RATIO)^i} up to the first at or above {@code top}. */
    private static double[] edges(double clamp, double top) {
        int count = (int) Math.ceil(Math.log(top / clamp) / Math.log1p(RATIO)) + 1;
        double[] e = new double[count];
        for (int i = 0; i < count; i++) {
            e[i] = clamp * Math.exp(i * Math.log1p(RATIO));
        }
        e[0] = clamp;
        return e;
    }

    /** {@code Q(z_lo < Z <= z_hi)}, each tail taken on its small side. */
    private static double between(double zLo, double zHi) {
        return Math.max(0, zLo >= 0 ? Normal.sf(zLo) - Normal.sf(zHi) : Normal.cdf(zHi) - Normal.cdf(zLo));
    }

    /**
     * The split lattice's points, read at the sums {@code (j h + T KAPPA h) / (1 - KAPPA)} ({@code up}: the remove
     * direction's position allowance) or {@code (j h - T KAPPA h) / (1 + KAPPA)} (the add direction's), split onto
     * {@value #COARSE} coarse points with their means kept: {points, masses}, points with mass only.
     */
    private static double[][] coarseSplit(ConvexOrderLattice split, boolean up) {
        double h = split.spacing();
        double shift = (up ? 1 : -1) * split.steps() * ConvexOrderLattice.KAPPA * h;
        double scale = 1 / (1 + (up ? -1 : 1) * ConvexOrderLattice.KAPPA);
        double origin = Math.min(0, shift * scale);
        double width = ((split.points() * h + shift) * scale - origin) / COARSE;
        double[] mass = new double[COARSE + 2];
        for (int j = 0; j < split.points(); j++) {
            double m = split.mass(j, true);
            if (!(m > 0)) {
                continue;
            }
            double x = ((j * h + shift) * scale - origin) / width;
            int b = (int) Math.floor(x);
            // the share moved up, rounded the end's way (up for the remove direction, down for the add)
            double share = Math.max(0, Math.min(1, x - b + (up ? 1e-9 : -1e-9)));
            mass[b] += m * (1 - share);
            mass[b + 1] += m * share;
        }
        int count = 0;
        for (double m : mass) {
            count += m > 0 ? 1 : 0;
        }
        double[][] out = new double[2][count];
        int o = 0;
        for (int b = 0; b < mass.length; b++) {
            if (mass[b] > 0) {
                out[0][o] = origin + b * width;
                out[1][o++] = mass[b] * (1 + 1e-12);
            }
        }
        return out;
    }

    /**
     * The cell-mean lattice's points (masses bounded from below, at {@code j h}) merged in {@value #COARSE} blocks at
     * their means, scaled by {@code factor} and lowered by 1e-12 of themselves: {points, masses}, with mass only.
     */
    private static double[][] blockMeans(ConvexOrderLattice cells, double factor) {
        double h = cells.spacing();
        int length = cells.points() / COARSE;
        double[][] out = new double[2][COARSE];
        int o = 0;
        for (int b = 0; b < COARSE; b++) {
            double mass = 0;
            double moment = 0;
            for (int j = b * length; j < (b + 1) * length; j++) {
                double m = cells.mass(j, false);
                mass += m;
                moment += m * j;
            }
            if (mass > 0) {
                out[0][o] = moment / mass * h * factor * (1 - 1e-12);
                out[1][o++] = mass * (1 - 1e-12);
            }
        }
        return new double[][] {java.util.Arrays.copyOf(out[0], o), java.util.Arrays.copyOf(out[1], o)};
    }

    /** Sums of {@code mass} (times {@code at} where given) over the points before each, and over all at the end. */
    private static double[] prefix(double[] mass, double[] at) {
        double[] s = new double[mass.length + 1];
        for (int i = 0; i < mass.length; i++) {
            s[i + 1] = s[i] + (at == null ? mass[i] : mass[i] * at[i]);
        }
        return s;
    }

    /** Suffix sums of {@code mass} (times {@code at} where given). */
    private static double[] suffix(double[] mass, double[] at) {
        double[] s = new double[mass.length];
        double run = 0;
        for (int i = mass.length - 1; i >= 0; i--) {
            run += at == null ? mass[i] : mass[i] * at[i];
            s[i] = run;
        }
        return s;
    }
}

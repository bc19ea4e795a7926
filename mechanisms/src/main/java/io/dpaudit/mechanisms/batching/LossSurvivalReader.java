package io.dpaudit.mechanisms.batching;

/**
 * Reads a lattice law of the sum S ({@link LognormalSumLattice}) into survival functions of balls-and-bins' privacy
 * loss on {@link AllocationPld}'s loss grid: {@code L = log S - logMean} under {@code P} (remove) or {@code -L} under
 * {@code Q} (add), as an upper end (masses bounded from above, losses moved up to the grid, what the lattice left out at
 * {@code +inf}) or a lower end (from below, down, left out). A rounded-up lattice is read plainly (point {@code j} is
 * the sum {@code j h}); a rounded-down one also through its rounding offsets' concentration
 * ({@link #throughOffsets}).
 */
final class LossSurvivalReader {
    /** Probability allowed, on each side, for the lattice's total rounding offset to leave its interval. */
    static final double OFFSET_TAIL = 1e-17;
    /** The bulk's read's {@code nu} ({@link #throughOffsets}). */
    static final double BULK_OFFSET_TAIL = 1e-10;
    /** The deeper read's {@code nu} ({@link #throughOffsets}). */
    static final double DEEP_OFFSET_TAIL = 1e-40;
    private final int steps;
    private final double tau;
    private final double logMean;

    /** The reader for {@code steps} terms of log-scale {@code tau}; {@code logMean = log T + tau^2/2}. */
    LossSurvivalReader(int steps, double tau, double logMean) {
        this.steps = steps;
        this.tau = tau;
        this.logMean = logMean;
    }

    /**
     * One rung's survival function on the loss grid {@code [iLo, iHi]} (plus {@code +inf} at the end), for the loss
     * {@code L} under {@code P} ({@code remove}) or {@code -L} under {@code Q}, as the upper or lower end (of a tilted
     * law, infinite below where its masses overflow back on the original scale).
     */
    SurvivalMerge.Read plain(LognormalSumLattice.Law law, double[] logIndex, boolean remove, boolean upper, long iLo,
            long iHi) {
        return rung(law, logIndex, remove, upper, iLo, iHi, 0, 0);
    }

    /**
     * The total rounding offset {@code R = S - S_down} of a lattice whose terms were rounded down: its mean bracketed
     * under {@code P} and {@code Q}, and outside {@code [low(nu), high(nu)]} with probability at most {@code nu} on
     * each side ({@link OffsetConcentration}: Hoeffding's or Bernstein's inequality, whichever is narrower, with the
     * offsets' variances {@code varP} and {@code varQ} bounded in closed form).
     */
    private record Offsets(double h, int steps, double meanLowP, double meanHighP, double meanLowQ, double meanHighQ,
            double varP, double varQ) {
        double lowP(double nu) {
            return Math.max(0, meanLowP - OffsetConcentration.deviation(h, steps, varP, nu));
        }

        double highP(double nu) {
            return meanHighP + OffsetConcentration.deviation(h, steps, varP, nu);
        }

        double lowQ(double nu) {
            return Math.max(0, meanLowQ - OffsetConcentration.deviation(h, steps, varQ, nu));
        }

        double highQ(double nu) {
            return meanHighQ + OffsetConcentration.deviation(h, steps, varQ, nu);
        }
    }

    /**
     * {@link Offsets} of {@code down}: each term's offset lies in {@code [0, h)}, independently, with its mean bracketed
     * in closed form ({@link LognormalSumLattice#meanOffset}; under {@code P} one term is the canary's) and its
     * variance bounded in closed form ({@link OffsetConcentration#termVariance}).
     */
    private Offsets offsets(LognormalSumLattice.Law down) {
        double h = down.h();
        int n = down.n();
        double[] uQ = LognormalSumLattice.meanOffset(n, h, tau, 0);
        double[] uP = LognormalSumLattice.meanOffset(n, h, tau, tau * tau);
        double vQ = OffsetConcentration.termVariance(h, tau, 0);
        double vP = OffsetConcentration.termVariance(h, tau, tau * tau);
        return new Offsets(h, steps, ((steps - 1) * uQ[0] + uP[0]) * (1 - 1e-12),
                ((steps - 1) * uQ[1] + uP[1]) * (1 + 1e-12), steps * uQ[0] * (1 - 1e-12), steps * uQ[1] * (1 + 1e-12),
                ((steps - 1) * vQ + vP) * (1 + 1e-12), steps * vQ * (1 + 1e-12));
    }

    /**
     * Reads {@code down} (rounded down) through the offsets' concentration into the merges given (null: not read),
     * once with {@code nu} = {@value #OFFSET_TAIL} (the narrower band) and once with {@value #DEEP_OFFSET_TAIL} (a
     * band a third wider, but a floor of that size instead of 1e-17 at {@code +inf}: the far tail keeps the deeper
     * read, by the merges' pointwise min and max). With 1e-17 alone, T = 10^4, σ = 0.7 read δ(7) <= 9.9e-18 where
     * the rounded lattices had given 3.5e-20 (the max test: 1.2e-27).
     */
    void throughOffsets(LognormalSumLattice.Law down, SurvivalMerge removeUpper, SurvivalMerge removeLower,
            SurvivalMerge addUpper, SurvivalMerge addLower, long iLo, long iHi) {
        Offsets o = offsets(down);
        for (double nu : new double[] {BULK_OFFSET_TAIL, OFFSET_TAIL, DEEP_OFFSET_TAIL}) {
            if (removeUpper != null) {
                removeUpper.add(rung(down, null, true, true, iLo, iHi, o.highP(nu), nu));
            }
            if (removeLower != null) {
                removeLower.add(rung(down, null, true, false, iLo, iHi, o.lowP(nu), nu));
            }
            if (addUpper != null) {
                addUpper.add(rung(down, null, false, true, -iHi, -iLo, o.lowQ(nu), nu));
            }
            if (addLower != null && down.aliasQ() <= AllocationPld.ALIAS_LIMIT) {
                addLower.add(rung(down, null, false, false, -iHi, -iLo, o.highQ(nu), nu));
            }
        }
    }

    /**
     * One rung's survival function, read plainly ({@code logIndex} given: point {@code j} is the sum {@code j h}) or
     * through the rounding offsets' concentration ({@code logIndex} null; the lattice {@code law} rounded down,
     * {@code S_down = S - R}): point {@code j} stands for {@code S = j h + R}, and off an event of probability
     * {@code nu}, {@code R} lies on the safe side of {@code offset}. For {@code L} under {@code P} ({@code
     * remove}): {@code P(S >= c) <= P(S_down >= c - r+) + nu + escaped + aliased} (upper end, {@code offset = r+}) and
     * {@code P(S >= c) >= P(no escape, S_down >= c - r-) - nu} (lower end, {@code r-}); for {@code -L} under {@code
     * Q}, whose large values are small sums: {@code Q(S <= c) <= Q(S_down <= c - r-) + nu} and {@code Q(S <= c) >=
     * Q(no escape, S_down <= c - r+) - nu}. So each point's loss is {@code log(j h + offset) - logMean} (negated for
     * {@code -L}), moved up to the grid for an upper end and down for a lower, and {@code nu} is added at {@code +inf}
     * (upper) or taken off every survival value (lower). The worst case {@code R <= T h} of the rounded-up lattice is
     * the better read for few steps; this one for many ({@code h sqrt(T)} against {@code T h}): the merge keeps both.
     * An upper end also reports, for each grid point, the mass that moves one point down when each point's cell is
     * connected to both its ends ({@link SurvivalMerge}; {@code e^{g_i - l}} from the sum, without a logarithm).
     */
    private SurvivalMerge.Read rung(LognormalSumLattice.Law law, double[] logIndex, boolean remove, boolean upper, long iLo,
            long iHi, double offset, double nu) {
        int g = (int) (iHi - iLo + 1);
        double[] mass = new double[g + 1]; // mass[g] = +inf
        double[] down = upper ? new double[g + 1] : null;
        double[] weight = upper ? null : new double[g + 1];
        Edge edge = new Edge(iLo, remove ? logMean : -logMean);
        double[] c = remove ? law.p() : law.q();
        double h = law.h();
        double logH = Math.log(h);
        // a tilted mass comes back through exp(log x + S - lambda j): rounded the safe way, and an overflow is no
        // lower bound at all
        double safe = law.tilt() == 0 ? 1 : upper ? 1 + 1e-11 : 1 - 1e-11;
        // read through the offsets, S_down = 0 (every term below h) is S <= r: under P a loss of at most
        // log(r) - logMean, which an upper end must count (it is most of the mass on a coarse rung); under Q it is
        // counted at +inf below
        GridWalk walk = logIndex == null ? new GridWalk(h, offset, logMean, remove, upper, iLo, g) : null;
        for (int j = remove && logIndex == null ? 0 : 1; j < c.length; j++) {
            double m = bound(law, j, remove, upper) * safe;
            if (!(m > 0) || !upper && m == Double.POSITIVE_INFINITY) {
                continue;
            }
            double sum = j * h + offset;
            if (walk != null && walk.holds(j)) {
                mass[walk.index] += m;
                cell(down, weight, edge, walk.index, m, sum, remove);
                continue;
            }
            double loss = logIndex != null ? logIndex[j] + logH - logMean : Math.log(j * h + offset) - logMean;
            if (loss == Double.NEGATIVE_INFINITY) { // j = offset = 0: the grid's bottom for an upper end, none for a lower
                if (upper) {
                    mass[0] += m;
                }
                continue;
            }
            int i = index(remove ? loss : -loss, upper, iLo, g);
            mass[i] += m;
            cell(down, weight, edge, i, m, sum, remove);
            if (walk != null) {
                walk.settle(i);
            }
        }
        double clampLoss = Math.log(law.n() * h) - logMean; // escaped paths have S > n h
        if (remove) {
            if (upper) {
                mass[g] += law.escapeP() + law.aliasP() + nu;
            } else {
                int i = index(clampLoss, false, iLo, g);
                mass[i] += law.escapeP();
                weight[i] += law.escapeP(); // its losses are above the clamp's: at most its mass
            }
        } else if (upper) {
            mass[g] += Math.max(0, law.upperQ(0)) + nu;       // S_down = 0: -L above every grid point
            mass[index(-clampLoss, true, iLo, g)] += law.escapeQ();
        }
        double[] survival = new double[g + 1];
        survival[g] = mass[g];
        for (int i = g - 1; i >= 0; i--) {
            survival[i] = survival[i + 1] + mass[i];
        }
        if (!upper && nu > 0) {
            for (int i = 0; i <= g; i++) {
                survival[i] = Math.max(0, survival[i] - nu);
            }
        }
        return new SurvivalMerge.Read(survival, down, weight);
    }

    /**
     * Point {@code j}'s part of its cell {@code i} ({@link SurvivalMerge}): for an upper end, the mass that moves one
     * point down; for a lower end, its weight {@code m e^{g_i - v}} (at most {@code m}, rounded up).
     */
    private static void cell(double[] down, double[] weight, Edge edge, int i, double m, double sum, boolean remove) {
        if (down != null) {
            if (i > 0 && m < Double.POSITIVE_INFINITY) {
                down[i] += m * SurvivalMerge.downShare(edge.rise(i, sum, remove));
            }
        } else {
            weight[i] += m * Math.min(1, edge.rise(i, sum, remove) * (1 + 1e-12));
        }
    }

    /**
     * {@code e^{g_i - v}} for a read's grid point {@code i} near the value {@code v} ({@code L = log S - logMean}, or
     * {@code -L}), from the sum {@code S}: {@code e^{g_i + logMean} / S} or {@code e^{g_i - logMean} S}, the
     * exponential kept while {@code i} repeats.
     */
    private static final class Edge {
        private final long iLo;
        private final double shift;
        private int last = -1;
        private double value;

        Edge(long iLo, double shift) {
            this.iLo = iLo;
            this.shift = shift;
        }

        double rise(int i, double sum, boolean remove) {
            if (i != last) {
                last = i;
                value = Math.exp((iLo + i) * AllocationPld.LOSS_GRID + shift);
            }
            return remove ? value / sum : value * sum;
        }
    }

    /** The bound on lattice point {@code j}'s mass: under P or Q, from above or below. */
    private static double bound(LognormalSumLattice.Law law, int j, boolean remove, boolean upper) {
        if (remove) {
            return upper ? law.upperP(j) : law.lowerP(j);
        }
        return upper ? law.upperQ(j) : law.lowerQ(j);
    }

    /**
     * The grid index of the offsets' read of lattice point {@code j}, {@code log(j h + offset) - logMean} (negated for
     * {@code -L}) moved up or down to the grid, without a logarithm per point: once a point's index is known, the
     * open range of {@code j} whose loss lies strictly inside that index's cell, {@value #CELL_MARGIN} of a cell in
     * from either edge, is found from the cell's edges by {@code exp}; every point in it has that index. The margin
     * (5e-11 of {@code S}, relative, at a grid of 5e-5) is orders of magnitude above the rounding of the logarithm,
     * the subtraction and the division (under 1e-9 of a cell for losses up to 50) and of the edges' {@code exp}, so the
     * index is the one the logarithm gives, bit for bit; points near an edge take the logarithm.
     */
    static final class GridWalk {
        private final double h;
        private final double offset;
        private final double logMean;
        private final boolean remove;
        private final boolean upper;
        private final long iLo;
        private final int g;
        private double from = Double.NaN;
        private double to = Double.NaN;
        int index;

        GridWalk(double h, double offset, double logMean, boolean remove, boolean upper, long iLo, int g) {
            this.h = h;
            this.offset = offset;
            this.logMean = logMean;
            this.remove = remove;
            this.upper = upper;
            this.iLo = iLo;
            this.g = g;
        }

        /** Whether {@code j} lies in the range of the last index settled (then {@link #index} is its index). */
        boolean holds(int j) {
            return j > from && j < to;
        }

        /** The point just read has index {@code i}: the range of j with the same index, shrunk by the margin. */
        void settle(int i) {
            index = i;
            // the open range of x = (+-loss) / grid whose rounding gives i (clamped at both ends of the grid)
            double lo;
            double hi;
            long raw = iLo + i;
            if (upper) { // ceil(x) = raw: raw - 1 < x <= raw
                lo = i == 0 ? Double.NEGATIVE_INFINITY : raw - 1;
                hi = i == g - 1 ? Double.POSITIVE_INFINITY : raw;
            } else { // floor(x) = raw: raw <= x < raw + 1
                lo = i == 0 ? Double.NEGATIVE_INFINITY : raw;
                hi = i == g - 1 ? Double.POSITIVE_INFINITY : raw + 1;
            }
            lo += CELL_MARGIN;
            hi -= CELL_MARGIN;
            // loss / grid = x for L, -x for -L; j increases with the loss
            double a = pointAt(remove ? lo : -hi);
            double b = pointAt(remove ? hi : -lo);
            from = a;
            to = b;
        }

        /** The (real) lattice point whose loss is {@code y} grid steps: {@code (e^{y grid + logMean} - offset) / h}. */
        private double pointAt(double y) {
            if (y == Double.NEGATIVE_INFINITY) {
                return Double.NEGATIVE_INFINITY;
            }
            if (y == Double.POSITIVE_INFINITY) {
                return Double.POSITIVE_INFINITY;
            }
            return (Math.exp(y * AllocationPld.LOSS_GRID + logMean) - offset) / h;
        }
    }

    /** How far inside a grid cell's edges (in cells) the read trusts its range of points without a logarithm. */
    static final double CELL_MARGIN = 1e-6;

    static int index(double loss, boolean up, long iLo, int g) {
        double x = loss / AllocationPld.LOSS_GRID;
        long i = (long) (up ? Math.ceil(x) : Math.floor(x)) - iLo;
        return (int) Math.max(0, Math.min(g - 1, i));
    }

    /** {@code log j} for every lattice index {@code j} below {@code lattice} (0 at 0): the plain reads' table. */
    static double[] logIndex(int lattice) {
        double[] logIndex = new double[lattice];
        for (int j = 1; j < lattice; j++) {
            logIndex[j] = Math.log(j);
        }
        return logIndex;
    }
}

package io.dpaudit.mechanisms.batching;

import io.dpaudit.core.accounting.DpEvent;

/**
 * Pointwise minimum (upper ends) or maximum (lower ends) of survival functions on {@link AllocationPld}'s loss grid,
 * and, for an upper end, the law read from the minimum with every grid cell's mass connected to both its points.
 *
 * <p><b>Connecting the dots</b> (2026-11-30; Doroshenko et al., PETS 2022, for one law). An upper end's read moves
 * every loss {@code l} up to the grid point {@code g_i} above it, which moves ε by up to a grid step. Its mass
 * {@code m} can instead be split between {@code g_{i-1}} and {@code g_i} so that both its mass and its weight
 * {@code m e^{-l}} under the other distribution are kept: {@code a = m (e^{g_i - l} - 1) / (e^h - 1)} to
 * {@code g_{i-1}}, the rest to {@code g_i}. The split law's curve {@code delta(eps) = E[(1 - e^{eps - L})_+]} equals
 * the unsplit one's at every grid point and is linear in {@code e^eps} between them, so it lies above it everywhere
 * (the curve is convex in {@code e^eps}): the error is of second order in the grid instead of first. A read reports
 * each cell's {@code a} summed over its points ({@link Read#down}). Over several reads, cell {@code (g_{i-1}, g_i]}
 * takes the read whose survival value at {@code i} is the minimum {@code S*[i]}: that read's law on the cell, plus
 * {@code S_r[i + 1] - S*[i + 1] >= 0} at {@code g_i}, is a law whose survival function lies above the true one, so its
 * cell may be split by the read's {@code a}; the merged law is {@code max(0, m*[i] - a[i]) + a[i + 1]} at
 * {@code g_i}, {@code m*[i] = S*[i] - S*[i + 1]} (where rounding makes {@code m*[i] < a[i]} mass is added, never
 * taken, which only raises the curve). It bounds the curve, not the survival function, which is all composition needs
 * ({@link ProfileEnvelope}); {@link #survival} stays the minimum's.
 *
 * <p><b>A lower end's cells, for one epoch's curve</b> ({@link #lowerDelta(Read, long, double)}). A lower end moves
 * every loss down to the grid point {@code g_i} below it. A read also reports each cell's weight
 * {@code W = sum m e^{g_i - l}} (at most its mass {@code mu}); the contribution {@code sum m (1 - e^{eps - l})_+} of the cell's masses is convex in
 * {@code e^{-l}}, so by Jensen it is at least {@code (mu - e^{eps - g_i} W)_+}: the cell's mass at its weighted mean
 * loss, second-order close to the truth where rounding down is first-order. Over several reads each cell
 * {@code [g_i, g_{i+1})} takes the read whose survival value at {@code g_i} is the maximum {@code S*[i]}: that read's
 * survival function on the cell, raised to {@code S*[i + 1]}, is below the truth, and its cell measure is the read's
 * lowest-loss part, of weight at most {@code min(mu*, W)}. A read without positions (null weights) counts
 * {@code W = mu}, the rounded-down cell.
 */
final class SurvivalMerge {
    private final boolean upper;
    private double[] survival;
    private double[] down;
    private double[] weight;

    /**
     * One read's survival function and, for an upper end, each grid point's mass to move one point down, or for a lower
     * end each grid point's weight {@code sum m e^{g_i - l}} over its cell's masses (null: none known).
     */
    record Read(double[] survival, double[] down, double[] weight) {
        Read(double[] survival, double[] down) {
            this(survival, down, null);
        }

        Read copy() {
            return new Read(survival.clone(), down == null ? null : down.clone(),
                    weight == null ? null : weight.clone());
        }
    }

    SurvivalMerge(boolean upper) {
        this.upper = upper;
    }

    /** The merged survival function (null before the first rung). */
    double[] survival() {
        return survival;
    }

    /** The merged survival function and the chosen reads' masses to move down or weights (shared arrays; or null). */
    Read read() {
        return survival == null ? null : new Read(survival, down, weight);
    }

    /** A survival function without positions inside the cells (its masses stay on the points above them). */
    void add(double[] s) {
        add(new Read(s, null));
    }

    void add(Read r) {
        double[] s = r.survival();
        double[] d = r.down();
        double[] w = r.weight();
        if (survival == null) {
            survival = s;
            down = upper ? d == null ? new double[s.length] : d : null;
            if (!upper) {
                weight = w != null ? w : new double[s.length];
                if (w == null) {
                    java.util.Arrays.fill(weight, Double.POSITIVE_INFINITY);
                }
            }
            return;
        }
        for (int i = 0; i < s.length; i++) {
            if (!upper) {
                double wi = w == null || Double.isNaN(w[i]) ? Double.POSITIVE_INFINITY : w[i];
                if (s[i] > survival[i]) {
                    survival[i] = s[i];
                    weight[i] = wi;
                } else if (s[i] == survival[i] && wi < weight[i]) {
                    weight[i] = wi;
                }
                continue;
            }
            double di = d == null || !(d[i] < Double.POSITIVE_INFINITY) ? 0 : d[i];
            if (s[i] < survival[i]) {
                survival[i] = s[i];
                down[i] = di;
            } else if (s[i] == survival[i] && di > down[i]) {
                down[i] = di;
            }
        }
    }

    /**
     * The merged law as losses and masses, the grid starting at {@code iLo}: connected, for an upper end; for a lower
     * end rebuilt from its cells at their weighted mean losses ({@link ProfileEnvelope#jensenLower}).
     */
    DpEvent.LossMasses losses(long iLo) {
        if (survival == null) {
            return new DpEvent.LossMasses(new double[0], new double[0], 0.0);
        }
        if (!upper) {
            double[] s = curveSurvival();
            double[] mass = new double[s.length - 1];
            for (int i = 0; i < mass.length; i++) {
                mass[i] = Math.max(0, s[i] - s[i + 1]);
            }
            return lossMasses(mass, s[s.length - 1], iLo, AllocationPld.LOSS_GRID);
        }
        return lossMasses(masses(), survival[survival.length - 1], iLo, AllocationPld.LOSS_GRID);
    }

    /**
     * The survival function of the law {@link #losses} gives (the connected law for an upper end, the rebuilt one for a
     * lower end): a bound on the curve for {@link ProfileEnvelope} and {@link DirectionCurve}, not on the survival
     * function.
     */
    double[] curveSurvival() {
        if (!upper) {
            return ProfileEnvelope.jensenLower(read(), AllocationPld.LOSS_GRID);
        }
        double[] mass = masses();
        int g = mass.length;
        double[] out = new double[g + 1];
        out[g] = survival[g];
        for (int i = g - 1; i >= 0; i--) {
            out[i] = out[i + 1] + mass[i];
        }
        return out;
    }

    private double[] masses() {
        int g = survival.length - 1;
        double[] mass = new double[g];
        for (int i = 0; i < g; i++) {
            mass[i] = Math.max(0, survival[i] - survival[i + 1]);
        }
        if (down == null) {
            return mass;
        }
        double[] connected = new double[g];
        for (int i = 0; i < g; i++) {
            double a = i == 0 ? 0 : down[i];
            double below = i + 1 < g ? down[i + 1] : 0;
            connected[i] = Math.max(0, mass[i] - a) + below;
        }
        return connected;
    }

    /**
     * For a lower end: {@code delta(eps)} of the merged law with each cell's mass at its weighted mean loss (class
     * comment), a lower bound on the true curve at every {@code eps}, rounded down (each contribution's rounding is
     * under 1e-13 of its cell's mass); the grid starts at index {@code iLo}; null weights: the rounded-down law.
     */
    static double lowerDelta(Read read, long iLo, double epsilon) {
        double[] survival = read.survival();
        double[] weight = read.weight();
        int g = survival.length - 1;
        double grid = AllocationPld.LOSS_GRID;
        double sum = Math.max(0, survival[g]);
        double allowance = 0;
        for (int i = g - 1; i >= 0; i--) {
            double gi = (iLo + i) * grid;
            if (gi + 2 * grid < epsilon) {
                break; // every cell below has W >= mu e^{-h}: no contribution
            }
            double mu = Math.max(0, survival[i] - survival[i + 1]);
            if (!(mu > 0)) {
                continue;
            }
            double w = weight == null ? mu : Math.min(mu, weight[i]);
            double c = mu - Math.exp(epsilon - gi) * w;
            if (c > 0) {
                sum += c;
                allowance += 1e-13 * mu;
            }
        }
        return Math.max(0, sum * (1 - 1e-12) - allowance);
    }

    /**
     * The lower end of one epoch's curve from both directions' merged lower ends ({@link #lowerDelta(Read, long,
     * double)}), the larger; {@code add} may be null (no lower end of that direction).
     */
    static double lowerDelta(Read remove, long removeStart, Read add, long addStart, double epsilon) {
        double d = lowerDelta(remove, removeStart, epsilon);
        return add == null ? d : Math.max(d, lowerDelta(add, addStart, epsilon));
    }

    /**
     * The share of a mass at {@code l} (rounded up to the grid point {@code g_i}) that moves to {@code g_{i-1}}, from
     * {@code rise = e^{g_i - l}}: {@code (rise - 1) / (e^h - 1)} on {@code [0, 1]}, rounded down by a relative 1e-9
     * (the ratio's rounding is under 1e-11 of it).
     */
    static double downShare(double rise) {
        double share = (rise - 1) / Math.expm1(AllocationPld.LOSS_GRID);
        return share > 0 ? Math.min(1, share) * (1 - 1e-9) : 0;
    }

    /** The non-zero masses of {@code mass} (grid {@code h} from index {@code iLo}) and {@code infinity} at +inf. */
    static DpEvent.LossMasses lossMasses(double[] mass, double infinity, long iLo, double h) {
        int count = 0;
        for (double m : mass) {
            if (m > 0) {
                count++;
            }
        }
        double[] l = new double[count];
        double[] m = new double[count];
        int o = 0;
        for (int i = 0; i < mass.length; i++) {
            if (mass[i] > 0) {
                l[o] = (iLo + i) * h;
                m[o++] = mass[i];
            }
        }
        return new DpEvent.LossMasses(l, m, infinity);
    }
}

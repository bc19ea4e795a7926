package io.dpaudit.mechanisms.batching;

/**
 * The lattices in convex order ({@link ConvexOrderLattice}) read as laws of the privacy loss on {@link AllocationPld}'s
 * grid, for compositions over several epochs.
 *
 * <p><b>Why they compose.</b> Per epoch, with {@code X = S / (T mu)} the likelihood ratio under {@code Q}: the remove
 * direction's {@code E}-fold curve is {@code E_{Q^E}[(prod_e X_e - e^eps)_+]} and the add direction's
 * {@code E_{Q^E}[(1 - e^eps prod_e X_e)_+]}; each is convex in every {@code X_e} with the others fixed, increasing
 * (remove) or decreasing (add). The split lattice's {@code X'_up = (S' + T KAPPA h) / ((1 - KAPPA) T mu)} dominates
 * {@code X} in increasing convex order and {@code X'_lo = (S' - T KAPPA h) / ((1 + KAPPA) T mu)} in decreasing convex
 * order (Jensen over the split, conditionally on the terms; the rounding bias of the positions bounded by
 * {@code KAPPA}), so replacing one epoch at a time, the epochs independent, each direction's composed curve is bounded
 * from above by the composition of the laws {@code L' = log X'_up} under {@code P'(j) = X'_up(j) Q'(j)} (remove) and
 * {@code -log X'_lo} under {@code Q'} (add). The cell-mean lattice's {@code X'' = S'' / (T mu)} is below {@code X} in
 * increasing convex order, so the remove direction composed from {@code log X''} under {@code X'' Q''} is a lower
 * bound, and the lower end has no add direction (0, still a lower bound on the larger of the two).
 *
 * <p><b>The reads.</b> Point {@code j}'s mass (bounded from above or below, {@link ConvexOrderLattice#mass}) at its
 * loss, moved up to the grid with each cell connected to both its points (upper ends, {@link SurvivalMerge}) or down
 * with its weight (lower ends, rebuilt to second order by {@link ProfileEnvelope#jensenLower}). An upper read stops at
 * a cut where the lattice's own Chernoff bound on the mass beyond it ({@link ConvexOrderLattice#removeTail},
 * {@link ConvexOrderLattice#addTail}) falls under {@value #TAIL_CUT}, and puts that bound, the escape event's
 * probability and anything beyond the grid at {@code +inf}. A lower read drops the escape event and what lies under the
 * grid, and takes the mass that may have wrapped around the lattice off every survival value. Reads of the same
 * lattice law under different tilts are reads of one pair, so their survival functions merge by the pointwise
 * minimum (maximum).
 */
final class ConvexOrderReads {
    /** Mass beyond which an upper read stops summing points (the bound on the rest goes to {@code +inf}). */
    static final double TAIL_CUT = 1e-20;
    private static final double GRID = AllocationPld.LOSS_GRID;

    private ConvexOrderReads() {
    }

    /** The split lattice's remove direction: {@code L' = log X'_up} under {@code P'}, grid from {@code iLo}, g points. */
    static SurvivalMerge.Read removeUpper(ConvexOrderLattice lattice, long iLo, int g) {
        double[] mass = new double[g + 1];
        double[] down = new double[g + 1];
        double h = lattice.spacing();
        double shift = lattice.steps() * ConvexOrderLattice.KAPPA * h;
        double scale = 1 / ((1 - ConvexOrderLattice.KAPPA) * lattice.meanSum());
        double top = (iLo + g - 1) * GRID;
        int cut = removeCut(lattice);
        for (int j = 0; j < cut; j++) {
            double m = lattice.mass(j, true);
            if (!(m > 0)) {
                continue;
            }
            double x = (j * h + shift) * scale;
            double pm = m * x * (1 + 1e-12);
            double loss = Math.log(x);
            if (loss > top) {
                mass[g] += pm;
                continue;
            }
            int i = LossSurvivalReader.index(loss, true, iLo, g);
            mass[i] += pm;
            if (i > 0 && pm < Double.POSITIVE_INFINITY) {
                down[i] += pm * SurvivalMerge.downShare(Math.exp((iLo + i) * GRID - loss));
            }
        }
        mass[g] += lattice.escapeUnderP() + lattice.removeTail(cut);
        return new SurvivalMerge.Read(suffix(mass), down);
    }

    /** The split lattice's add direction: {@code -log X'_lo} under {@code Q'}, grid from {@code iLo}, g points. */
    static SurvivalMerge.Read addUpper(ConvexOrderLattice lattice, long iLo, int g) {
        double[] mass = new double[g + 1];
        double[] down = new double[g + 1];
        double h = lattice.spacing();
        double shift = lattice.steps() * ConvexOrderLattice.KAPPA * h;
        double scale = 1 / ((1 + ConvexOrderLattice.KAPPA) * lattice.meanSum());
        double top = (iLo + g - 1) * GRID;
        int cut = addCut(lattice);
        for (int j = cut + 1; j < lattice.points(); j++) {
            double m = lattice.mass(j, true);
            if (!(m > 0)) {
                continue;
            }
            addAt(mass, down, (j * h - shift) * scale, m, iLo, g);
        }
        mass[g] += cut >= 0 ? lattice.addTail(cut) : 0;
        // an escaped term makes S > B (k + 1 of them, S > (k + 1) B, where k are read apart): -L below -log(that / (T mu)), up
        double escaped = -Math.log(lattice.escapedSum() / lattice.meanSum());
        mass[escaped > top ? g : LossSurvivalReader.index(escaped, true, iLo, g)] += lattice.escapeUnderQ();
        return new SurvivalMerge.Read(suffix(mass), down);
    }

    /**
     * The cell-mean lattice's remove direction from below: {@code log X''} under {@code X'' Q''}, masses bounded from
     * below and moved down to the grid with their weights, the escape event and losses under the grid dropped, the
     * wrapped mass's bound (at weight at most {@code m h / (T mu)}) taken off every survival value.
     */
    static SurvivalMerge.Read removeLower(ConvexOrderLattice lattice, long iLo, int g) {
        double[] mass = new double[g + 1];
        double[] weight = new double[g + 1];
        double h = lattice.spacing();
        double bottom = iLo * GRID;
        for (int j = 1; j < lattice.points(); j++) {
            double m = lattice.mass(j, false);
            if (!(m > 0)) {
                continue;
            }
            double x = j * h / lattice.meanSum();
            double loss = Math.log(x);
            if (loss < bottom) {
                continue;
            }
            double pm = m * x * (1 - 1e-12);
            int i = LossSurvivalReader.index(loss, false, iLo, g);
            mass[i] += pm;
            weight[i] += pm * Math.min(1, Math.exp((iLo + i) * GRID - loss) * (1 + 1e-12));
        }
        double[] survival = suffix(mass);
        double wrapped = lattice.aliasMass() * lattice.points() * h / lattice.meanSum();
        for (int i = 0; i <= g; i++) {
            survival[i] = Math.max(0, survival[i] * (1 - 1e-12) - wrapped);
        }
        return new SurvivalMerge.Read(survival, null, weight);
    }

    /**
     * Mass {@code m} under {@code Q} at the likelihood ratio {@code x}, the add direction's loss {@code -log x}, moved up
     * to the grid from {@code iLo} ({@code g} points, the last {@code +inf}) with its share to the point below.
     */
    static void addAt(double[] mass, double[] down, double x, double m, long iLo, int g) {
        double v = x > 0 ? -Math.log(x) : Double.POSITIVE_INFINITY;
        if (v > (iLo + g - 1) * GRID) {
            mass[g] += m;
            return;
        }
        int i = LossSurvivalReader.index(v, true, iLo, g);
        mass[i] += m;
        if (i > 0 && m < Double.POSITIVE_INFINITY) {
            down[i] += m * SurvivalMerge.downShare(Math.exp((iLo + i) * GRID) * x);
        }
    }

    /** The first of {@code mean + 2^k} (k = 0, 1, ...) whose {@link ConvexOrderLattice#removeTail} is under the cut. */
    static int removeCut(ConvexOrderLattice lattice) {
        long mean = (long) Math.ceil(lattice.indexOf(0));
        for (long step = 1; mean + step < lattice.points(); step <<= 1) {
            if (lattice.removeTail(mean + step) <= TAIL_CUT) {
                return (int) (mean + step);
            }
        }
        return lattice.points();
    }

    /** The last of {@code mean - 2^k} whose {@link ConvexOrderLattice#addTail} is under the cut (-1: none needed). */
    static int addCut(ConvexOrderLattice lattice) {
        long mean = (long) Math.floor(lattice.indexOf(0));
        for (long step = 1; mean - step >= 0; step <<= 1) {
            if (lattice.addTail(mean - step) <= TAIL_CUT) {
                return (int) (mean - step);
            }
        }
        return -1;
    }

    /** Suffix sums of {@code mass} (the last entry the mass at {@code +inf}): a survival function. */
    private static double[] suffix(double[] mass) {
        int g = mass.length - 1;
        double[] s = new double[g + 1];
        s[g] = mass[g];
        for (int i = g - 1; i >= 0; i--) {
            s[i] = s[i + 1] + mass[i];
        }
        return s;
    }
}

package io.dpaudit.mechanisms.batching;

import io.dpaudit.core.accounting.Adjacency;
import io.dpaudit.core.accounting.DpEvent;
import io.dpaudit.core.accounting.PldAccountant;
import io.dpaudit.core.bounds.PrivacyBound;
import io.dpaudit.core.numerics.Interruption;
import java.lang.ref.SoftReference;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.function.DoubleSupplier;

/**
 * Balls-and-bins bracketed through its sum's lattices in convex order ({@link ConvexOrderLattice}): the split lattice
 * bounds both directions' hockey sticks from above, the cell-mean lattice the remove direction's from below, each with
 * a second-order error and no rounding band; one epoch read directly, several composed ({@link ConvexOrderReads}).
 * Since 2026-11-30 (eighth session) these bound {@link AllocationPld}'s ends where tighter (T = 10^4, σ = 1, one
 * epoch, δ = 1e-4: 0.084% wide in δ, where the offsets' band left 1.9%).
 *
 * <p>The terms' clamp {@code B} is where the escape probability under {@code P} falls to {@value #ESCAPE}
 * ({@link TermEscape#clamp}), or, where it takes fewer lattice points ({@link Clamp}), where the probability of two or
 * more terms above it does, the event of exactly one read apart ({@link LargeTerms}, since 2026-12-01: T = 10^4,
 * σ = 0.7, the clamp 2.4e4 instead of 9.8e5). The lattice covers terms up to the larger of {@code B} and twice the
 * mean sum {@code T mu} (sums up to twice that), at spacing at most {@value #SPACING} times the larger of 1 and one
 * term's standard deviation over its value at σ = 1 (the split's noise is the same fraction of the sum's spread), and
 * is offered where that takes at most {@value #MOST_POINTS} points ({@link #offered}). For one epoch, where the untilted ends are more than
 * {@value #TILT_GAP} apart, both lattices are also computed under an exponential tilt aimed just under the sum where the
 * untilted upper end falls to the level of δ at or above the read's ({@value #LEVELS_PER_DECADE} levels per decade), so
 * that the round-off allowance there is relative and every read between two levels shares one pair of lattices; over
 * several epochs the tilts aim at fixed levels of one epoch's curve ({@link #COMPOSED_LEVELS}). Every lattice's read is
 * an end, so the tightest is kept.
 */
final class ConvexOrderBracket {
    /** Largest lattice spacing sought. */
    static final double SPACING = 0.008;
    /** One epoch's δ levels towards whose sums the composed bracket's tilted lattices aim. */
    static final double[] COMPOSED_LEVELS = {1e-5, 1e-7, 1e-9, 1e-11, 1e-13};
    /** Most lattice points computed ({@link #offered}). */
    static final int MOST_POINTS = 1 << 23;
    /** The escape probability the clamp is placed at. */
    static final double ESCAPE = 1e-16;
    /** Where the untilted ends are further apart than this (relative to the upper), the tilted lattices are added. */
    static final double TILT_GAP = 1e-3;
    /** ... unless the upper end is below this (far under any δ asked for, 1e-12 at least: a tilt gains nothing). */
    static final double TILT_ABOVE = 1e-15;
    /** How far under the level's first point a tilt is aimed, relative to the mean sum. */
    static final double AIM_BELOW = 0.005;
    /** One epoch's tilts aim at the levels {@code 10^(-k / LEVELS_PER_DECADE)} of δ. */
    static final int LEVELS_PER_DECADE = 2;
    /**
     * Bytes of tilted lattices kept, of each kind (at least two lattices): eight of 2^22 points, so that a plot's reads,
     * which move back and forth between the levels, find them made. They are held softly: under memory pressure the
     * collector may drop them, and they are made again (a lattice depends only on its aim, so no number changes).
     */
    static final long KEPT_BYTES = 1L << 28;

    private final int steps;
    private final int epochs;
    /** Over several epochs, {upper, lower} composed; null until first asked. */
    private PrivacyBound[] composedBounds;
    /** False while a search runs {@link #withoutTilts}. */
    private boolean tiltsAllowed = true;
    private final double tau;
    private final int lattice;
    private final double h;
    private final int clampIndex;
    /** How many terms above the clamp are read apart (the events of exactly 1, ..., that many: {@link LargeTerms}). */
    private final int apart;
    /** Those events' reads, from the untilted lattices (null until made, or where none is read apart). */
    private LargeTerms[] large;
    /** One term's lattice laws, split and at cell means. */
    private ConvexOrderLattice.Term splitTerm;
    private ConvexOrderLattice.Term cellTerm;
    private ConvexOrderLattice split;
    private ConvexOrderLattice cells;
    /** One epoch's aims by level index {@code k} ({@link #aimAtLevel}). */
    private final Map<Integer, Long> levelAims = new HashMap<>();
    /** The tilted lattices of each kind by aim, the last used ({@link #KEPT_BYTES}). */
    private final Map<Long, SoftReference<ConvexOrderLattice>> tiltedSplit;
    private final Map<Long, SoftReference<ConvexOrderLattice>> tiltedCells;

    /** A map that keeps its last {@code kept} entries in access order. */
    private static Map<Long, SoftReference<ConvexOrderLattice>> recent(int kept) {
        return new LinkedHashMap<>(16, 0.75f, true) {
            private static final long serialVersionUID = 1L;

            @Override
            protected boolean removeEldestEntry(Map.Entry<Long, SoftReference<ConvexOrderLattice>> eldest) {
                return size() > kept;
            }
        };
    }

    /** Where the terms are clamped. */
    enum Clamp {
        /** Where the escape probability under {@code P} is {@value #ESCAPE}. */
        PLAIN,
        /** Where two or more terms escape with that probability, the event of one read apart ({@link LargeTerms}). */
        ONE_APART,
        /** Where three or more do, the events of one and of two read apart. */
        TWO_APART,
        /** The one of these with the fewest lattice points (the fewest terms read apart among equals). */
        FEWER_POINTS
    }

    ConvexOrderBracket(int steps, int epochs, double sigma) {
        this(steps, epochs, sigma, Clamp.FEWER_POINTS);
    }

    /** The bracket with the clamp {@code choice} (the tests compare them). */
    ConvexOrderBracket(int steps, int epochs, double sigma, Clamp choice) {
        this.steps = steps;
        this.epochs = epochs;
        this.tau = 1 / sigma;
        double mean = steps * Math.exp(tau * tau / 2);
        double clamp = TermEscape.clamp(steps, tau, ESCAPE, 1);
        double range = Math.max(2 * mean, clamp);
        double spacing = SPACING * Math.max(1, termDeviation(tau) / termDeviation(1));
        int m = latticeFor(range, spacing);
        int terms = 0;
        for (int k = 1; k <= 2; k++) {
            double lower = TermEscape.clamp(steps, tau, ESCAPE, k + 1);
            // sums up to four times the clamp: two terms under it but over half of it are not negligible
            double lowerRange = Math.max(2 * mean, 2 * lower);
            int lowerM = latticeFor(lowerRange, spacing);
            if (choice.ordinal() == k || choice == Clamp.FEWER_POINTS && lowerM < m) {
                terms = k;
                clamp = lower;
                range = lowerRange;
                m = lowerM;
            }
        }
        this.apart = terms;
        this.lattice = m;
        this.h = range / (lattice / 2 - 1);
        this.clampIndex = (int) Math.min(lattice / 2 - 1, Math.ceil(clamp / h));
        int kept = (int) Math.max(2, KEPT_BYTES / (8L * lattice));
        this.tiltedSplit = recent(kept);
        this.tiltedCells = recent(kept);
    }

    /**
     * Points for spacing at most {@code spacing} where terms reach {@code range} (and sums twice that): a power of two
     * in [2^20, 2^25].
     */
    static int latticeFor(double range, double spacing) {
        int m = 1 << 20;
        while (m < (1 << 25) && range / (m / 2 - 1) > spacing) {
            m <<= 1;
        }
        return m;
    }

    /** One term's standard deviation under {@code Q}: {@code e^{tau^2/2} sqrt(e^{tau^2} - 1)}. */
    static double termDeviation(double tau) {
        return Math.exp(tau * tau / 2) * Math.sqrt(Math.expm1(tau * tau));
    }

    /** The lattice's length. */
    int lattice() {
        return lattice;
    }

    /**
     * Whether the lattices are computed: where the clamp needs at most {@value #MOST_POINTS} points (σ about 0.8 and
     * over); below, the escape clamp is orders of magnitude above the mean sum, the tail is one large term's, and
     * {@link AllocationPld}'s other bounds are the tight ones.
     */
    boolean offered() {
        return lattice <= MOST_POINTS;
    }

    /**
     * An upper bound on the curve {@code delta(eps)}, the larger of both directions' ({@code +inf} if not offered):
     * one epoch's read directly, several epochs' composed ({@link #composed}).
     */
    synchronized double upperDelta(double eps) {
        if (!offered()) {
            return Double.POSITIVE_INFINITY;
        }
        return epochs == 1 ? oneEpoch(eps, true) : composed()[0].delta(eps);
    }

    /** A lower bound on the curve {@code delta(eps)}, the remove direction's (0 if not offered). */
    synchronized double lowerDelta(double eps) {
        if (!offered()) {
            return 0;
        }
        return epochs == 1 ? oneEpoch(eps, false) : composed()[1].delta(eps);
    }

    /**
     * One epoch's upper or lower end at {@code eps}: the untilted lattices', tightened by a tilted one of the end's
     * kind where the untilted ends are more than {@value #TILT_GAP} apart (relative to the upper) and the upper end is
     * above {@value #TILT_ABOVE}.
     */
    private double oneEpoch(double eps, boolean upper) {
        base();
        double largeUpper = 0;
        double largeLower = 0;
        double largeAdd = 0;
        for (LargeTerms event : large == null ? new LargeTerms[0] : large) {
            largeUpper += event.removeUpper(eps);
            largeLower += event.removeLower(eps);
            largeAdd += event.addUpper(eps);
        }
        double remove = split.removeUpper(eps);
        double add = split.addUpper(eps);
        double high = Math.max(Math.min(1, remove + largeUpper), Math.min(1, add + largeAdd));
        double low = cells.removeLower(eps) + largeLower;
        boolean tilt = tiltsAllowed && high - low > TILT_GAP * high && high > TILT_ABOVE;
        if (!upper) {
            return tilt ? Math.max(low, tilted(ConvexOrderLattice.Kind.CELL_MEANS, high).removeLower(eps) + largeLower)
                    : low;
        }
        if (tilt) {
            ConvexOrderLattice t = tilted(ConvexOrderLattice.Kind.SPLIT, high);
            high = Math.max(Math.min(1, Math.min(remove, t.removeUpper(eps)) + largeUpper),
                    Math.min(1, Math.min(add, t.addUpper(eps)) + largeAdd));
        }
        return high;
    }

    /**
     * An upper bound on {@code eps(delta)}, at most {@code known} (an upper bound already found): over several epochs
     * the composed upper end's; for one, bisection for the smallest {@code eps} where {@link #upperDelta} is at most
     * {@code delta} (the right end kept), first on the untilted lattices over {@code [0, known]}, then with the tilted
     * ones from just under that answer (so that the tilts are made near it).
     */
    double upperEpsilon(double delta, double known) {
        if (!offered() || !(known > 0)) {
            return known;
        }
        if (epochs > 1) {
            return Math.min(known, composed()[0].epsilon(delta));
        }
        double untilted = withoutTilts(() -> smallestBelow(delta, 0, known));
        double lo = untilted;
        double step = Math.max(0.03 * untilted, 1e-9);
        for (int it = 0; it < 40 && lo > 0 && upperDelta(lo) <= delta; it++) {
            lo = Math.max(0, lo - step);
            step *= 2;
        }
        return smallestBelow(delta, lo, untilted);
    }

    /**
     * The smallest {@code eps} in {@code [lo, hi]} found by bisection where {@link #upperDelta} is at most {@code delta},
     * the right end kept ({@code hi} itself where it is not there either).
     */
    private double smallestBelow(double delta, double lo, double hi) {
        if (!(upperDelta(hi) <= delta)) {
            return hi;
        }
        if (upperDelta(lo) <= delta) {
            return lo;
        }
        for (int it = 0; it < 60 && hi - lo > 1e-9 * hi; it++) {
            double mid = (lo + hi) / 2;
            if (upperDelta(mid) <= delta) {
                hi = mid;
            } else {
                lo = mid;
            }
        }
        return hi;
    }

    /**
     * A lower bound on {@code eps(delta)}, at least {@code known} (a lower bound already found): for one epoch the
     * largest {@code eps} found where {@link #lowerDelta} still exceeds {@code delta} (so the true curve does, and
     * {@code eps(delta)} is at least it), searched upwards from {@code known} in doubling steps, then by bisection;
     * over several epochs the composed lower end's root is already in {@code known} (its profile is part of the
     * curve searched).
     */
    double lowerEpsilon(double delta, double known) {
        if (!offered() || epochs > 1 || !(lowerDelta(known) > delta)) {
            return known;
        }
        double lo = known;
        double step = Math.max(0.02 * known, 1e-9);
        double hi = lo + step;
        for (int it = 0; it < 40 && lowerDelta(hi) > delta; it++) {
            lo = hi;
            step *= 2;
            hi = lo + step;
        }
        for (int it = 0; it < 50 && hi - lo > 1e-10 * hi; it++) {
            double mid = (lo + hi) / 2;
            if (lowerDelta(mid) > delta) {
                lo = mid;
            } else {
                hi = mid;
            }
        }
        return Math.max(known, Math.nextDown(lo));
    }

    /**
     * {@code search}'s answer with the tilted lattices neither made nor read (the untilted ends only, still ends): for
     * root searches whose early probes are far from the answer.
     */
    synchronized double withoutTilts(DoubleSupplier search) {
        boolean was = tiltsAllowed;
        tiltsAllowed = false;
        try {
            return search.getAsDouble();
        } finally {
            tiltsAllowed = was;
        }
    }

    /**
     * The bracket over {@code epochs} epochs, {upper, lower}, by the PLD accountant (pessimistic and optimistic) from
     * the lattices' reads ({@link ConvexOrderReads}): the untilted pair and pairs tilted towards the sums where one
     * epoch's upper end reaches each of {@link #COMPOSED_LEVELS} (each located with the lattices already made);
     * computed once.
     */
    private PrivacyBound[] composed() {
        if (composedBounds != null) {
            return composedBounds;
        }
        base();
        double grid = AllocationPld.LOSS_GRID;
        long iLo = (long) Math.floor(-3 / grid) - 1;
        double topLoss = Math.log(split.points() * h / split.meanSum());
        for (LargeTerms event : large == null ? new LargeTerms[0] : large) {
            topLoss = Math.max(topLoss, event.topLoss());
        }
        long iHi = (long) Math.ceil(topLoss / grid) + 2;
        int g = (int) (iHi - iLo + 1);
        long addLo = -iHi;
        int addPoints = (int) (Math.ceil(8 / grid) - addLo + 1);
        SurvivalMerge removeUpper = new SurvivalMerge(true);
        SurvivalMerge addUpper = new SurvivalMerge(true);
        SurvivalMerge removeLower = new SurvivalMerge(false);
        // the event of one term above the clamp, where read apart, is added to every read of the rest
        SurvivalMerge.Read largeUpper = null;
        SurvivalMerge.Read largeLower = null;
        SurvivalMerge.Read largeAdd = null;
        for (LargeTerms event : large == null ? new LargeTerms[0] : large) {
            largeUpper = withLarge(event.upperRead(iLo, g), largeUpper);
            largeLower = withLarge(event.lowerRead(iLo, g), largeLower);
            largeAdd = withLarge(event.addRead(addLo, addPoints), largeAdd);
        }
        removeUpper.add(withLarge(ConvexOrderReads.removeUpper(split, iLo, g), largeUpper));
        addUpper.add(withLarge(ConvexOrderReads.addUpper(split, addLo, addPoints), largeAdd));
        removeLower.add(withLarge(ConvexOrderReads.removeLower(cells, iLo, g), largeLower));
        List<ConvexOrderLattice> splits = new ArrayList<>(List.of(split));
        for (double level : COMPOSED_LEVELS) {
            double eps = levelEpsilon(splits.subList(Math.max(0, splits.size() - 2), splits.size()), level);
            double start = split.indexOf(eps);
            if (!(start < split.points())) {
                break;
            }
            long aim = (long) Math.floor(start - AIM_BELOW * split.indexOf(0));
            Interruption.check("computing the balls-and-bins convex-order lattices under a tilt");
            ConvexOrderLattice[] made = LatticePair.of(() -> make(ConvexOrderLattice.Kind.SPLIT, aim),
                    () -> make(ConvexOrderLattice.Kind.CELL_MEANS, aim));
            ConvexOrderLattice t = made[0];
            removeUpper.add(withLarge(ConvexOrderReads.removeUpper(t, iLo, g), largeUpper));
            splits.add(t);
            removeLower.add(withLarge(ConvexOrderReads.removeLower(made[1], iLo, g), largeLower));
        }
        String what = String.format(Locale.ROOT, "balls-and-bins, T = %d, in convex order", steps);
        DpEvent upper = new DpEvent.SelfComposed(new DpEvent.DiscreteLoss(what + " (upper end)",
                removeUpper.losses(iLo), addUpper.losses(addLo)), epochs);
        DpEvent lower = new DpEvent.SelfComposed(new DpEvent.DiscreteLoss(what + " (lower end)",
                removeLower.losses(iLo), new SurvivalMerge(true).losses(addLo)), epochs);
        composedBounds = new PrivacyBound[] {
            new PldAccountant(grid).account(AllocationPld.UPPER, upper, Adjacency.ADD_REMOVE),
            PldAccountant.optimisticDiscrete(grid).account(AllocationPld.LOWER, lower, Adjacency.ADD_REMOVE)};
        // several epochs read nothing else from the lattices: let them go
        split = null;
        cells = null;
        large = null;
        splitTerm = null;
        cellTerm = null;
        return composedBounds;
    }

    /** {@code read} with the event of one large term's read added (none: {@code read} itself). */
    private static SurvivalMerge.Read withLarge(SurvivalMerge.Read read, SurvivalMerge.Read large) {
        return large == null ? read : LargeTerms.plus(read, large);
    }

    /** The ε (bisection on [0, 8], to 1.2e-4) where the smallest of the lattices' one-epoch remove ends falls to {@code level}. */
    private static double levelEpsilon(List<ConvexOrderLattice> lattices, double level) {
        double lo = 0;
        double hi = 8;
        for (int it = 0; it < 16; it++) {
            double mid = (lo + hi) / 2;
            double d = Double.POSITIVE_INFINITY;
            for (ConvexOrderLattice l : lattices) {
                d = Math.min(d, l.removeUpper(mid));
            }
            if (d <= level) {
                hi = mid;
            } else {
                lo = mid;
            }
        }
        return hi;
    }

    private void base() {
        if (split == null) {
            Interruption.check("computing the balls-and-bins convex-order lattices");
            splitTerm = ConvexOrderLattice.term(ConvexOrderLattice.Kind.SPLIT,
                    ConvexOrderLattice.splitLaw(clampIndex, h, tau), steps, tau, h, lattice, apart);
            cellTerm = ConvexOrderLattice.term(ConvexOrderLattice.Kind.CELL_MEANS,
                    CellPartition.law(clampIndex, h, tau), steps, tau, h, lattice, apart);
            ConvexOrderLattice[] made = LatticePair.of(() -> make(ConvexOrderLattice.Kind.SPLIT, -1),
                    () -> make(ConvexOrderLattice.Kind.CELL_MEANS, -1));
            split = made[0];
            cells = made[1];
            large = apart > 0 ? largeTerms() : null;
        }
    }

    /** The events of large terms read apart, with the untilted lattices of the other {@code T - 1} terms. */
    private LargeTerms[] largeTerms() {
        Interruption.check("computing the balls-and-bins convex-order lattices of the other terms");
        ConvexOrderLattice[] rest = LatticePair.of(() -> rest(splitTerm), () -> rest(cellTerm));
        return LargeTerms.events(rest[0], rest[1], steps, tau, apart);
    }

    /** The untilted lattice of {@code T - 1} terms of {@code term}'s law. */
    private ConvexOrderLattice rest(ConvexOrderLattice.Term term) {
        ConvexOrderLattice.Term other = ConvexOrderLattice.term(term.kind(), term.law(), steps - 1, tau, h, lattice,
                apart);
        return ConvexOrderLattice.of(other, steps - 1, tau, h, clampIndex, lattice, -1);
    }

    /** A lattice of {@code kind} from its term law (computed once), tilted towards {@code aim} ({@code -1}: none). */
    private ConvexOrderLattice make(ConvexOrderLattice.Kind kind, long aim) {
        ConvexOrderLattice.Term term = kind == ConvexOrderLattice.Kind.SPLIT ? splitTerm : cellTerm;
        return ConvexOrderLattice.of(term, steps, tau, h, clampIndex, lattice, aim);
    }

    /**
     * A tilted lattice of {@code kind} for a read whose untilted upper end is {@code high}: aimed as
     * {@link #aimAtLevel} says for the level {@code 10^(-k / LEVELS_PER_DECADE)} at or above {@code high} (so that
     * every read between two levels shares it), the last used kept ({@link #KEPT_BYTES}).
     */
    private ConvexOrderLattice tilted(ConvexOrderLattice.Kind kind, double high) {
        long aim = aimAtLevel((int) Math.floor(-LEVELS_PER_DECADE * Math.log10(high)));
        Map<Long, SoftReference<ConvexOrderLattice>> kept = kind == ConvexOrderLattice.Kind.SPLIT ? tiltedSplit
                : tiltedCells;
        SoftReference<ConvexOrderLattice> held = kept.get(aim);
        ConvexOrderLattice made = held == null ? null : held.get();
        if (made == null) {
            Interruption.check("computing the balls-and-bins convex-order lattices under a tilt");
            ConvexOrderLattice.Kind otherKind = kind == ConvexOrderLattice.Kind.SPLIT
                    ? ConvexOrderLattice.Kind.CELL_MEANS : ConvexOrderLattice.Kind.SPLIT;
            Map<Long, SoftReference<ConvexOrderLattice>> otherKept = kind == ConvexOrderLattice.Kind.SPLIT
                    ? tiltedCells : tiltedSplit;
            SoftReference<ConvexOrderLattice> otherHeld = otherKept.get(aim);
            if (LatticePair.sideBySide() && (otherHeld == null || otherHeld.get() == null)) {
                // a read of one end is followed by the other's at the same level: make both at once
                ConvexOrderLattice[] both = LatticePair.of(() -> make(kind, aim), () -> make(otherKind, aim));
                made = both[0];
                otherKept.put(aim, new SoftReference<>(both[1]));
            } else {
                made = make(kind, aim);
            }
            kept.put(aim, new SoftReference<>(made));
        }
        return made;
    }

    /**
     * The aim of level {@code k}: {@value #AIM_BELOW} of the mean sum under the sum {@code T mu e^eps}, where
     * {@code eps} is found by bisection on {@code [0, 16]} (to 1e-6, the right end kept) as the smallest where the
     * untilted upper end is at most {@code 10^(-k / LEVELS_PER_DECADE)}: a read whose untilted upper end is at most
     * that level starts at or above that sum. Computed once per level, and only from {@code k}, so that no number
     * depends on the order of the reads.
     */
    private long aimAtLevel(int k) {
        Long known = levelAims.get(k);
        if (known != null) {
            return known;
        }
        double level = Math.pow(10, -(double) k / LEVELS_PER_DECADE);
        double lo = 0;
        double hi = 16;
        for (int it = 0; it < 24; it++) {
            double mid = (lo + hi) / 2;
            if (Math.max(split.removeUpper(mid), split.addUpper(mid)) <= level) {
                hi = mid;
            } else {
                lo = mid;
            }
        }
        long aim = (long) Math.floor(split.indexOf(hi) - AIM_BELOW * split.indexOf(0));
        levelAims.put(k, aim);
        return aim;
    }
}

package io.dpaudit.mechanisms.batching;

import io.dpaudit.core.accounting.Adjacency;
import io.dpaudit.core.accounting.DpEvent;
import io.dpaudit.core.accounting.PldAccountant;
import io.dpaudit.core.bounds.BoundKind;
import io.dpaudit.core.bounds.PrivacyBound;
import io.dpaudit.core.numerics.Interruption;
import io.dpaudit.core.numerics.Normal;
import io.dpaudit.core.numerics.SafeRounding;
import java.util.Locale;
import java.util.function.DoubleUnaryOperator;

/**
 * A two-sided bracket on the exact privacy curve of balls-and-bins (random allocation with {@code k = 1}) over
 * {@code E} epochs: the pair {@code P_B = (1/T) sum_t N(e_t, s^2 I_T)} against {@code Q_B = N(0, s^2 I_T)} (formula
 * sheet §14; tightly dominating, Chua et al., AISTATS 2025), composed {@code E} times.
 *
 * <p><b>The idea</b> (Feldman &amp; Shenfeld, arXiv 2602.17284: the PLD of random allocation through the law of the
 * summed exponentiated per-step losses). The privacy loss is {@code L = log(S / (T e^{tau^2/2}))}, a function of one
 * sum {@code S} of {@code T} independent lognormals ({@link LognormalSumLattice}), so both directions' privacy-loss
 * distributions — {@code L} under {@code P}, {@code -L} under {@code Q} — follow from the law of {@code S}.
 *
 * <p><b>How it is made rigorous.</b> The law of {@code S} is computed on lattices with every term rounded up (a sum at
 * least {@code S}) and down (at most {@code S}). Each lattice reaches a clamp {@code B}; one lattice cannot resolve both
 * the bulk ({@code S ~ T e^{tau^2/2}}) and the heavy upper tail, so a ladder of clamps from {@code 2 T e^{tau^2/2}} up
 * to where fewer than 1e-14 of {@code P}'s mass escapes is computed (consecutive clamps a ratio {@code r} apart:
 * at least 4, and as far apart as the resolution below allows), and for each direction the losses are read from every
 * rung and moved to a grid of 5e-5: for the upper end, up (then connected: {@link SurvivalMerge}; rounded-up S for
 * {@code L}, rounded-down for {@code -L}), with escaped and wrapped-around mass at {@code +inf}, and the round-off
 * allowance added to every point; for the lower end, down, with those masses at the clamp's loss or dropped and the
 * allowance subtracted. The rungs are merged through their survival functions {@code G(u) = mass at loss >= u}: an
 * upper end needs {@code G >= G_true} at every {@code u}, so the pointwise minimum over rungs is still one (and the
 * lower ends' maximum is still a lower end). Every {@code delta(eps) = E_P[(1 - e^{eps - L})_+]}, and every
 * {@code E}-fold composition of it, is non-decreasing in {@code G} (integration by parts), so the PLD accountant's
 * pessimistic composition of the upper laws is an upper bound on the curve and the optimistic composition of the
 * lower laws a lower one: the accountant subtracts its composition's round-off allowance, aliased mass and mass at
 * {@code +inf} ({@link PldAccountant#optimisticDiscrete}), so it is proven for every {@code E}.
 *
 * <p><b>The offsets' concentration</b> (2026-11-30). Rounding every term down moves {@code S} by {@code R = sum_t u_t},
 * independent offsets in {@code [0, h)} with means bracketed in closed form ({@link LognormalSumLattice#meanOffset});
 * by Hoeffding's or Bernstein's inequality ({@link OffsetConcentration}) {@code R} lies within about
 * {@code h sqrt(T ln(1/nu) / 2)} of its mean except with probability {@code nu} =
 * {@value LossSurvivalReader#OFFSET_TAIL} a side, so the rounded-down lattice read with {@code S = j h + r+} or
 * {@code j h + r-} ({@link LossSurvivalReader#throughOffsets}) gives all four ends, each off by {@code nu}: a band of
 * about {@code 9 sqrt(T) h} where the rounded lattices' is {@code T h}; from {@value #OFFSET_READ_ALONE_FROM} steps on
 * the rounded-up lattice is not computed. A rung moves {@code S} by at most {@code T r / n} of {@code S} where it is
 * used ({@code r = max(4, 0.004 n / T)}); the other direction reads {@code S} down to {@code T e^{tau^2/2 - eps}} off
 * the bottom rung (at least 2^20 points). One epoch is also bracketed in convex order, with no band
 * ({@link ConvexOrderBracket}).
 *
 * <p><b>Small δ.</b> The lattice's round-off allowance (about 1e-15 per point, summed over a tail of up to 10^6
 * points) is a floor of about 1e-10 on both ends. Below {@link #REFINE_BELOW} the upper end is refined
 * ({@link #refine}): the rungs are computed again under an exponential tilt towards the tail each serves, where the
 * allowance is relative instead of absolute, and the pointwise smaller survival function is kept (T = 1000, σ = 1,
 * δ = 1e-12: upper end 0.8943, was 3.817). From {@value #OFFSET_READ_ALONE_FROM} steps on the tilted lattices are
 * rounded down and read through the offsets' concentration, so they refine the lower end too. Offered for
 * {@code T <= 10^4} and {@code tau^2 / 2 + 8 tau <= 60} (sigma >= 0.18).
 *
 * <p><b>The deep tail</b> (2026-11-30, {@link AllocationDeepTail}). Far in the tail one large term carries the event
 * and the other terms matter through their mean, spread and excess, which closed forms bound from both sides without a
 * lattice's round-off: for one epoch on {@code delta(eps)} (T = 10^4, σ = 0.7: δ(7) in [1.231e-27, 1.231e-27]), and for
 * any number on one epoch's survival function and curve before composition ({@link ProfileEnvelope}; T = 10^4,
 * σ = 0.7, four epochs, 1e-8: 0.32%, was 3.1%).
 */
final class AllocationPld {
    static final String UPPER = "allocation-pld-upper";
    static final String LOWER = "allocation-pld-lower";
    /**
     * Spacing of the loss grid the rungs are merged and composed on (1e-4 until 2026-11-30: T = 10^4, σ = 1, one epoch,
     * 1e-4: [0.02693, 0.02719], 0.95% wide, was 1.1%; T = 1000, σ = 1, 1e-3: 0.80%, was 0.9%; as fast).
     */
    static final double LOSS_GRID = 5e-5;
    /** Mass of {@code P} allowed to escape the top rung. */
    static final double TOP_ESCAPE = 1e-14;
    /** Smallest ratio of consecutive clamps. */
    static final double RATIO = 4;
    /** Relative resolution in S sought on each rung's range. */
    static final double RESOLUTION = 0.004;
    static final int MAX_RUNGS = 12;
    static final int MIN_LATTICE = 1 << 20;
    static final int MAX_LATTICE = 1 << 22;
    static final int MAX_STEPS = 10_000;
    /** Largest {@code tau^2/2 + 8 tau} (log of the largest lattice value, against overflow). */
    static final double MAX_LOG_SCALE = 60;
    /**
     * Smallest sigma the bracket is offered for: {@code tau^2/2 + 8 tau <= }{@value #MAX_LOG_SCALE} with {@code tau =
     * 1/sigma}, i.e. {@code sigma >= 1/(sqrt(184) - 8)} (about 0.1797), rounded up by 1e-12.
     */
    static final double SMALLEST_SIGMA = 1 / (Math.sqrt(64 + 2 * MAX_LOG_SCALE) - 8) * (1 + 1e-12);
    /**
     * The δ below which the upper end is refined by tilted lattices ({@link #refine}): above it the plain lattice's
     * round-off floor is negligible (T = 1000, σ = 0.5: 4.112 against 4.110 refined at δ = 1e-6, 6.514 against 5.850 at
     * 1e-8), and the refinement costs as much again as the plain bracket.
     */
    static final double REFINE_BELOW = 1e-7;
    /** Where the bottom rung's tilt towards the upper tail aims, as a fraction of its clamp. */
    static final double BOTTOM_TILT = 0.75;
    /** Alias mass above which a rung is not used for a lower end. */
    static final double ALIAS_LIMIT = 1e-30;
    /**
     * From this many steps on, the rounded-up lattice is not computed: the offsets' read of the rounded-down one moves
     * each sum less than its {@code T h} (at T = 100, 94 points against 100), and it took half the bracket's time.
     */
    static final int OFFSET_READ_ALONE_FROM = 100;
    /**
     * From this many steps on the bottom rung's lattice is four times finer ({@link #bottomLatticeFor}); from 1000 only
     * over several epochs (T = 1000, σ = 1, four epochs, 1e-4: 1.1% wide on 2^20 points, 0.32% on 2^22), since at one
     * epoch it took a call from 2.8 s to 7.5 s for [0.06764, 0.06801] against [0.06752, 0.06813] at δ = 1e-3.
     */
    static final int FINE_BOTTOM_FROM = 5000;

    private final int steps;
    private final int epochs;
    private final double sigma;
    private final double tau;
    private final double logMean;
    private final int lattice;
    private final double[] clamps;
    /** The max test on the same pair: a proven lower bound on the exact curve, the bracket's lower end where higher. */
    private final AllocationMaxTestBound maxTest;
    /** Reads the lattices into survival functions of the loss. */
    private final LossSurvivalReader reader;
    private Result result;
    private PrivacyBound refined;
    /** The lower end refined by the same tilted lattices (from {@value #OFFSET_READ_ALONE_FROM} steps on), or null. */
    private PrivacyBound refinedLower;
    /** The refined upper end's add direction (survival function of -L under Q from grid index {@code addStart}). */
    private double[] refinedAdd;
    /** The refined lower ends' merged reads, remove and add direction (one epoch's curve: {@link Lazy#delta}). */
    private SurvivalMerge.Read[] refinedLowerReads;
    private long refinedAddStart;
    private AllocationTailBound tail;
    /**
     * The closed-form deep-tail split: for one epoch its lower end refines the lower end below δ 1e-7, and for any
     * number its bound on one epoch's survival function refines the upper end's before composition ({@link #refine}).
     */
    private final AllocationDeepTail deepTail;
    private DoubleUnaryOperator[] wholeSum;
    private ConvexOrderBracket convex;

    /** The plain bracket, and both ends' merged reads (both directions) that the refinement starts from. */
    private record Result(PrivacyBound upper, PrivacyBound lower, SurvivalMerge.Read removeUpper,
            SurvivalMerge.Read addUpper, SurvivalMerge.Read removeLower, SurvivalMerge.Read addLower, long iLo, long iHi,
            double[][] latticeRemove) {
    }

    AllocationPld(BatchingParameters b) {
        String why = unsupported(b);
        if (why != null) {
            throw new IllegalArgumentException(why);
        }
        this.steps = b.steps();
        this.epochs = b.epochs();
        this.sigma = b.sigma();
        this.tau = 1 / sigma;
        this.logMean = Math.log(steps) + tau * tau / 2;
        this.lattice = latticeFor(steps);
        this.maxTest = new AllocationMaxTestBound(b);
        this.reader = new LossSurvivalReader(steps, tau, logMean);
        // the rest's excess and shortfall bounded through the plain upper end's two directions (one epoch's law of S)
        this.deepTail = new AllocationDeepTail(steps, sigma, new RestSpread.WholeSum(
                eps -> wholeSum(0).applyAsDouble(eps), eps -> wholeSum(1).applyAsDouble(eps),
                eps -> wholeSum(2).applyAsDouble(eps), eps -> wholeSum(3).applyAsDouble(eps)));
        double bottom = 2 * Math.exp(logMean);
        double zFirst = Normal.inverseSurvival(TOP_ESCAPE / 2);
        double zOthers = Normal.inverseSurvival(TOP_ESCAPE / (2.0 * steps));
        double bigTerm = Math.exp(Math.max(tau * tau + tau * zFirst, tau * zOthers));
        double top = Math.max(bottom, 2 * (Math.exp(logMean) + bigTerm));
        // Rungs as far apart as the resolution allows: a rung is used down to 1/ratio of its clamp, where it moves S by
        // at most T ratio / n of S.
        double ratio = Math.max(RATIO, RESOLUTION * (lattice / 2 - 1) / steps);
        int rungs = 1 + (int) Math.ceil(Math.log(top / bottom) / Math.log(ratio) - 1e-9);
        if (rungs > MAX_RUNGS) {
            rungs = MAX_RUNGS;
            ratio = Math.pow(top / bottom, 1.0 / (rungs - 1));
        }
        this.clamps = new double[rungs];
        for (int i = 0; i < rungs; i++) {
            clamps[i] = bottom * Math.pow(ratio, i);
        }
    }

    /** Why the bracket is not offered for {@code b}, or null when it is. */
    static String unsupported(BatchingParameters b) {
        if (b.k() != 1) {
            return "k = " + b.k() + ": the likelihood ratio of k > 1 is not a function of one sum";
        }
        return unsupportedLattice(b);
    }

    /** Why the lattice of the sum S cannot be computed for {@code b}'s T and sigma, or null when it can. */
    static String unsupportedLattice(BatchingParameters b) {
        double tau = 1 / b.sigma();
        if (tau * tau / 2 + 8 * tau > MAX_LOG_SCALE) {
            return "sigma = " + b.sigma() + " is below 0.18: the lognormal terms span too many orders of magnitude for the lattice";
        }
        if (b.steps() > MAX_STEPS) {
            return "T = " + b.steps() + " steps: above " + MAX_STEPS + " the lattice cannot resolve the sum";
        }
        return null;
    }

    /**
     * Lattice length: about {@code 1000 T} points per rung ({@code 4 T / n <= 0.4%}), a power of two, and never fewer
     * than 2^20: the other direction ({@code -L} under {@code Q}) reads the lower tail {@code S ~ T e^{tau^2/2 - eps}}
     * off the bottom rung, at relative resolution {@code 2 T e^eps / n}, which for few steps needs the fine lattice.
     */
    static int latticeFor(int steps) {
        long want = 2L * 1000 * steps;
        int m = MIN_LATTICE;
        while (m < want && m < MAX_LATTICE) {
            m <<= 1;
        }
        return m;
    }

    /**
     * The bottom rung's lattice length: for many steps four times the others' (at most 2^24; at 2^25 a call needs
     * 3.3 GB). The bottom rung alone carries the bulk of S, where the curve at larger δ is decided, and the offsets'
     * band there shrinks with its spacing (T = 10^4, σ = 1, δ = 1e-4: 3.5% of ε on 2^22 points, under 1% on 2^24).
     */
    static int bottomLatticeFor(int steps, int epochs, int lattice) {
        return steps >= FINE_BOTTOM_FROM || epochs > 1 && steps >= 1000 ? Math.min(1 << 24, 4 * lattice) : lattice;
    }

    /** The upper end: a certified upper bound on balls-and-bins' curve. */
    PrivacyBound upper() {
        return new Lazy(UPPER, BoundKind.UPPER_BOUND, true);
    }

    /** The lower end: a proven lower bound on the exact curve, for any number of epochs. */
    PrivacyBound lower() {
        return new Lazy(LOWER, BoundKind.LOWER_BOUND, false);
    }

    private String source(boolean upper) {
        int bottom = bottomLatticeFor(steps, epochs, lattice);
        String reading = steps >= OFFSET_READ_ALONE_FROM
                ? "every term rounded down and the sum read through the rounding offsets' concentration (Hoeffding "
                        + "or Bernstein, " + LossSurvivalReader.OFFSET_TAIL + " a side)" : "every term rounded "
                        + (upper ? "up" : "down") + ", and also down with the sum read through the rounding offsets' "
                        + "concentration (Hoeffding or Bernstein, " + LossSurvivalReader.OFFSET_TAIL + " a side)";
        reading += upper ? ", merged, each grid cell's mass connected to both its points (SurvivalMerge)," : epochs == 1
                ? ", merged, each grid cell's mass at its weighted mean loss (SurvivalMerge)," : ", merged,";
        return String.format(Locale.ROOT, "Feldman & Shenfeld (arXiv 2602.17284): balls-and-bins' exact privacy-loss "
                + "distribution through the law of the sum S of T = %d exponentiated per-step losses; computed here on "
                + "%d lattice rungs of 2^%d points%s with %s and composed over %d epoch(s) by "
                + "the PLD accountant: %s (resolution about %.2g in the likelihood ratio; %s)", steps, clamps.length,
                Integer.numberOfTrailingZeros(lattice) - 1, bottom == lattice ? ""
                        : " (the bottom one, which carries the bulk, of 2^" + (Integer.numberOfTrailingZeros(bottom) - 1)
                        + ")", reading, epochs, upper ? "the UPPER end of the bracket, a certified upper bound"
                        : "the LOWER end of the bracket, a proven lower bound",
                resolution(), upper ? "below delta " + REFINE_BELOW + " refined by lattices tilted towards the tails, "
                        + "which lowers the round-off floor of about 1e-10" + (epochs == 1 ? ", and by splitting off "
                        + "the one large term that carries the tail (the canary's or another step's, in closed form) "
                        + "from the clamped rest (a lattice): AllocationTailBound, or against the rest's mean and "
                        + "spread in closed form, to second order: AllocationDeepTail" : ", and by the same split in "
                        + "closed form, to second order, as a bound on each epoch's curve before composition: "
                        + "AllocationDeepTail, ProfileEnvelope")
                        : (steps >= OFFSET_READ_ALONE_FROM ? "below delta " + REFINE_BELOW + " refined by the same "
                        + "tilted lattices as the upper end" : "below about 1e-10 the lattice's round-off allowance "
                        + "dominates, and the lower end loosens, as the bracket line of bound shows")
                        + "; deep in the tail, one large term against the rest's mean in closed form: "
                        + "AllocationDeepTail" + (epochs == 1 ? ", to second order in the rest's spread"
                        : " (on each epoch's curve, to second order, before composition: ProfileEnvelope)"))
                + (convex().offered() ? "; also through the sum's lattices in convex order, with no rounding band "
                        + (upper ? "(each term split keeping its mean" : "(each term at its cell's mean, rounded down")
                        + (epochs == 1 ? "" : ", composed") + ": ConvexOrderBracket)" : "");
    }

    /** The largest relative move of S on the range where a rung is used: {@code T ratio / n}. */
    double resolution() {
        double ratio = clamps.length > 1 ? clamps[1] / clamps[0] : RATIO;
        return steps * ratio / (lattice / 2 - 1);
    }

    /**
     * One epoch's curves of the whole sum from the plain lattices, read many times by the deep tail: remove and add
     * direction from above (0, 1), from below (2, 3).
     */
    private synchronized DoubleUnaryOperator wholeSum(int which) {
        if (wholeSum == null) {
            Result r = result();
            wholeSum = new DoubleUnaryOperator[] {DirectionCurve.upperReader(r.removeUpper().survival(), r.iLo()),
                DirectionCurve.upperReader(r.addUpper().survival(), -r.iHi()), DirectionCurve.lowerReader(r.removeLower().survival(), r.iLo()),
                r.addLower() == null ? eps -> 0 : DirectionCurve.lowerReader(r.addLower().survival(), -r.iHi())};
        }
        return wholeSum[which];
    }

    private synchronized Result result() {
        if (result == null) {
            result = compute();
        }
        return result;
    }

    private synchronized PrivacyBound refined() {
        if (refined == null) {
            refined = refine(result());
        }
        return refined;
    }

    /**
     * The upper end refined by tilted lattices ({@link LognormalSumLattice#compute(int, int, double, double, int,
     * boolean, long)}): each rung's law of S computed again under the exponential tilt towards P's upper tail (aimed at
     * the bottom of the range the rung serves), and the bottom rung's under the tilt towards Q's lower tail (which alone
     * serves the add direction's large losses); their survival functions, merged by the pointwise minimum with the plain
     * ones (every one of them an upper end), are composed like the plain upper end. Where a tilted mass overflows on
     * the original scale (the bulk, far from the tail it aims at) its survival function is infinite and the plain one
     * is kept. From {@value #OFFSET_READ_ALONE_FROM} steps on the tilted lattices are rounded down and read through
     * the offsets' concentration for both ends: the lower ends (a tilted mass's lower bound rounded down, an overflow
     * dropped) merged by the pointwise maximum with the plain ones, composed optimistically: {@link #refinedLower}.
     */
    private PrivacyBound refine(Result plain) {
        SurvivalMerge removeUpper = new SurvivalMerge(true);
        SurvivalMerge addUpper = new SurvivalMerge(true);
        SurvivalMerge removeLower = new SurvivalMerge(false);
        SurvivalMerge addLower = new SurvivalMerge(false);
        removeUpper.add(plain.removeUpper().copy());
        addUpper.add(plain.addUpper().copy());
        removeLower.add(plain.removeLower().copy());
        if (plain.addLower() != null) {
            addLower.add(plain.addLower().copy());
        }
        long iLo = plain.iLo();
        long iHi = plain.iHi();
        boolean offsetsAlone = steps >= OFFSET_READ_ALONE_FROM;
        double[] logIndex = LossSurvivalReader.logIndex(lattice);
        for (int r = 0; r < clamps.length; r++) {
            double clamp = clamps[r];
            Interruption.check("refining the balls-and-bins PLD bracket at small delta");
            // many steps: the tilted lattice rounded down, read through the offsets (both ends); few: rounded up
            int m = r == 0 && offsetsAlone ? bottomLatticeFor(steps, epochs, lattice) : lattice;
            LognormalSumLattice.Law law = LognormalSumLattice.compute(steps, 1, tau, clamp, m, !offsetsAlone,
                    upperTiltTarget(r, m));
            if (offsetsAlone) {
                reader.throughOffsets(law, removeUpper, removeLower, null, null, iLo, iHi);
            } else {
                removeUpper.add(reader.plain(law, logIndex, true, true, iLo, iHi));
            }
            law = null;
            if (r == 0) {
                LognormalSumLattice.Law down = LognormalSumLattice.compute(steps, 1, tau, clamp, lattice, false,
                        lowerTiltTarget(clamp));
                addUpper.add(reader.plain(down, logIndex, false, true, -iHi, -iLo));
                if (offsetsAlone) {
                    reader.throughOffsets(down, null, null, addUpper, addLower, iLo, iHi);
                }
            }
        }
        // the deep-tail split's bound on one epoch's survival function, where tighter than the lattices'
        removeUpper.add(deepTail.survivalUpper(removeUpper.survival(), iLo));
        removeLower.add(deepTail.survivalLower(removeLower.survival(), iLo));
        refinedAdd = addUpper.curveSurvival();
        refinedLowerReads = new SurvivalMerge.Read[] {removeLower.read(), addLower.read()};
        refinedAddStart = -iHi;
        String what = String.format(Locale.ROOT, "balls-and-bins, T = %d, sigma = %s", steps, sigma);
        if (offsetsAlone) {
            DpEvent lowerEvent = new DpEvent.SelfComposed(new DpEvent.DiscreteLoss(what + " (lower end, refined)",
                    epochs == 1 ? removeLower.losses(iLo) : ProfileEnvelope.lower(removeLower.curveSurvival(), iLo,
                    LOSS_GRID, deepTail::removeLower), addLower.losses(-iHi)), epochs);
            refinedLower = PldAccountant.optimisticDiscrete(LOSS_GRID).account(LOWER, lowerEvent, Adjacency.ADD_REMOVE);
        }
        DpEvent event = new DpEvent.SelfComposed(new DpEvent.DiscreteLoss(what + " (upper end, refined)", epochs == 1
                ? removeUpper.losses(iLo) : ProfileEnvelope.upper(removeUpper.curveSurvival(), iLo, LOSS_GRID,
                deepTail::removeUpper), addUpper.losses(-iHi)), epochs);
        return new PldAccountant(LOSS_GRID).account(UPPER, event, Adjacency.ADD_REMOVE);
    }

    /**
     * One epoch's remove-direction survival functions from the lattices alone (before the deep-tail split is merged
     * in), {lower end, upper end}, on the loss grid from index {@link #gridStart()}: for the tests that check the
     * split against them.
     */
    double[][] plainRemoveSurvival() {
        return result().latticeRemove();
    }

    /** The loss-grid index of the survival functions' first entry. */
    long gridStart() {
        return result().iLo();
    }

    /** The bracket in convex order (ConvexOrderBracket), made on first use. */
    private synchronized ConvexOrderBracket convex() {
        if (convex == null) {
            convex = new ConvexOrderBracket(steps, epochs, sigma);
        }
        return convex;
    }

    /** The refined lower end (null for fewer than {@value #OFFSET_READ_ALONE_FROM} steps). */
    private synchronized PrivacyBound refinedLower() {
        refined();
        return refinedLower;
    }

    /**
     * One epoch's upper end by the single-term split ({@link AllocationTailBound}), its add direction bounded also by
     * the refined lattice's; null for several epochs (the split bounds one epoch's curve, not its loss distribution).
     */
    private synchronized AllocationTailBound tail() {
        if (epochs != 1) {
            return null;
        }
        if (tail == null) {
            refined();
            double[] add = refinedAdd;
            long start = refinedAddStart;
            tail = new AllocationTailBound(steps, sigma, eps -> DirectionCurve.upper(add, start, eps), deepTail);
        }
        return tail;
    }

    private Result compute() {
        SurvivalMerge removeUpper = new SurvivalMerge(true);
        SurvivalMerge removeLower = new SurvivalMerge(false);
        SurvivalMerge addUpper = new SurvivalMerge(true);
        SurvivalMerge addLower = new SurvivalMerge(false);
        // The loss range of every rung: [log(h_0) - logMean, log(m h_top) - logMean] for L; negated for -L.
        int bottomLattice = bottomLatticeFor(steps, epochs, lattice);
        double hBottom = clamps[0] / (bottomLattice / 2 - 1);
        double hTop = clamps[clamps.length - 1] / (lattice / 2 - 1);
        double lossLo = Math.log(hBottom) - logMean;
        // (the offset read of a point j, log(j h + r) with r <= T h, lies up to log1p(T / m) above the plain one)
        double lossHi = Math.log(lattice * hTop) - logMean + Math.log1p((double) steps / lattice);
        long iLo = (long) Math.floor(lossLo / LOSS_GRID) - 1;
        long iHi = (long) Math.ceil(lossHi / LOSS_GRID) + 1;
        double[] logIndex = LossSurvivalReader.logIndex(lattice);
        for (int r = 0; r < clamps.length; r++) {
            double clamp = clamps[r];
            int m = r == 0 ? bottomLattice : lattice;
            Interruption.check("computing the balls-and-bins PLD bracket");
            if (steps < OFFSET_READ_ALONE_FROM) {
                LognormalSumLattice.Law up = LognormalSumLattice.compute(steps, tau, clamp, lattice, true);
                removeUpper.add(reader.plain(up, logIndex, true, true, iLo, iHi));
                if (up.aliasQ() <= ALIAS_LIMIT) {
                    addLower.add(reader.plain(up, logIndex, false, false, -iHi, -iLo));
                }
                up = null;
            }
            LognormalSumLattice.Law down = LognormalSumLattice.compute(steps, tau, clamp, m, false);
            if (m == lattice) {
                removeLower.add(reader.plain(down, logIndex, true, false, iLo, iHi));
                addUpper.add(reader.plain(down, logIndex, false, true, -iHi, -iLo));
            }
            // the same lattice read through the rounding offsets' concentration: all four ends
            reader.throughOffsets(down, removeUpper, removeLower, addUpper, addLower, iLo, iHi);
        }
        // the deep-tail split's bounds on one epoch's survival function, where tighter than the lattices' (its rest's
        // excess through this lattice's own remove direction: a copy, taken before the split is merged in)
        double[] lattice = removeUpper.survival().clone();
        double[] latticeLower = removeLower.survival().clone();
        long start = iLo;
        AllocationDeepTail split = new AllocationDeepTail(steps, sigma, eps -> DirectionCurve.upper(lattice, start, eps));
        removeUpper.add(split.survivalUpper(removeUpper.survival(), iLo));
        removeLower.add(split.survivalLower(removeLower.survival(), iLo));
        String what = String.format(Locale.ROOT, "balls-and-bins, T = %d, sigma = %s", steps, sigma);
        DpEvent upperEvent = new DpEvent.SelfComposed(new DpEvent.DiscreteLoss(what + " (upper end)",
                removeUpper.losses(iLo), addUpper.losses(-iHi)), epochs);
        DpEvent lowerEvent = new DpEvent.SelfComposed(new DpEvent.DiscreteLoss(what + " (lower end)",
                removeLower.losses(iLo), addLower.losses(-iHi)), epochs);
        PrivacyBound up = new PldAccountant(LOSS_GRID).account(UPPER, upperEvent, Adjacency.ADD_REMOVE);
        PrivacyBound low = PldAccountant.optimisticDiscrete(LOSS_GRID).account(LOWER, lowerEvent, Adjacency.ADD_REMOVE);
        return new Result(up, low, removeUpper.read(), addUpper.read(), removeLower.read(), addLower.read(), iLo,
                iHi, new double[][] {latticeLower, lattice});
    }

    /**
     * Where rung {@code r}'s tilt towards P's upper tail aims (a lattice index): the bottom of the range the rung
     * serves (the clamp below it), and on the bottom rung {@value #BOTTOM_TILT} of its clamp (1.5 times the mean sum).
     */
    private long upperTiltTarget(int r, int m) {
        int n = m / 2 - 1;
        double fraction = r == 0 ? BOTTOM_TILT : clamps[r - 1] / clamps[r];
        return (long) Math.floor(n * fraction);
    }

    /** Where the bottom rung's tilt towards Q's lower tail aims: the sum at {@code e^{-1}} of its mean, as an index. */
    private long lowerTiltTarget(double clamp) {
        int n = lattice / 2 - 1;
        return (long) Math.floor(n * Math.exp(logMean - 1) / clamp);
    }

    /** A bound computed on first use (the bracket takes seconds; listing a mechanism must not). */
    private final class Lazy implements PrivacyBound {
        private final String name;
        private final BoundKind kind;
        private final boolean upper;

        Lazy(String name, BoundKind kind, boolean upper) {
            this.name = name;
            this.kind = kind;
            this.upper = upper;
        }

        @Override
        public String name() {
            return name;
        }

        @Override
        public String source() {
            return AllocationPld.this.source(upper);
        }

        @Override
        public BoundKind kind() {
            return kind;
        }

        private PrivacyBound values() {
            Result r = result();
            return upper ? r.upper() : r.lower();
        }

        @Override
        public double delta(double epsilon) {
            double d = values().delta(epsilon);
            // several epochs composed in convex order: those ends are the tighter, the refinement is not made
            if (upper && d < REFINE_BELOW && !(epochs > 1 && convex().offered())) {
                d = Math.min(d, refined().delta(epsilon));
                AllocationTailBound split = tail();
                d = split == null ? d : split.delta(epsilon, d);
            }
            if (upper) {
                return Math.min(d, convex().upperDelta(epsilon));
            }
            if (epochs == 1) { // each cell at its weighted mean loss (SurvivalMerge), not rounded down
                Result r = result();
                d = Math.max(d, SurvivalMerge.lowerDelta(r.removeLower(), r.iLo(), r.addLower(), -r.iHi(), epsilon));
            }
            d = Math.max(d, convex().lowerDelta(epsilon));
            if (d < REFINE_BELOW && !(epochs > 1 && convex().offered())) {
                PrivacyBound refinedLow = refinedLower();
                if (refinedLow != null) {
                    d = Math.max(d, refinedLow.delta(epsilon));
                }
                if (epochs == 1) {
                    d = Math.max(d, deepTail.removeLower(epsilon));
                    SurvivalMerge.Read[] r = refinedLowerReads;
                    if (r != null) {
                        long iLo = result().iLo();
                        d = Math.max(d, SurvivalMerge.lowerDelta(r[0], iLo, r[1], -result().iHi(), epsilon));
                    }
                }
            }
            return Math.max(0.0, SafeRounding.down(d));
        }

        /**
         * For the upper end, the lower end of the bracket (the exact curve lies between the two), or the max test's
         * proven lower bound on the same curve where that is higher (below about 1e-8 it is); for the lower end,
         * itself.
         */
        @Override
        public double deltaLowerEnd(double epsilon) {
            if (!upper) {
                return delta(epsilon);
            }
            return Math.max(lower().delta(epsilon), maxTest.delta(epsilon));
        }

        @Override
        public double[] deltas(double[] epsilons) {
            // the curve's points (plots, summaries) from the plain ends: refining them costs as much again, and a
            // point below REFINE_BELOW is then only looser than delta(epsilon) gives, never across the curve
            double[] out = values().deltas(epsilons);
            if (!upper) {
                for (int i = 0; i < out.length; i++) {
                    out[i] = Math.max(0.0, SafeRounding.down(out[i]));
                }
            }
            return out;
        }

        @Override
        public double epsilon(double delta) {
            if (upper) {
                double e = values().epsilon(delta);
                if (delta < REFINE_BELOW && !(epochs > 1 && convex().offered())) {
                    e = Math.min(e, refined().epsilon(delta));
                    AllocationTailBound split = tail();
                    if (split != null && Double.isFinite(e)) {
                        e = Math.min(e, split.epsilon(delta, e));
                    }
                }
                return Double.isFinite(e) ? convex().upperEpsilon(delta, e) : e;
            }
            // the lower end of the root bracket of its (rounded-down) profile, the convex order's tilts only near it
            double e = convex().withoutTilts(() -> PrivacyBound.epsilonFromLowerProfile(this, delta));
            return convex().lowerEpsilon(delta, e);
        }
    }
}

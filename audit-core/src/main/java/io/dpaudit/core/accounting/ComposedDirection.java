package io.dpaudit.core.accounting;

import static io.dpaudit.core.accounting.PldAccountant.OUTPUT_TAIL;
import static io.dpaudit.core.accounting.PldAccountant.TAIL;

import io.dpaudit.core.bounds.AccountingLimitException;
import java.util.List;

/**
 * One direction's composed PLD, with tilted recompositions made on demand (and cached) for queries whose answer
 * would otherwise be dominated by the round-off allowance. Each answer is the smallest of valid upper bounds.
 */
final class ComposedDirection {
    private static final double SIGNIFICANT_SHARE = 1e-3;
    /**
     * Below this δ tilting is always tried: an untilted composition can carry a flat, positive round-off floor
     * (around 1e-15 per grid point, measured) that its negative entries do not reveal. It only ever inflates δ,
     * so it is safe, but tilted compositions remove it where it would dominate.
     */
    private static final double SMALL_DELTA = 1e-6;
    private final List<PmfComposition.Term> terms;
    /** The untilted composition. */
    final PrivacyLossPmf plain;
    /**
     * The most recently used tilted compositions, at most {@link #CACHED_TILTS}: each can hold millions of grid
     * points, and a curve's queries walk the ladder rung by rung, so older rungs are recomputed (to the same
     * numbers: a composition is deterministic) rather than kept. Unbounded, an exhaustive search over 30 check-in
     * datasets at eps0 = 20 over 10^5 rounds ran out of a 6 GB heap.
     */
    private final java.util.Map<Double, PrivacyLossPmf> tilts = new java.util.LinkedHashMap<>(8, 0.75f, true) {
        @Override
        protected boolean removeEldestEntry(java.util.Map.Entry<Double, PrivacyLossPmf> eldest) {
            return size() > CACHED_TILTS;
        }
    };
    private static final int CACHED_TILTS = 4;

    private final boolean composed;
    /** How far the discretised composition may lie above the exact one in ε: {@code T h} ({@link #lowerEnd}). */
    private final double excess;
    /** {@code T}, the factor occurrences composed. */
    private final double occurrences;
    /** The grid spacing {@code h}. */
    private final double spacing;
    /** The largest mean of the sum of the T discretisation moves ({@link #lowerEnd}). */
    private final double meanShift;

    ComposedDirection(List<PmfComposition.Term> terms, long[] window, double meanShift) {
        this.terms = terms;
        double count = 0;
        for (PmfComposition.Term t : terms) {
            count += t.count();
        }
        this.occurrences = count;
        this.spacing = terms.get(0).pmf().h();
        this.excess = count * spacing;
        this.meanShift = meanShift;
        PrivacyLossPmf composed;
        try {
            composed = PmfComposition.compose(terms, TAIL, 0.0, window);
        } catch (IllegalArgumentException e) {
            // extreme events (a loss of 1e600 per round, say) discretise onto different grids: no finite
            // answer the accountant can certify, refused in one line rather than an internal error
            throw new AccountingLimitException("accountant", "pld", "this event's privacy loss leaves the "
                    + "accountant's numerical range (the noise is too small for its grid; " + e.getMessage()
                    + "); no finite epsilon can be certified");
        }
        this.plain = composed;
        // A single round is the connect-the-dots PLD itself, free of FFT round-off: nothing to tilt.
        this.composed = !(terms.size() == 1 && terms.get(0).count() == 1);
    }

    /**
     * A lower bound on the exact δ(ε) of the composition this direction discretises, the larger of two.
     *
     * <p><b>Worst case.</b> Each of the {@code T} factor occurrences is a dominating pair on the grid whose
     * profile is at most the factor's at {@code eps - h}: connect-the-dots matches the factor's profile at the grid
     * points and is affine in {@code e^eps} between them, so it lies below the pair with every loss rounded up to
     * the grid, whose losses exceed the true ones by at most {@code h}. Composition keeps that order, and the
     * composition of rounded-up losses is the true one shifted by at most {@code T h}. So the exact δ at ε is at
     * least the discretised one at {@code eps + T h}.
     *
     * <p><b>Concentration.</b> The discretisation is a coupling: connect-the-dots moves a loss {@code l_i + s} to
     * {@code l_i} or {@code l_i + h} at random (keeping both worlds' masses), a rounded-up discrete loss moves up
     * by less than {@code h}. Given the true losses the T moves are independent, each in an interval of length
     * {@code h} with mean at most {@code m} ({@link PldAccountant#connectTheDotsMeanShift}, or {@code h} for a
     * discrete factor), so by Hoeffding's inequality their sum exceeds {@code a = sum m + h sqrt(T log(1/eta) / 2)}
     * with probability at most {@code eta}. Off that event every composed loss is at most {@code a} above the true
     * one, and
     * {@code (1 - e^{eps - L})_+} grows with L: the exact δ at ε is at least the discretised one at
     * {@code eps + a}, less {@code eta}. With {@code eta} a thousandth of the curve's own δ(ε)
     * ({@link #ETA_SHARES}) the better of the two is kept: at T = 10^4 and δ = 1e-18 the
     * shift is about 490 h where the worst case's is 10^4 h.
     *
     * <p>Both subtract what the computation adds on top of the discretised masses: the mass at {@code +inf} (grid
     * ends and window truncation), {@link PldAccountant#TAIL} for the mass the window's ends alias into it (times
     * {@code e^{S - theta x}} on a tilted composition, where masses are recovered as the tilted ones times
     * {@code e^{S - theta l}}), and twice the round-off allowance (which bounds the FFT's error and is added to every
     * entry). Where the plain composition's round-off would swamp the answer (δ below 1e-6) the tilted composition
     * that {@link #delta} uses answers too, and the larger lower end is kept. Mass the grid moves up from below its
     * range is the coupling's failure: under 1e-30 of a Gaussian factor's output per occurrence, subtracted
     * ({@code T} 1e-30); a profiled factor's below {@code -maxLoss} is neglected.
     */
    double lowerEnd(double epsilon) {
        // every candidate below is a lower bound on delta at epsilon or beyond, so at most the upper end: where that is
        // within what the end takes off for the output's tails, the end is 0 (no tilted composition is built for it;
        // far in the tail, where the discretised curve has only its floor left, that took 150 ms a query)
        double upper = delta(epsilon);
        if (upper <= occurrences * OUTPUT_TAIL) {
            return 0.0;
        }
        PrivacyLossPmf tilt = null;
        if (composed) {
            double d = plain.delta(epsilon);
            if (d < SMALL_DELTA || plain.roundOffShare(epsilon) > SIGNIFICANT_SHARE * d) {
                tilt = tiltFor(epsilon);
            }
        }
        double best = lowerAt(epsilon + excess, tilt);
        for (double share : ETA_SHARES) {
            double eta = share * upper;
            if (!(eta > 0)) {
                break;
            }
            double shift = meanShift + spacing * Math.sqrt(occurrences * Math.log(1 / eta) / 2);
            if (shift < excess) {
                best = Math.max(best, lowerAt(epsilon + shift, tilt) - eta);
            }
        }
        return Math.max(0.0, best - occurrences * OUTPUT_TAIL);
    }

    /**
     * A proven lower bound on the δ(ε) of the composition of the terms exactly as given (an optimistic
     * discretisation's losses, already rounded down: no shift for the grid), the larger of the plain and, where its
     * allowances would cost more than a thousandth of the answer, the tilted composition's: each less what the
     * computation may have added ({@link #lowerAt}: the mass at {@code +inf}, the mass aliased into the window, twice
     * the round-off allowance). A single occurrence is the discretised law itself, free of round-off.
     */
    double certifiedBelow(double epsilon) {
        if (!composed) {
            return plain.delta(epsilon);
        }
        PrivacyLossPmf tilt = null;
        double d = plain.delta(epsilon);
        if (d < SMALL_DELTA || plain.roundOffShare(epsilon) > SIGNIFICANT_SHARE * d) {
            tilt = tiltFor(epsilon);
        }
        return Math.max(0.0, lowerAt(epsilon, tilt));
    }

    /**
     * The failure probabilities {@code eta} the concentration lower end tries, as shares of the curve's own δ(ε): a
     * lower end cannot exceed δ, so an {@code eta} well below it costs little, and a smaller one only shifts further
     * (measured at T = 10^4, δ = 1e-18: shares of 1e-2 and 1e-4 besides 1e-3 moved the ε bracket by 1e-5 of 0.067,
     * each at the cost of two more scans of the composition).
     */
    private static final double[] ETA_SHARES = {1e-3};

    /** The discretised δ at {@code x} less what the computation may have added, plain and tilted; the larger. */
    private double lowerAt(double x, PrivacyLossPmf tilt) {
        double plainDelta = plain.delta(x);
        double plainRoundOff = plain.roundOffShare(x);
        double low = plainDelta - plain.infinityMass() - TAIL - 2 * plainRoundOff;
        // the tilted composition only where the plain one's allowances cost more than a thousandth of its answer
        if (tilt != null && x >= tilt.validFrom()
                && !(plain.infinityMass() + TAIL + 2 * plainRoundOff <= SIGNIFICANT_SHARE * plainDelta)) {
            double aliased = TAIL * Math.exp(Math.min(700, tilt.logScale() - tilt.theta() * x));
            low = Math.max(low, tilt.delta(x) - tilt.infinityMass() - aliased - 2 * tilt.roundOffShare(x));
        }
        return low;
    }

    double delta(double epsilon) {
        double d = plain.delta(epsilon);
        if (composed && d < SMALL_DELTA || plain.roundOffShare(epsilon) > SIGNIFICANT_SHARE * d) {
            PrivacyLossPmf t = tiltFor(epsilon);
            if (t != null && epsilon >= t.validFrom()) {
                d = Math.min(d, t.delta(epsilon));
            }
        }
        return d;
    }

    /** The smallest valid ε found; {@code +inf} when neither the plain nor any tilted PLD can answer. */
    double epsilon(double delta) {
        double best = plain.epsilon(delta);
        if (!composed) {
            return best;
        }
        boolean small = delta < SMALL_DELTA;
        if (!small && Double.isFinite(best) && plain.roundOffShare(best) <= SIGNIFICANT_SHARE * delta) {
            return best;
        }
        // Start the tilt at the plain answer, or, where the plain PLD cannot answer, at its answer for the
        // smallest δ it can (a lower ε than the one sought).
        double start = Double.isFinite(best) ? best
                : plain.epsilon(Math.min(0.5, 2 * plain.infinityMass() + delta));
        if (!Double.isFinite(start)) {
            return best;
        }
        int k = ladderIndex(start);
        java.util.Set<Integer> tried = new java.util.HashSet<>();
        for (int tries = 0; tries < 16 && k > Integer.MIN_VALUE && tried.add(k); tries++) {
            PrivacyLossPmf t = tiltAt(k);
            double a = t.epsilon(delta);
            if (Double.isFinite(a)) {
                best = Math.min(best, a);
                k = ladderIndex(a); // re-centre on the answer; stops when it is already centred
            } else if (t.infinityMass() >= delta) {
                k++;                // the answer lies above this tilt's window
            } else {
                k--;                // the answer lies below this tilt's window
            }
        }
        return best;
    }

    /** Ladder rungs: tilts {@code 2^{k/2}} for {@code k} in {@code [LADDER_MIN, LADDER_MAX]} (1e-6 to 1024). */
    private static final int LADDER_MIN = (int) Math.floor(2 * Math.log(1e-6) / Math.log(2));
    private static final int LADDER_MAX = (int) Math.floor(2 * Math.log(1024) / Math.log(2));
    /** The tilted mean at each rung (NaN until computed), and untilted; cached: a query costs a lookup. */
    private final double[] rungMeans = nans(LADDER_MAX - LADDER_MIN + 1);
    private double untiltedMean = Double.NaN;

    private static double[] nans(int n) {
        double[] a = new double[n];
        java.util.Arrays.fill(a, Double.NaN);
        return a;
    }

    private synchronized double rungMean(int k) {
        int i = k - LADDER_MIN;
        if (Double.isNaN(rungMeans[i])) {
            rungMeans[i] = PmfComposition.tiltedMean(terms, Math.pow(2, k / 2.0));
        }
        return rungMeans[i];
    }

    /**
     * {@code floor(2 log2 theta)} of the tilt whose tilted mean is {@code epsilon} (clamped to the ladder);
     * MIN_VALUE if untilted. The tilted mean increases in {@code theta}, so this is the highest rung whose mean
     * lies below {@code epsilon}, found by bisection over the cached rung means.
     */
    private int ladderIndex(double epsilon) {
        double mean;
        synchronized (this) {
            if (Double.isNaN(untiltedMean)) {
                untiltedMean = PmfComposition.tiltedMean(terms, 0);
            }
            mean = untiltedMean;
        }
        if (mean >= epsilon) {
            return Integer.MIN_VALUE;
        }
        if (rungMean(LADDER_MAX) < epsilon) {
            return LADDER_MAX;
        }
        if (!(rungMean(LADDER_MIN) < epsilon)) {
            return LADDER_MIN;
        }
        int lo = LADDER_MIN; // mean below epsilon
        int hi = LADDER_MAX; // mean at or above epsilon
        while (hi - lo > 1) {
            int mid = Math.floorDiv(lo + hi, 2);
            if (rungMean(mid) < epsilon) {
                lo = mid;
            } else {
                hi = mid;
            }
        }
        return lo;
    }

    /** The tilted composition with tilt {@code 2^{k/2}} (cached). */
    private synchronized PrivacyLossPmf tiltAt(int k) {
        double theta = Math.pow(2, k / 2.0);
        return tilts.computeIfAbsent(theta, th -> PmfComposition.compose(terms, TAIL, th));
    }

    /** The tilt for a δ(ε) query at {@code epsilon}; null if none is needed. */
    private PrivacyLossPmf tiltFor(double epsilon) {
        int k = ladderIndex(epsilon);
        return k == Integer.MIN_VALUE ? null : tiltAt(k);
    }
}

package io.dpaudit.mechanisms.batching;

import io.dpaudit.core.numerics.Interruption;
import io.dpaudit.core.numerics.Normal;
import java.util.Arrays;
import java.util.function.DoubleUnaryOperator;

/**
 * A certified upper bound on one epoch of balls-and-bins' {@code delta(eps)} at small δ, by splitting off the one
 * large term that carries the tail — where the lattice of the whole sum ({@link AllocationPld}) cannot: an exponential
 * tilt does not concentrate a lognormal sum's heavy tail, so its round-off allowance stays absolute there.
 *
 * <p><b>The pair</b> (formula sheet §14; notation of {@link LognormalSumLattice}). Under {@code Q} the {@code T} terms
 * {@code w_t = e^{x_t/s^2}} are independent, {@code log w ~ N(0, tau^2)}, {@code tau = 1/s}; under {@code P} the
 * canary's term {@code w'} has {@code log w' ~ N(tau^2, tau^2)}. The likelihood ratio is
 * {@code S / (T e^{tau^2/2})}, {@code S = w' + R}, {@code R = sum_{t >= 2} w_t}, so the remove direction's
 * {@code delta_P(eps) = E[phi(S)]} with {@code phi(s) = (1 - c/s)_+}, {@code c = T e^{tau^2/2 + eps}}: increasing in
 * every term.
 *
 * <p><b>The split.</b> Fix a level {@code a} and let {@code N} count the non-canary terms above it. On {@code N = 0},
 * {@code R = R_a = sum_{t >= 2} min(w_t, a)}; on {@code N = 1} with the large term {@code w_t}, the rest is at most
 * {@code min(w', a) + sum_{s != t} min(w_s, a)} unless the canary's term is above {@code a} too. Since {@code phi} is
 * at most 1 and increasing,
 * <pre>
 *   delta_P(eps) &lt;= E[phi(w' + B_1)]                         (B_1 = T - 1 clamped terms)
 *                 + (T - 1) E[phi(w + B_2); w &gt; a]            (B_2 = min(w', a) + T - 2 clamped terms)
 *                 + (T - 1) P(w &gt; a) P(w' &gt; a) + C(T - 1, 2) P(w &gt; a)^2.
 * </pre>
 * {@code a} is the smallest level at which the last two terms are at most {@value #SPLIT_SLACK}. The clamped sums
 * {@code B_1}, {@code B_2} have light tails: their laws are computed on one lattice ({@link LognormalSumLattice#powers},
 * every term rounded up, so the lattice sums are at least the true ones), where the bulk spans many points and the
 * lattice's absolute round-off allowance is negligible against the bulk's masses; beyond a cut, the lattice tail is
 * replaced by its Chernoff bound when smaller. For a lattice law {@code B} and {@code G(r) = E[phi(Y + r); Y > L_0]}
 * (increasing in {@code r}), {@code E[G(B)] <= sum_bins mass_bin G(top of bin) + P(B >= cut) sup G}.
 *
 * <p><b>The single term, in closed form.</b> {@code G(r)} for a lognormal {@code Y = e^U}, {@code U ~ N(mu, tau^2)}:
 * cut {@code U} above {@code log max(c - r, L_0)} into cells; on a cell, {@code 1/(y + r)} is convex, so by Jensen
 * {@code E[c/(Y + r); cell] >= c P_cell / (m_cell + r)}, with the cell's mass and mean {@code m_cell} from the normal
 * distribution (the partial first moment is {@code e^{mu + tau^2/2}} times the cell's mass under the law shifted by
 * {@code tau^2}). Hence {@code G(r) <= sum_cells P_cell (m_cell + r - c)/(m_cell + r)} plus the mass beyond the last
 * cell ({@link JensenCells}). Jensen's gap on a cell of log-width {@code d} is about {@code d^2/12} of {@code c/(y + r)}.
 *
 * <p><b>The add direction</b> {@code delta_Q(eps) = E_Q[(1 - e^eps LR)_+] <= Q(S <= T e^{tau^2/2 - eps})}, bounded by
 * Chernoff: {@code min_theta e^{theta s_0} (E e^{-theta w})^T}, the transform bounded above cell by cell.
 *
 * <p>Deep in the tail the clamped lattices' round-off floors this bound (T = 10^4, σ = 0.7, ε = 7: 3.468e-20 against a
 * max test of 1.231e-27), so the remove direction is the smaller of it and {@link AllocationDeepTail}'s closed form,
 * which needs no lattice.
 *
 * <p>The bound is {@code max} of the two directions; every approximation above errs upward, and a relative
 * {@value #RELATIVE_SLACK} is added for floating-point rounding. One epoch only (the decomposition bounds one epoch's
 * curve, not its privacy-loss distribution).
 */
final class AllocationTailBound {
    /** The most the split's remainder (two large terms) may add to δ. */
    static final double SPLIT_SLACK = 1e-17;
    /** Relative allowance for floating-point rounding in the sums. */
    static final double RELATIVE_SLACK = 1e-9;
    /** Largest lattice length (a power of two), and how many clamps fit in one. */
    static final int MAX_LATTICE = 1 << 22;
    static final int CLAMPS_PER_LATTICE = 4;
    /** Where the tilted lattices aim, as fractions of the way from the bulk's mean to the lattice's end. */
    static final double[] TILT_AIMS = {0.25, 0.6};
    /** The power law {@code G(r) ~ (c - r)^{-KAPPA}} the bins are sized by (steeper than any tail met here). */
    static final double KAPPA = 12;
    /** Lattice tail mass below which its Chernoff bound is also tried (above it, the lattice's is as good). */
    static final double CHERNOFF_BELOW = 1e-6;
    /** The lattice tail (times sup G) below this fraction of the sum is kept without trying its Chernoff bound. */
    static final double CHERNOFF_WORTH = 1e-6;
    /** Relative precision of {@link #epsilon}'s search. */
    static final double EPSILON_TOLERANCE = 1e-6;
    /** Largest relative growth of G across one bin ... */
    static final double BIN_GROWTH = 1e-4;
    /** ... unless the bin's mass times that growth is below this. */
    static final double BIN_TOLERANCE = 1e-8;
    /** How far the add direction's cells reach, in standard deviations of log w. */
    static final double REACH = 12;

    private final int steps;
    private final double tau;
    private final double logMean;
    private final double clamp;
    /** Lattice length of the clamped sums. */
    private final int lattice;
    private final double h;
    private final int n;
    private final double splitRemainder;
    private final double aboveClampQ;
    /** The clamped sums {@code B_1} and {@code B_2} (null at one step). */
    private final ClampedSum sum1;
    private final ClampedSum sum2;
    private final DoubleUnaryOperator otherAddBound;
    /** The remove direction again, in closed form (tighter deep in the tail, where the clamped lattices floor). */
    private final AllocationDeepTail deepTail;
    /** The add direction's transform cells. */
    private final LaplaceCells laplaceCells;

    /**
     * The first term of the split alone, {@code E[phi(w' + B_1)]}: the canary's large term without the other steps'
     * (for the tests, which check that leaving out the others' would fall below a proven lower bound).
     */
    double canaryTerm(double epsilon) {
        return canaryTerm(epsilon, Double.POSITIVE_INFINITY);
    }

    /** The same, or a number in {@code [stopAt, canaryTerm(epsilon)]} once that is known to be at least {@code stopAt}. */
    private double canaryTerm(double epsilon, double stopAt) {
        if (steps == 1) {
            return new JensenCells(Math.exp(logMean + epsilon), tau * tau, tau, 0, 0).at(0);
        }
        return expectation(sum1, logMean + epsilon, tau * tau, 0, 1.0, stopAt);
    }

    /**
     * The bound for {@code steps} steps at noise {@code sigma}; {@code addDirection} is another certified upper bound on
     * the add direction's {@code delta(eps)} (the smaller of it and Chernoff's is used).
     */
    AllocationTailBound(int steps, double sigma, DoubleUnaryOperator addDirection) {
        this(steps, sigma, addDirection, new AllocationDeepTail(steps, sigma));
    }

    /** The same, with {@code deepTail} as the closed-form alternative for the remove direction. */
    AllocationTailBound(int steps, double sigma, DoubleUnaryOperator addDirection, AllocationDeepTail deepTail) {
        if (steps < 1) {
            throw new IllegalArgumentException("steps = " + steps);
        }
        this.steps = steps;
        this.otherAddBound = addDirection;
        this.deepTail = deepTail;
        this.tau = 1 / sigma;
        this.laplaceCells = LaplaceCells.of(tau);
        this.logMean = Math.log(steps) + tau * tau / 2;
        this.clamp = splitLevel();
        this.lattice = latticeFor(steps);
        this.n = lattice / CLAMPS_PER_LATTICE - 1;
        this.h = clamp / n;
        double pa = Normal.sf(Math.log(clamp) / tau);
        double paCanary = Normal.sf((Math.log(clamp) - tau * tau) / tau);
        this.aboveClampQ = pa;
        this.splitRemainder = (steps - 1) * pa * paCanary + 0.5 * (steps - 1.0) * (steps - 2.0) * pa * pa;
        if (steps == 1) {
            sum1 = null;
            sum2 = null;
            return;
        }
        double[] a = clampedTerm(0.0);
        double[] b = clampedTerm(tau * tau);
        LognormalSumLattice.Powers sums = LognormalSumLattice.powers(a, b, steps - 1, 1, lattice);
        double[] b1 = clip(sums.q(), sums.etaQ());
        double[] b2 = clip(sums.p(), sums.etaP());
        sums = null;
        double mean = (steps - 1) * LognormalSumLattice.meanIndex(a);
        for (double fraction : TILT_AIMS) {
            Interruption.check("bounding balls-and-bins' delta by the single-term split");
            tighten(a, b, b1, b2, (long) (mean + fraction * (lattice - mean)));
        }
        double[] blockA = LognormalSumLattice.blocks(a);
        sum1 = new ClampedSum(b1, blockA, blockA, steps - 1);
        sum2 = new ClampedSum(b2, blockA, LognormalSumLattice.blocks(b), steps - 1);
    }

    /**
     * Lattice length: four clamps of about {@code 1000 T} points each (the terms' rounding moves the sum by at most
     * {@code T h}, about {@code 4 T a / m}), a power of two between 2^20 and {@value #MAX_LATTICE}.
     */
    static int latticeFor(int steps) {
        int m = 1 << 20;
        while (m < 4000L * steps && m < MAX_LATTICE) {
            m <<= 1;
        }
        return m;
    }

    /**
     * The smallest clamp (on a grid of 1/64 in its log) at which the split's remainder is at most
     * {@value #SPLIT_SLACK}.
     */
    private double splitLevel() {
        for (double logA = tau * tau; ; logA += 1.0 / 64) {
            double pa = Normal.sf(logA / tau);
            double paCanary = Normal.sf((logA - tau * tau) / tau);
            double rest = (steps - 1) * pa * paCanary + 0.5 * (steps - 1.0) * (steps - 2.0) * pa * pa;
            if (rest <= SPLIT_SLACK) {
                return Math.exp(logA);
            }
        }
    }

    /**
     * One clamped term's lattice masses, {@code min(w, a)} rounded up: {@code P(w in ((i-1) h, i h])} at point
     * {@code i <= n}, and {@code P(w > a)} added at {@code n}; {@code log w ~ N(shift, tau^2)}.
     */
    private double[] clampedTerm(double shift) {
        double[] out = new double[n + 1];
        double prev = 0;
        double prevSf = 1;
        for (int i = 1; i <= n; i++) {
            double z = (Math.log(i * h) - shift) / tau;
            double cdf = z <= 0 ? Normal.cdf(z) : 1 - Normal.sf(z);
            double sf = z <= 0 ? 1 - cdf : Normal.sf(z);
            out[i] = Math.max(0, z > 0 && prevSf < 0.5 ? prevSf - sf : cdf - prev);
            prev = cdf;
            prevSf = sf;
        }
        out[n] += Normal.sf((Math.log(n * h) - shift) / tau);
        return out;
    }

    /**
     * Lowers the lattice laws' bounds above the bulk by the same sums computed under the exponential tilt that makes
     * the Chernoff bound at index {@code aim} tightest ({@link LognormalSumLattice#chernoffTilt}): the tilted masses
     * {@code t_j = sum_k s_{j + k m} e^{lambda (j + k m)} / Z^T} (sums at or above {@code m} wrap around) come back as
     * {@code (t_j + eta) Z^T e^{-lambda j} >= s_j}, an upper bound on the mass at {@code j} whose round-off allowance is
     * relative where the tilt aims (the clamped terms have light tails, so the tilt concentrates there); the mass that
     * wrapped around stays counted by the untilted Chernoff bound. Each point keeps the smaller of its bounds.
     */
    private void tighten(double[] a, double[] b, double[] b1, double[] b2, long aim) {
        double lambda = LognormalSumLattice.chernoffTilt(a, b, 1, steps - 1, aim, false);
        if (!(lambda * n >= 1)) {
            return;
        }
        double[] at = a.clone();
        double[] bt = b.clone();
        double logZa = LognormalSumLattice.tiltInPlace(at, lambda);
        double logZb = LognormalSumLattice.tiltInPlace(bt, lambda);
        LognormalSumLattice.Powers tilted = LognormalSumLattice.powers(at, bt, steps - 1, 1, lattice);
        lower(b1, tilted.q(), tilted.etaQ(), (steps - 1) * logZa, lambda);
        lower(b2, tilted.p(), tilted.etaP(), (steps - 2) * logZa + logZb, lambda);
    }

    private static void lower(double[] bound, double[] tilted, double eta, double logScale, double lambda) {
        for (int j = 0; j < bound.length; j++) {
            double x = tilted[j] + eta;
            if (x > 0) {
                double back = Math.exp(Math.log(x) + logScale - lambda * j);
                if (back < bound[j]) {
                    bound[j] = back;
                }
            }
        }
    }

    private static double[] clip(double[] masses, double eta) {
        double[] out = new double[masses.length];
        for (int j = 0; j < masses.length; j++) {
            out[j] = Math.max(0, masses[j] + eta);
        }
        return out;
    }

    /** A certified upper bound on one epoch's {@code delta(eps)} (both directions). */
    double delta(double epsilon) {
        return delta(epsilon, Double.POSITIVE_INFINITY);
    }

    /**
     * {@code min(ceiling, delta(epsilon))}, bit for bit, with the split computed only as far as it can still lower that.
     * The result is {@code F(split)}, {@code F(s) = min(ceiling, 1, (max(min(s, deep), add) (1 + slack)))}: monotone in
     * {@code s} (floating-point rounding is), so {@code F(split) = F(min(split, cap))} for any {@code cap} with
     * {@code F(cap) = F(+inf)}; the cap taken is the smaller of the closed form's value and the least number whose
     * {@code F} reaches {@code F(+inf)} (found from its quotient by the slack and checked ulp by ulp), and
     * {@link #removeDirectionBelow} stops as soon as the split is known to be at or above it. A curve's point at
     * δ ≈ 1e-8 (T = 1000, σ = 1), where the refined lattice is below the split, no longer pays for the split.
     */
    double delta(double epsilon, double ceiling) {
        Interruption.check("bounding balls-and-bins' delta by the single-term split");
        double deep = deepTail.removeUpper(epsilon);
        double add = Math.min(addDirection(epsilon), otherAddBound.applyAsDouble(epsilon));
        double whole = Math.min(ceiling, Math.min(1, Math.max(deep, add) * (1 + RELATIVE_SLACK)));
        double remove = removeDirectionBelow(epsilon, Math.min(deep, leastReaching(whole, add)));
        return Math.min(ceiling, Math.min(1, Math.max(remove, add) * (1 + RELATIVE_SLACK)));
    }

    /** A number {@code c >= 0} with {@code max(c, add) (1 + slack) >= target} in floating point, near the least such. */
    private static double leastReaching(double target, double add) {
        if (!(target > 0)) {
            return Math.max(0, target); // 0, or NaN where the closed form's value is (the result is NaN either way)
        }
        if (add * (1 + RELATIVE_SLACK) >= target) {
            return 0;
        }
        double c = target / (1 + RELATIVE_SLACK);
        while (c * (1 + RELATIVE_SLACK) < target) {
            c = Math.nextUp(c);
        }
        return c;
    }

    /**
     * A certified upper bound on {@code eps(delta)} below {@code hi}: an {@code eps} at which {@code delta(eps) <= delta}
     * (the true curve is non-increasing, so any such {@code eps} is an upper end), found by false position on
     * {@code log delta(eps)} (nearly linear in {@code eps}) to a relative {@value #EPSILON_TOLERANCE}; {@code +inf} if
     * {@code delta(hi)} is above {@code delta}.
     */
    double epsilon(double delta, double hi) {
        double fHi = Math.log(delta(hi)) - Math.log(delta);
        if (!(fHi <= 0)) {
            return Double.POSITIVE_INFINITY;
        }
        double step = Math.max(1e-3, 0.01 * hi);
        double lo = hi - step;
        double fLo = Math.log(delta(lo)) - Math.log(delta);
        while (fLo <= 0 && lo > 0) {
            hi = lo;
            fHi = fLo;
            step *= 4;
            lo = Math.max(0, hi - step);
            fLo = Math.log(delta(lo)) - Math.log(delta);
        }
        if (fLo <= 0) {
            return lo;
        }
        int side = 0;
        for (int it = 0; it < 60 && hi - lo > EPSILON_TOLERANCE * hi; it++) {
            double mid = Double.isFinite(fLo) && Double.isFinite(fHi) ? hi - fHi * (hi - lo) / (fHi - fLo)
                    : (lo + hi) / 2;
            if (!(mid > lo && mid < hi)) {
                mid = (lo + hi) / 2;
            }
            double f = Math.log(delta(mid)) - Math.log(delta);
            if (f <= 0) {
                hi = mid;
                fHi = f;
                if (side == -1) {
                    fLo /= 2; // Illinois: keep the stale end from stalling the iteration
                }
                side = -1;
            } else {
                lo = mid;
                fLo = f;
                if (side == 1) {
                    fHi /= 2;
                }
                side = 1;
            }
        }
        return hi;
    }

    /**
     * {@code min(removeDirection(epsilon), cap)}, bit for bit, without the parts that cannot go under {@code cap}: the
     * split's sum {@code (one + two) + remainder} is at least {@code one + remainder} and at least {@code remainder}
     * (its terms are non-negative and floating-point addition is monotone), so where either is already at or above
     * {@code cap} the rest is not computed (deep in the tail the closed form is below the remainder; there the split
     * cost 35-50 ms a call at T = 1000 for nothing).
     */
    double removeDirectionBelow(double epsilon, double cap) {
        if (cap <= splitRemainder) {
            return cap;
        }
        if (steps == 1) {
            return Math.min(canaryTerm(epsilon), cap);
        }
        // each expectation may stop early with a number between its threshold and its value: where even that puts the
        // sum at or above cap, so does the value
        double one = canaryTerm(epsilon, cap);
        if (one + splitRemainder >= cap) {
            return cap;
        }
        double logC = logMean + epsilon;
        double stopTwo = (cap - one) / (steps - 1);
        double two = (steps - 1) * expectation(sum2, logC, 0.0, clamp, aboveClampQ, stopTwo);
        if (one + two + splitRemainder >= cap) {
            return cap;
        }
        if (two >= (steps - 1) * stopTwo) { // stopped early, yet rounding kept the sum under cap: the value itself
            two = (steps - 1) * expectation(sum2, logC, 0.0, clamp, aboveClampQ, Double.POSITIVE_INFINITY);
        }
        return Math.min(one + two + splitRemainder, cap);
    }

    double removeDirection(double epsilon) {
        double logC = logMean + epsilon;
        double one = canaryTerm(epsilon);
        if (steps == 1) {
            return one;
        }
        double two = (steps - 1) * expectation(sum2, logC, 0.0, clamp, aboveClampQ, Double.POSITIVE_INFINITY);
        return one + two + splitRemainder;
    }

    /**
     * {@code E[G(B)]} for the lattice law {@code lattice} ({@code B = j h}), {@code G(r) = E[phi(Y + r); Y > lower]},
     * {@code log Y ~ N(mu, tau^2)}, {@code sup G <= top}: bins of lattice points, each bounded by {@code G} at its top,
     * grown while G's estimated relative growth across it stays under {@value #BIN_GROWTH} or, times the bin's mass, under
     * {@value #BIN_TOLERANCE}; the
     * points from a cut {@code 2^k} on bounded together by the smaller of their lattice mass and the Chernoff bound,
     * the cut chosen where that is smallest.
     *
     * <p>Every bin and tail adds a non-negative amount, so {@code min(best, sum)} at any moment is at most the value
     * returned: once it reaches {@code stopAt} it is returned instead (a caller that only compares the value with a
     * threshold needs no more).
     */
    private double expectation(ClampedSum law, double logC, double mu, double lower, double top, double stopAt) {
        double c = Math.exp(logC);
        double[] masses = law.masses;
        int m = masses.length;
        int levels = law.above.length;
        double[] above = law.above;
        double wrapped = law.tail(levels - 1);
        JensenCells g = new JensenCells(c, mu, tau, lower, m * h);
        // up to c (1 - 1e-3) in bins by G's growth; beyond, where G's relative growth is not small, by 1% in r
        int limit = (int) Math.max(1, Math.min(m, Math.floor(c * (1 - 1e-3) / h)));
        double best = Double.POSITIVE_INFINITY;
        double sum = 0;
        int j = 0;
        for (int k = 0; k < levels; k++) {
            int cut = Math.min(1 << k, limit);
            while (j < cut) {
                int start = j;
                double mass = 0;
                double rStart = start * h;
                // up to rEasy the growth is within BIN_GROWTH; beyond, the bin grows while its mass is small
                double rEasy = c - (c - rStart) * Math.pow(1 + BIN_GROWTH, -1.0 / KAPPA);
                double rLimit = rEasy;
                double limitMass = -1; // the bin mass rLimit was last computed for (-1: none, rLimit = rEasy)
                while (j < cut) {
                    double next = mass + masses[j];
                    boolean beyond = j * h > rLimit;
                    if (j > start && (beyond || limitMass >= 0 && next > 2 * limitMass)) {
                        if (beyond && limitMass >= 0 && next <= 2 * limitMass) {
                            break;
                        }
                        rLimit = Math.max(rEasy, reach(c, rStart, next));
                        limitMass = next;
                        if (j * h > rLimit) {
                            break;
                        }
                    }
                    mass = next;
                    j++;
                }
                if (mass > 0) {
                    sum += mass * g.at((j - 1) * h);
                    if (sum >= stopAt && best >= stopAt) {
                        return Math.min(best, sum);
                    }
                }
            }
            double tail;
            if (cut == 1 << k) {
                // within the bulk the lattice's own tail is as good as Chernoff's (both are upper bounds)
                tail = cut >= m ? wrapped : above[k] + wrapped;
                if (cut < m && above[k] < CHERNOFF_BELOW) {
                    tail = Math.min(tail, law.tail(k));
                }
            } else {
                double rest = 0;
                for (int i = cut; i < m; i++) {
                    rest += masses[i];
                }
                tail = rest + wrapped;
                if (tail * top > CHERNOFF_WORTH * sum) {
                    tail = Math.min(tail, law.tailAt(cut));
                }
            }
            best = Math.min(best, sum + tail * top);
            if (tail * top <= 1e-9 * sum) {
                return best;
            }
            if (cut == limit) {
                break;
            }
        }
        // the points from the limit on, in bins of 1% in r, each bounded by G at its top
        while (j < m) {
            int end = (int) Math.min(m, Math.max(j + 1L, (long) Math.ceil(j * 1.01)));
            double mass = 0;
            for (int i = j; i < end; i++) {
                mass += masses[i];
            }
            sum += mass * Math.min(top, g.at((end - 1) * h));
            j = end;
        }
        return Math.min(best, sum + wrapped * top);
    }

    /**
     * How far a bin of mass {@code mass} starting at {@code r0} may reach: where its mass times G's relative growth
     * across it, estimated from {@code G(r) ~ (c - r)^{-}{@value #KAPPA}}, reaches {@value #BIN_TOLERANCE} (only the
     * binning's tightness depends on the estimate).
     */
    private static double reach(double c, double r0, double mass) {
        return c - (c - r0) * Math.pow(1 + BIN_TOLERANCE / mass, -1.0 / KAPPA);
    }

    /**
     * Chernoff's bound on {@code Q(S <= T e^{tau^2/2 - eps})}: {@code min_theta e^{theta s_0 + T log E e^{-theta w}}},
     * {@code E e^{-theta w}} bounded above on cells of {@code log w} by its value at each cell's lower end.
     */
    double addDirection(double epsilon) {
        double s0 = Math.exp(logMean - epsilon);
        double best = 0;
        for (int i = 0; i <= 60; i++) {
            double theta = 1e-4 * Math.pow(1e8, i / 60.0) / Math.max(1e-300, s0 / steps);
            double log = theta * s0 + steps * Math.log(laplace(theta));
            best = Math.min(best, log);
        }
        return Math.exp(best);
    }

    /** An upper bound on {@code E[e^{-theta w}]}, {@code log w ~ N(0, tau^2)}. */
    private double laplace(double theta) {
        double sum = laplaceCells.below;
        double[] mass = laplaceCells.mass;
        double[] low = laplaceCells.low;
        for (int i = 0; i < mass.length; i++) {
            sum += mass[i] * Math.exp(-theta * low[i]);
        }
        sum += laplaceCells.above;
        return Math.min(1, sum * (1 + 1e-12));
    }

    /**
     * The cells of {@link #laplace}, which do not depend on {@code theta}: {@code log w} in steps of 0.01 over
     * {@code +-}{@value #REACH} standard deviations, each cell's normal mass and {@code w} at its lower end, and the
     * masses below and above (computed once, not once per {@code theta} and {@code eps}).
     */
    private record LaplaceCells(double below, double[] mass, double[] low, double above) {
        static LaplaceCells of(double tau) {
            double step = 0.01;
            double prev = Normal.cdf(-REACH);
            double u = -REACH * tau;
            double[] mass = new double[64];
            double[] low = new double[64];
            int k = 0;
            for (int i = 0; u < REACH * tau; i++) {
                double uNext = -REACH * tau + (i + 1) * step;
                double next = Normal.cdf(uNext / tau);
                if (k == mass.length) {
                    mass = Arrays.copyOf(mass, 2 * k);
                    low = Arrays.copyOf(low, 2 * k);
                }
                mass[k] = next - prev;
                low[k] = Math.exp(u);
                k++;
                prev = next;
                u = uNext;
            }
            return new LaplaceCells(Normal.cdf(-REACH), Arrays.copyOf(mass, k),
                    Arrays.copyOf(low, k), Normal.sf(u / tau));
        }
    }

    /**
     * A clamped sum's lattice law: the masses (upper bounds per point), the mass at indices {@code >= 2^k}, and
     * Chernoff bounds on the rounded-up sum at or above an index, from its terms' block sums
     * ({@link LognormalSumLattice#chernoffFromBlocks}: {@code count - 1} terms of one law and one of another), those at
     * {@code 2^k} computed once on first use; at {@code 2^k = m} it also bounds the mass that wrapped around.
     */
    private static final class ClampedSum {
        private final double[] masses;
        private final double[] above;
        private final double[] blockOther;
        private final double[] blockFirst;
        private final int count;
        private final double[] tails;

        ClampedSum(double[] masses, double[] blockOther, double[] blockFirst, int count) {
            this.masses = masses;
            this.blockOther = blockOther;
            this.blockFirst = blockFirst;
            this.count = count;
            int levels = Integer.numberOfTrailingZeros(masses.length) + 1;
            this.above = new double[levels];
            double running = 0;
            for (int j = masses.length - 1; j >= 1; j--) {
                running += masses[j];
                if ((j & (j - 1)) == 0) {
                    above[Integer.numberOfTrailingZeros(j)] = running;
                }
            }
            this.tails = new double[levels];
            java.util.Arrays.fill(tails, Double.NaN);
        }

        /** The Chernoff bound at index {@code 2^k}. */
        synchronized double tail(int k) {
            if (Double.isNaN(tails[k])) {
                tails[k] = tailAt(1L << k);
            }
            return tails[k];
        }

        /** The Chernoff bound at {@code index}. */
        double tailAt(long index) {
            return LognormalSumLattice.chernoffFromBlocks(blockOther, blockFirst, 1, count, index);
        }
    }
}

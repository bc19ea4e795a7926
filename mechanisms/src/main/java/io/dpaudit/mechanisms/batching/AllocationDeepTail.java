package io.dpaudit.mechanisms.batching;

import io.dpaudit.core.numerics.Normal;
import java.util.function.DoubleUnaryOperator;

/**
 * A two-sided bracket, in closed form, on one epoch of balls-and-bins' remove-direction {@code delta(eps)} deep in the
 * tail, where one large term carries the whole event and the other {@code T - 1} terms matter only through their mean
 * and variance. It needs no lattice, so it has no round-off floor: T = 10^4, σ = 0.7, ε = 7 is bracketed to 0.03%
 * ({@code delta} about 1.2e-27), where the lattices' floor left [1.231e-27, 3.468e-20].
 *
 * <p><b>The pair in its Q-form</b> (notation of {@link LognormalSumLattice}). Under {@code Q} the terms
 * {@code w_t = e^{x_t/s^2}}, {@code t = 1..T}, are independent with {@code log w ~ N(0, tau^2)}, {@code tau = 1/s},
 * mean {@code e1 = e^{tau^2/2}} and variance {@code v = e^{2 tau^2} - e^{tau^2}}; the likelihood ratio is
 * {@code S / M}, {@code S = sum_t w_t}, {@code M = T e1}. So the remove direction's
 * {@code delta(eps) = E_P[(1 - e^eps M/S)_+] = E_Q[(S - c)_+] / M} with {@code c = M e^eps}.
 *
 * <p><b>Upper end.</b> For a level {@code b > 0}, with {@code S_b = sum_t min(w_t, b)} and {@code R_t = S - w_t}:
 * on {@code max_t w_t <= b}, {@code S = S_b}; otherwise some {@code w_t > b}, so
 * <pre>
 *   E(S - c)_+ &lt;= E(S_b - c)_+ + T E[H(c - R)],     H(k) = E[(w - k)_+; w &gt; b],  R = T - 1 other terms,
 *   E(S_b - c)_+ &lt;= e^{-lambda c - 1} (E e^{lambda min(w, b)})^T / lambda     (Chernoff: x_+ &lt;= e^{lambda x - 1}/lambda),
 * </pre>
 * the transform bounded above with its first moment in closed form and the rest on cells ({@link ClampedSumChernoff}).
 * {@code H(c - r)} is convex in {@code r} with slope {@code P(w > max(b, c - r))}, so with
 * {@code r_0 = (T - 1) e1 + z sd} ({@code sd^2 = (T - 1) v}), {@code E[H(c - R)] <= E(w - (c - r_0))_+} (the
 * Black-Scholes call of a lognormal) plus the rest's excess over {@code r_0} weighted by those slopes
 * ({@link #logRest}), which needs only upper bounds on {@code E(R - r)_+}: the largest over laws of the rest's mean and
 * variance (Scarf 1958), or where smaller, given one epoch's remove-direction upper bound {@code delta+} (the
 * lattice's), {@code M delta+(log(r / M))} ({@code R <= S}). The bound is the smallest over {@code b} in
 * {@link #LEVELS} times {@code c - M} and {@code z} in {@link #SPREADS}: every choice is an upper bound.
 *
 * <p><b>Lower end.</b> The events {@code A_t = {w_t > b, w_s <= b for s != t}} are disjoint, so
 * {@code E(S - c)_+ >= T E[(w_1 + R - c)_+; A_1]}; given {@code w_1 = y} and that every other term is at most
 * {@code b}, Jensen's inequality puts {@code R} at its conditional mean, at least {@code (T - 1) E[w; w <= b]}:
 * <pre>
 *   delta(eps) &gt;= T (1 - P(w &gt; b))^{T-1} E(w - k_lo)_+ / M,   k_lo = c - (T - 1) E[w; w &lt;= b],
 * </pre>
 * with {@code b = c - (T - 1) e1 <= k_lo}, so that {@code (w - k_lo)_+} vanishes where {@code w <= b}. The exact
 * curve is the larger of two directions, so this is a lower bound on it.
 *
 * <p><b>Second order.</b> Both ends also expand the large term's share exactly around the rest's mean
 * ({@link CenteredRestBound}): {@code E g(R) = g(mu) + integral pi ds}, the rest's spread {@code pi} read from the
 * whole sum's lattices ({@link RestSpread}: both directions, both ends); the upper end takes it for each level, the lower
 * end for the rest conditioned on every term at most {@code b} ({@link #centeredLower}). T = 10^4, σ = 0.7, ε = 0.45:
 * [9.49e-9, 1.033e-8] at first order, [9.60e-9, 9.70e-9] at second.
 *
 * <p><b>Where it is tight.</b> The two ends differ by the rest's spread against {@code c - M}: they meet as
 * {@code e^eps} grows against the bulk's relative spread. T = 10^4, σ = 0.7, by the variance alone: 4.5% wide at
 * ε = 1, 0.4% at 3, 0.009% at 7; at small ε the lattices are better, and both are kept (the caller takes the tighter
 * end). With the lattice's bound on the rest, T = 10^4, σ = 1: ε(1e-12) at most 0.1379 (the lattices alone: 0.5101;
 * the max test's lower end 0.1302). Refused ({@code +inf} / 0) where {@code c} would overflow ({@code log c} above
 * {@value #MAX_LOG_THRESHOLD}) or where the call's two terms cancel to within {@value #CANCELLATION_LIMIT} of each
 * other (large σ: their rounding could then exceed the relative allowance {@value #RELATIVE_SLACK}). The δ bracket is
 * one epoch's curve; the same split bounds one epoch's survival function of the loss from both sides
 * ({@link #survivalUpper}, {@link #survivalLower}), which composes over any number of epochs.
 */
final class AllocationDeepTail {
    /** The survival function's bound starts where the lattice's falls below this ... */
    static final double SURVIVAL_FROM = 1e-6;
    /** ... and stops below this. */
    static final double SURVIVAL_TO = 1e-60;
    /**
     * The upper survival bound is evaluated every this many grid steps, each value serving the steps up to the next
     * (2: at most 0.1% above the grid point's own bound where {@code G} falls by 5 per unit of loss) ...
     */
    static final int STRIDE = 2;
    /** ... with one Chernoff bound per block of this many grid steps ... */
    static final int BLOCK = 500;
    /** ... at the level {@code b} one of these fractions of {@code c - M} at the block's start. */
    static final double[] SURVIVAL_LEVELS = {0.7, 0.85, 0.95};
    /** The levels {@code b} tried, as fractions of {@code c - M}. */
    static final double[] LEVELS = {0.6, 0.75, 0.85, 0.9, 0.95};
    /** The spreads {@code z} tried: {@code r0 = (T - 1) e1 + z sd}. */
    static final double[] SPREADS = {0, 0.5, 1, 2, 3, 5};
    /** The starting rungs tried for the survival function's bound. */
    static final double[] SURVIVAL_SPREADS = {0, 0.5};
    /** Relative allowance for floating-point rounding, added to the upper end and taken off the lower. */
    static final double RELATIVE_SLACK = 1e-9;
    /** The call is refused where its two terms agree to within this fraction (cancellation). */
    static final double CANCELLATION_LIMIT = 1e-4;
    /** Largest {@code log c} computed with (beyond it {@code c} would overflow). */
    static final double MAX_LOG_THRESHOLD = 700;

    private final int steps;
    private final double tau;
    private final double logMean;
    private final double termMean;
    private final double spread;
    /** An upper bound on one epoch's remove-direction delta(eps) (the whole sum's excess), or null. */
    private final DoubleUnaryOperator wholeSum;
    /** Chernoff's bounds on the clamped sum. */
    private final ClampedSumChernoff clampedSum;
    /** The large term's share expanded around the rest's mean (second order in its spread). */
    private final CenteredRestBound centered;
    /** {@code E(R - r_j)_+} bounded at the ladder's rungs (computed on first use). */
    private double[] restExcess;
    /** {@code P(R > r_j)} bounded at the ladder's rungs (computed on first use). */
    private double[] restTails;

    /** The bracket with the rest's excess bounded by its variance alone ({@link #scarf}). */
    AllocationDeepTail(int steps, double sigma) {
        this(steps, sigma, (RestSpread.WholeSum) null);
    }

    /**
     * The bracket with the rest's excess also bounded through {@code wholeSum}, an upper bound on one epoch's
     * remove-direction {@code delta(eps) = E(S - M e^eps)_+ / M} (the lattice's): {@code R <= S}, so
     * {@code E(R - r)_+ <= M delta(log(r / M))}, far below the variance's bound a few standard deviations out.
     */
    AllocationDeepTail(int steps, double sigma, DoubleUnaryOperator wholeSum) {
        this(steps, sigma, new RestSpread.WholeSum(wholeSum, null, null, null));
    }


    /** The bracket with the rest's spread read from the whole sum's curves ({@code null}: its variance alone). */
    AllocationDeepTail(int steps, double sigma, RestSpread.WholeSum whole) {
        if (steps < 1 || !(sigma > 0)) {
            throw new IllegalArgumentException("steps = " + steps + ", sigma = " + sigma);
        }
        RestSpread.WholeSum w = whole == null ? new RestSpread.WholeSum(null, null, null, null) : whole;
        this.steps = steps;
        this.tau = 1 / sigma;
        this.termMean = Math.exp(tau * tau / 2);
        this.logMean = Math.log(steps) + tau * tau / 2;
        this.spread = Math.sqrt(steps - 1.0) * termMean * Math.sqrt(Math.expm1(tau * tau));
        this.wholeSum = w.removeUpper();
        this.clampedSum = new ClampedSumChernoff(steps, tau);
        RestSpread rest = new RestSpread(steps, tau, spread, w);
        this.centered = new CenteredRestBound(tau, (steps - 1) * termMean, spread, rest::upper,
                w.addLower() == null ? null : rest::lowerLeft, rest::lowerRight);
    }

    /** A certified upper bound on the remove direction's {@code delta(eps)}, or {@code +inf} where refused. */
    double removeUpper(double epsilon) {
        double logC = logMean + epsilon;
        if (!(epsilon > 0) || !(logC <= MAX_LOG_THRESHOLD)) {
            return Double.POSITIVE_INFINITY;
        }
        double c = Math.exp(logC);
        double excess = Math.exp(logMean) * Math.expm1(epsilon); // c - M
        double best = Double.POSITIVE_INFINITY;
        for (double level : LEVELS) {
            double b = level * excess;
            double chernoff = clampedSum.log(c, b, false);
            if (steps > 1) {
                double share = Math.log(steps) + centered.log(c, b);
                if (!Double.isNaN(share)) {
                    best = Math.min(best, logSum(share, Double.NEGATIVE_INFINITY, chernoff));
                }
            }
            for (double z : SPREADS) {
                double strike = excess + termMean - z * spread; // c - r0
                if (!(strike > 0)) {
                    continue;
                }
                double main = Math.log(steps) + CenteredRestBound.logCall(tau, Math.log(strike));
                if (Double.isNaN(main)) {
                    continue;
                }
                double rest = steps == 1 ? Double.NEGATIVE_INFINITY : Math.log(steps) + logRest(b, excess, z);
                double total = logSum(main, rest, chernoff);
                if (total < best) {
                    best = total;
                }
            }
        }
        if (best == Double.POSITIVE_INFINITY) {
            return best;
        }
        // + MIN_VALUE: a value that underflows (or is subnormal, with its coarse rounding) is still an upper bound
        return Math.exp(best - logMean) * (1 + RELATIVE_SLACK) + Double.MIN_VALUE;
    }

    /**
     * {@code log} of an upper bound on {@code E[H(c - R)] - H(c - r_0)}, {@code H(k) = E[(w - k)_+; w > b]}: the rest
     * {@code R} above {@code r_0 = (T - 1) e1 + z0 sd} cut at rungs {@code r_j} ({@link #rung}); on
     * {@code [r_j, r_{j+1}]} the slope of {@code H(c - r)} in {@code r} is {@code P(w > max(b, c - r))}, at most
     * {@code s_j = P(w > max(b, c - r_{j+1}))} (on the last segment, to infinity, {@code P(w > b)}), and the segment's
     * expected length is {@code E(R - r_j)_+ - E(R - r_{j+1})_+}; summed by parts,
     * {@code s_0 E(R - r_0)_+ + sum_{j >= 1} (s_j - s_{j-1}) E(R - r_j)_+}, every coefficient non-negative, so
     * {@link #scarf}'s bound on each {@code E(R - r_j)_+} keeps it an upper bound.
     */
    private double logRest(double b, double excess, double z0) {
        double logB = Math.log(b);
        double[] bounds = restExcess();
        double acc = Double.NEGATIVE_INFINITY;
        int j = rungOf(z0);
        double logPrevSlope = Double.NEGATIVE_INFINITY;
        while (true) {
            double zNext = rung(j + 1);
            double strikeNext = excess + termMean - zNext * spread; // c - r_{j+1}
            boolean last = !(strikeNext > b) || j + 2 >= bounds.length;
            double logSlope = Normal.logSf((last ? logB : Math.log(strikeNext)) / tau);
            // log(s_j - s_{j-1}), rounded up (1e-15: the two tails' own relative error)
            double gap = Math.exp(logPrevSlope - logSlope);
            double logIncrement = logSlope + Math.log(Math.max(0, 1 - gap) + 1e-15);
            double term = logIncrement + Math.log(bounds[j]);
            double m = Math.max(acc, term);
            acc = m == Double.NEGATIVE_INFINITY ? m : m + Math.log(Math.exp(acc - m) + Math.exp(term - m));
            if (last) {
                return acc;
            }
            logPrevSlope = logSlope;
            j++;
        }
    }

    /**
     * Upper bounds on {@code E(R - r_j)_+} at every rung: {@link #scarf}'s, and where smaller the whole sum's
     * ({@code M wholeSum(log(r_j / M))}, rounded up).
     */
    private synchronized double[] restExcess() {
        if (restExcess == null) {
            double[] out = new double[RUNGS];
            double mean = Math.exp(logMean);
            double rest = (steps - 1) * termMean;
            for (int j = 0; j < RUNGS; j++) {
                double z = rung(j);
                out[j] = scarf(z);
                if (wholeSum != null) {
                    double viaSum = mean * wholeSum.applyAsDouble(Math.log((rest + z * spread) / mean)) * (1 + 1e-12);
                    if (viaSum < out[j]) {
                        out[j] = viaSum;
                    }
                }
            }
            restExcess = out;
        }
        return restExcess;
    }

    /**
     * Upper bounds on {@code P(R > r_j)} at every rung: Cantelli's {@code 1/(1 + z_j^2)} and, for every lower rung
     * {@code i}, Markov's {@code E(R - r_i)_+ / (r_j - r_i)}.
     */
    private synchronized double[] restTails() {
        if (restTails == null) {
            double[] excess = restExcess();
            double[] out = new double[RUNGS];
            for (int j = 0; j < RUNGS; j++) {
                double z = rung(j);
                double t = z > 0 ? 1 / (1 + z * z) : 1;
                for (int i = 0; i < j; i++) {
                    t = Math.min(t, excess[i] / ((z - rung(i)) * spread));
                }
                out[j] = Math.min(1, t * (1 + 1e-12));
            }
            restTails = out;
        }
        return restTails;
    }

    /** The number of rungs: the last, {@code rung(RUNGS - 1)}, is about 10^10 standard deviations out. */
    static final int RUNGS = 110;

    /** The rungs of the rest, in standard deviations above its mean: steps of 1/4 to 1, of 1/2 to 4, then x1.25. */
    static double rung(int j) {
        if (j <= 4) {
            return 0.25 * j;
        }
        if (j <= 10) {
            return 1 + 0.5 * (j - 4);
        }
        return 4 * Math.pow(1.25, j - 10);
    }

    /** The rung at or below {@code z}. */
    static int rungOf(double z) {
        int j = 0;
        while (j + 1 < RUNGS && rung(j + 1) <= z) {
            j++;
        }
        return j;
    }




    /**
     * The largest {@code E(X - a)_+} over laws of mean {@code m} and standard deviation {@code sd}, at
     * {@code a = m + z sd}: {@code sd (sqrt(1 + z^2) - z) / 2} (Scarf 1958), written {@code sd / (2 (sqrt(1 + z^2) + z))}
     * so that large {@code z} does not cancel.
     */
    private double scarf(double z) {
        return spread / (2 * (Math.sqrt(1 + z * z) + z));
    }

    /** A proven lower bound on the exact {@code delta(eps)} (through its remove direction), 0 where refused. */
    double removeLower(double epsilon) {
        double logC = logMean + epsilon;
        if (!(epsilon > 0) || !(logC <= MAX_LOG_THRESHOLD)) {
            return 0;
        }
        double b = Math.exp(logMean) * Math.expm1(epsilon) + termMean; // c - (T - 1) e1
        double logB = Math.log(b);
        double strike = b + (steps - 1) * termMean * Normal.sf((logB - tau * tau) / tau); // c - (T-1) E[w; w <= b]
        double call = CenteredRestBound.logCall(tau, Math.log(strike));
        if (Double.isNaN(call)) {
            return 0;
        }
        double none = (steps - 1) * Math.log1p(-Math.exp(Normal.logSf(logB / tau)));
        double out = Math.exp(Math.log(steps) + none + call - logMean) * (1 - RELATIVE_SLACK);
        if (steps > 1) {
            double c = Math.exp(logC);
            for (double below : LOWER_LEVELS) {
                out = Math.max(out, centeredLower(c, b - below * spread));
            }
        }
        return out > 0 ? out : 0;
    }

    /**
     * The same disjoint events at level {@code b}, the large term's share expanded to second order in the conditioned
     * rest {@code R_b} ({@link CenteredRestBound#logLower}): {@code T P(w <= b)^{T-1} E[H(c - R_b)] / M}, with
     * {@code E R_b = (T - 1) E[w | w <= b]} and {@code E[(R - r)_+; some term > b] <= (T - 1) (E[w; w > b] +
     * (T - 2) e1 P(w > b))}; 0 where not computed.
     */
    private double centeredLower(double c, double b) {
        if (!(b > 0)) {
            return 0;
        }
        double logB = Math.log(b);
        double above = Normal.sf(logB / tau);
        double aboveMean = termMean * Normal.sf((logB - tau * tau) / tau); // E[w; w > b]
        double meanB = (steps - 1) * (termMean - aboveMean) / (1 - above) * (1 - 1e-12);
        double tailLoss = (steps - 1) * (aboveMean + (steps - 2) * termMean * above) * (1 + 1e-12);
        double share = centered.logLower(c, b, meanB, tailLoss);
        if (Double.isNaN(share)) {
            return 0;
        }
        double none = (steps - 1) * Math.log1p(-above);
        double out = Math.exp(Math.log(steps) + none + share - logMean) * (1 - RELATIVE_SLACK);
        return out > 0 ? out : 0;
    }

    /** The levels of {@link #centeredLower}: {@code c - (T - 1) e1} less these many standard deviations of the rest. */
    static final double[] LOWER_LEVELS = {0, 1, 2, 4};

    /**
     * An upper bound on one epoch's survival function of the remove direction's loss, {@code G(u) = P_P(L > u)}, in
     * the tail, on {@link AllocationPld}'s loss grid: entry {@code i} bounds the mass an upper end puts at losses
     * {@code >= (iLo + i) h} (that is, {@code G} at the grid point below), and is {@code +inf} where not computed, so
     * that a pointwise minimum with the lattice's ({@code lattice}, same layout, the last entry the mass at
     * {@code +inf}) keeps only what is tighter. Computed from where {@code lattice} falls below {@value #SURVIVAL_FROM}
     * until the bound falls below {@value #SURVIVAL_TO} (every entry beyond takes the last bound: {@code G} does not
     * increase).
     *
     * <p>The split, as for {@code delta}, now of {@code E_Q[S; S > c] = M G(u)}, {@code c = M e^u}:
     * {@code E[S; S > c] <= E[S_b; S_b > c] + T E[K(R)]}, {@code K(r) = E[(w + r); w > max(b, c - r)]}, increasing in
     * {@code r}, and {@code K(r) = K(r_J) + (r - r_J) P(w > b)} beyond {@code r_J >= c - b}; so
     * {@code E K(R) <= K(r_0) + sum_j (K(r_{j+1}) - K(r_j)) P(R > r_j) + P(w > b) E(R - r_J)_+}, with
     * {@code P(R > r_j)} at most Cantelli's {@code 1/(1 + z_j^2)} and Markov's {@code E(R - r_i)_+ / (r_j - r_i)}, {@code i < j}.
     * {@code E[S_b; S_b > c] <= (c + 1/(e lambda)) e^{-lambda c} (E e^{lambda min(w, b)})^T}, computed once per block
     * of {@value #BLOCK} grid steps at the block's smallest {@code c} (it does not increase with {@code c}), with
     * {@code b} fixed over the block. The points are every {@value #STRIDE} grid steps, each serving the grid steps up to
     * the next ({@code G} does not increase).
     */
    double[] survivalUpper(double[] lattice, long iLo) {
        int g = lattice.length - 1;
        double[] out = new double[lattice.length];
        java.util.Arrays.fill(out, Double.POSITIVE_INFINITY);
        if (steps == 1) {
            return out; // the lattice of one term is exact up to its rounding; nothing to add
        }
        int start = 1;
        while (start < g && !(lattice[start] < SURVIVAL_FROM)) {
            start++;
        }
        double mean = Math.exp(logMean);
        double last = Double.POSITIVE_INFINITY;
        double chernoff = Double.POSITIVE_INFINITY;
        double b = 0;
        int blockEnd = -1;
        for (int i = start; i < g; i += STRIDE) {
            double u = (iLo + i - 1) * AllocationPld.LOSS_GRID; // entry i bounds G at the grid point below
            if (!(u > 0) || u + logMean > MAX_LOG_THRESHOLD) {
                continue;
            }
            double c = mean * Math.exp(u);
            if (i >= blockEnd) {
                // the block's level: the one of SURVIVAL_LEVELS with the smallest bound at its first point
                double best = Double.POSITIVE_INFINITY;
                for (double level : SURVIVAL_LEVELS) {
                    double bl = level * mean * Math.expm1(u);
                    double ch = Math.exp(clampedSum.log(c, bl, true));
                    double total = ch + steps * singleShare(bl, c);
                    if (total < best || best == Double.POSITIVE_INFINITY) {
                        best = total;
                        b = bl;
                        chernoff = ch;
                    }
                }
                blockEnd = i + BLOCK;
            }
            double single = singleShare(b, c);
            double bound = ((chernoff + steps * single) / mean) * (1 + RELATIVE_SLACK) + Double.MIN_VALUE;
            if (!(bound < last)) {
                bound = last;
            }
            last = bound;
            for (int k = i; k < Math.min(g, i + STRIDE); k++) {
                out[k] = bound;
            }
            if (bound < SURVIVAL_TO) {
                for (int k = i + STRIDE; k <= g; k++) {
                    out[k] = bound;
                }
                break;
            }
        }
        return out;
    }

    /**
     * A lower bound on one epoch's survival function of the remove direction's loss, {@code G(u) = P_P(L > u)}, on
     * {@link AllocationPld}'s loss grid, in the layout of a lower end (entry {@code i} at most the mass at losses
     * {@code >= (iLo + i) h}, so at most {@code G} there; 0 where not computed, and at {@code +inf}): computed where the
     * lattice's lower end ({@code lattice}) has fallen below {@value #SURVIVAL_FROM}, at every grid step, then made
     * non-increasing (the largest value at or beyond each point, still at most {@code G} there).
     *
     * <p>With {@code b = c - (T - 1) e1} and the disjoint events {@code A_t = {w_t > b, w_s <= b for s != t}},
     * {@code E_Q[S; S > c] >= T E[(w_1 + R); w_1 > c - R, A_1] = T E[K(R); max_{s >= 2} w_s <= b]} with
     * {@code K(r) = E[(w + r); w > max(b, c - r)]} increasing in {@code r}; summed by parts over rungs
     * {@code r_j = (T - 1) e1 - z_j sd} below the rest's mean ({@link #LOWER_RUNGS}),
     * {@code E[K(R); ...] >= K(r_0) P_0 + sum_j (K(r_j) - K(r_{j-1})) P_j}, {@code P_j <= P(R >= r_j, max <= b)} being
     * {@code 1 - exp(-z_j^2 v / (2 E w^2)) - (T - 1) P(w > b)}: the lower tail of a sum of non-negative terms is
     * sub-Gaussian with variance proxy {@code (T - 1) E w^2} ({@code e^{-x} <= 1 - x + x^2/2} for {@code x >= 0}).
     */
    double[] survivalLower(double[] lattice, long iLo) {
        int g = lattice.length - 1;
        double[] out = new double[lattice.length];
        if (steps == 1) {
            return out;
        }
        int start = 0;
        while (start < g && !(lattice[start] < SURVIVAL_FROM)) {
            start++;
        }
        double mean = Math.exp(logMean);
        double restMean = (steps - 1) * termMean;
        double proxy = Math.expm1(tau * tau) / Math.exp(tau * tau) / 2; // v / (2 E w^2)
        double[] weight = new double[LOWER_RUNGS.length];
        for (int j = 0; j < LOWER_RUNGS.length; j++) {
            double z = LOWER_RUNGS[j];
            weight[j] = -Math.expm1(-z * z * proxy); // 1 - e^{-z^2 v/(2 E w^2)}, before P(w > b) is taken off
        }
        for (int i = start; i < g; i++) {
            int end = i;
            double u = (iLo + end) * AllocationPld.LOSS_GRID;
            if (!(u > 0) || u + logMean > MAX_LOG_THRESHOLD) {
                continue;
            }
            double c = mean * Math.exp(u);
            double b = mean * Math.expm1(u) + termMean; // c - (T - 1) e1
            double pb = Normal.sf(Math.log(b) / tau);
            double others = (steps - 1) * pb * (1 + 1e-12);
            double sum = 0;
            double previous = 0;
            for (int j = 0; j < LOWER_RUNGS.length; j++) {
                double r = restMean - LOWER_RUNGS[j] * spread;
                if (!(r >= 0)) {
                    continue;
                }
                double k = weightedTerm(b, c, r);
                double p = weight[j] - others;
                if (p > 0) {
                    sum += Math.max(0, k - previous - 1e-15 * k) * p;
                }
                previous = k;
            }
            double bound = Math.max(steps * sum, steps * convexShare(c, restMean)) / mean * (1 - RELATIVE_SLACK);
            if (!(bound > 0)) {
                continue;
            }
            for (int k = i; k <= end; k++) {
                out[k] = bound;
            }
            if (bound < SURVIVAL_TO) {
                break;
            }
        }
        // non-increasing from the right: G(u_i) >= G(u_j) >= out[j] for j > i, and a lower end must not rise (its
        // masses are the differences)
        for (int i = g - 1; i >= 0; i--) {
            out[i] = Math.max(out[i], out[i + 1]);
        }
        return out;
    }

    /**
     * The second lower bound of {@link #survivalLower} on {@code E[K(R); max_{s >= 2} w_s <= b]}: with
     * {@code b = (c - (T - 1) e1) / 2}, {@code K} is convex on {@code [0, c - b]} ({@code K'' = f(c - r) - c f'(c - r) > 0}
     * above the lognormal's mode) and increasing, so with the tangent at {@code r̄ = (T - 1) E[w; w <= b]},
     * {@code K(R) >= K(min(R, c - b)) >= K(r̄) + K'(r̄) (min(R, c - b) - r̄)}; in expectation on the event,
     * {@code (1 - p_b)^{T-1} K(r̄) + K'(r̄) (r̄ (1 - p_b)^{T-2} p_b - E(R - (c - b))_+)},
     * {@code K'(r) = c f(c - r) + P(w > c - r)}: Jensen's inequality, kept valid where the rest passes the kink.
     */
    private double convexShare(double c, double restMean) {
        double b = (c - restMean) / 2;
        if (!(b > 1)) {
            return 0;
        }
        double logB = Math.log(b);
        double pb = Normal.sf(logB / tau);
        double below = termMean * Normal.cdf((logB - tau * tau) / tau); // E[w; w <= b]
        double center = (steps - 1) * below;
        double none = Math.exp((steps - 1) * Math.log1p(-pb));
        double fewer = steps > 2 ? Math.exp((steps - 2) * Math.log1p(-pb)) : 1;
        double value = weightedTerm(b, c, center);
        double y = c - center;
        double density = Math.exp(Normal.logPdf(Math.log(y) / tau)) / (tau * y);
        double slope = c * density + Normal.sf(Math.log(y) / tau);
        double kink = c - b;
        int j = rungOf((kink - restMean) / spread);
        double beyond = rung(j) * spread + restMean <= kink ? restExcess()[j] : Double.POSITIVE_INFINITY;
        double gain = center * fewer * pb - beyond;
        // the slope's rounding, the safe way for the sign of what it multiplies
        double out = none * value + slope * gain * (gain < 0 ? 1 + 1e-9 : 1 - 1e-9);
        return out > 0 ? out * (1 - 1e-12) : 0;
    }

    /** The rest's rungs for {@link #survivalLower}, in standard deviations below its mean, descending. */
    static final double[] LOWER_RUNGS = {10, 8, 7, 6, 5, 4.5, 4, 3.5, 3, 2.5, 2, 1.5, 1, 0.75, 0.5, 0.25};

    /**
     * The smallest of {@link #weightedShare} over the starting rungs {@link #SURVIVAL_SPREADS} (measured at T = 10^4,
     * σ = 0.7, u = 0.5 and 1: the smallest came from z = 0, rising with z; each start costs a ladder).
     */
    private double singleShare(double b, double c) {
        double single = Double.POSITIVE_INFINITY;
        for (double z : SURVIVAL_SPREADS) {
            single = Math.min(single, weightedShare(b, c, z));
        }
        return single;
    }

    /**
     * {@code E K(R)} bounded from the rung at {@code z0} ({@link #survivalUpper}); {@code +inf} if the ladder ends
     * before {@code c - b}.
     */
    private double weightedShare(double b, double c, double z0) {
        double[] bounds = restExcess();
        double[] tails = restTails();
        double restMean = (steps - 1) * termMean;
        double pb = Normal.sf(Math.log(b) / tau);
        int j = rungOf(z0);
        double previous = weightedTerm(b, c, restMean + rung(j) * spread);
        double sum = previous * (1 + 1e-12);
        while (true) {
            double r = restMean + rung(j) * spread;
            if (c - r <= b) {
                return sum + pb * bounds[j] * (1 + 1e-12);
            }
            if (j + 1 >= RUNGS) {
                return Double.POSITIVE_INFINITY;
            }
            double next = weightedTerm(b, c, restMean + rung(j + 1) * spread);
            double z = rung(j);
            sum += (Math.max(0, next - previous) + 1e-15 * next) * tails[j];
            previous = next;
            j++;
        }
    }

    /** {@code K(r) = E[w; w > m] + r P(w > m)}, {@code m = max(b, c - r)}. */
    private double weightedTerm(double b, double c, double r) {
        double logM = Math.log(Math.max(b, c - r));
        return termMean * Normal.sf((logM - tau * tau) / tau) + r * Normal.sf(logM / tau);
    }


    private static double logSum(double a, double b, double c) {
        double m = Math.max(a, Math.max(b, c));
        if (m == Double.NEGATIVE_INFINITY || m == Double.POSITIVE_INFINITY) {
            return m;
        }
        return m + Math.log(Math.exp(a - m) + Math.exp(b - m) + Math.exp(c - m));
    }
}

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
 * the transform bounded above with its first moment in closed form and the rest on cells ({@link #logChernoff}).
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
 * <p><b>Where it is tight.</b> The two ends differ by the rest's spread against {@code c - M}: they meet as
 * {@code e^eps} grows against the bulk's relative spread. T = 10^4, σ = 0.7, by the variance alone: 4.5% wide at
 * ε = 1, 0.4% at 3, 0.009% at 7; at small ε the lattices are better, and both are kept (the caller takes the tighter
 * end). With the lattice's bound on the rest, T = 10^4, σ = 1: ε(1e-12) at most 0.1379 (the lattices alone: 0.5101;
 * the max test's lower end 0.1302). Refused ({@code +inf} / 0) where {@code c} would overflow ({@code log c} above
 * {@value #MAX_LOG_THRESHOLD}) or where the call's two terms cancel to within {@value #CANCELLATION_LIMIT} of each
 * other (large σ: their rounding could then exceed the relative allowance {@value #RELATIVE_SLACK}). One epoch only.
 */
final class AllocationDeepTail {
    /** The levels {@code b} tried, as fractions of {@code c - M}. */
    static final double[] LEVELS = {0.6, 0.75, 0.85, 0.9, 0.95};
    /** The spreads {@code z} tried: {@code r0 = (T - 1) e1 + z sd}. */
    static final double[] SPREADS = {0, 0.5, 1, 2, 3, 5};
    /** Relative allowance for floating-point rounding, added to the upper end and taken off the lower. */
    static final double RELATIVE_SLACK = 1e-9;
    /** The call is refused where its two terms agree to within this fraction (cancellation). */
    static final double CANCELLATION_LIMIT = 1e-4;
    /** Largest {@code log c} computed with (beyond it {@code c} would overflow). */
    static final double MAX_LOG_THRESHOLD = 700;
    /** The cells of {@code log w} reach down to this many standard deviations; the mass below is counted there. */
    static final double REACH = 12;
    /** Where the geometric cells of {@code y = w / b} start. */
    static final double SMALL_Y = 1e-3;
    /** The geometric cells' largest ratio ... */
    static final double CELL_RATIO = 0.01;
    /** ... and their largest width in {@code y} (near {@code y = 1}, where {@code e^{theta y}} grows fastest). */
    static final double TOP_CELL = 1e-3;
    /** The logarithmic cells' width in {@code log w}. */
    static final double LOG_CELL = 0.1;
    /** The Chernoff parameter {@code theta = lambda b} is searched on {@code [THETA_MIN, THETA_MAX]}. */
    static final double THETA_MIN = 1e-2;
    static final double THETA_MAX = 1e4;

    private final int steps;
    private final double tau;
    private final double logMean;
    private final double termMean;
    private final double spread;
    /** An upper bound on one epoch's remove-direction delta(eps) (the whole sum's excess), or null. */
    private final DoubleUnaryOperator wholeSum;
    /** {@code E(R - r_j)_+} bounded at the ladder's rungs (computed on first use). */
    private double[] restExcess;

    /** The bracket with the rest's excess bounded by its variance alone ({@link #scarf}). */
    AllocationDeepTail(int steps, double sigma) {
        this(steps, sigma, null);
    }

    /**
     * The bracket with the rest's excess also bounded through {@code wholeSum}, an upper bound on one epoch's
     * remove-direction {@code delta(eps) = E(S - M e^eps)_+ / M} (the lattice's): {@code R <= S}, so
     * {@code E(R - r)_+ <= M delta(log(r / M))}, far below the variance's bound a few standard deviations out.
     */
    AllocationDeepTail(int steps, double sigma, DoubleUnaryOperator wholeSum) {
        if (steps < 1 || !(sigma > 0)) {
            throw new IllegalArgumentException("steps = " + steps + ", sigma = " + sigma);
        }
        this.steps = steps;
        this.tau = 1 / sigma;
        this.termMean = Math.exp(tau * tau / 2);
        this.logMean = Math.log(steps) + tau * tau / 2;
        this.spread = Math.sqrt(steps - 1.0) * termMean * Math.sqrt(Math.expm1(tau * tau));
        this.wholeSum = wholeSum;
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
            double chernoff = logChernoff(c, b);
            for (double z : SPREADS) {
                double strike = excess + termMean - z * spread; // c - r0
                if (!(strike > 0)) {
                    continue;
                }
                double main = Math.log(steps) + logCall(Math.log(strike));
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
        double call = logCall(Math.log(strike));
        if (Double.isNaN(call)) {
            return 0;
        }
        double none = (steps - 1) * Math.log1p(-Math.exp(Normal.logSf(logB / tau)));
        double out = Math.exp(Math.log(steps) + none + call - logMean) * (1 - RELATIVE_SLACK);
        return out > 0 ? out : 0;
    }

    /**
     * {@code log E(w - k)_+} for {@code log w ~ N(0, tau^2)}: {@code e^{tau^2/2} Phi(-(d - tau)) - k Phi(-d)},
     * {@code d = log(k) / tau}; NaN where the two terms agree to within {@value #CANCELLATION_LIMIT}.
     */
    private double logCall(double logK) {
        double d = logK / tau;
        double first = tau * tau / 2 + Normal.logSf(d - tau);
        double second = logK + Normal.logSf(d);
        double ratio = Math.exp(second - first);
        if (!(ratio <= 1 - CANCELLATION_LIMIT)) {
            return Double.NaN;
        }
        return first + Math.log1p(-ratio);
    }

    /**
     * The log of Chernoff's bound on {@code E(S_b - c)_+}: {@code min_theta [-theta c/b - 1 - log theta + log b +
     * T log E e^{theta y}]}, {@code y = min(w, b)/b}, {@code theta = lambda b}; the objective is convex in
     * {@code theta}, searched on a log grid and then by golden section. The transform is
     * {@code 1 + theta E y + E g(theta y)}, {@code g(x) = e^x - 1 - x}: the first moment in closed form (a rounded
     * first moment would cost {@code T theta} times its error, the bulk's whole deviation), the remainder bounded on
     * cells of {@code y}, each at its top: geometric cells (ratio {@code 1 + min(}{@value #CELL_RATIO}{@code ,
     * }{@value #TOP_CELL}{@code / y)}) from {@value #SMALL_Y} up, and below it through {@code g(x) <= x^2 g(x*)/x*^2}
     * for {@code x <= x*} ({@code g(x)/x^2} increases) on cells of {@value #LOG_CELL} in {@code log w}.
     */
    private double logChernoff(double c, double b) {
        double logB = Math.log(b);
        double uLow = -REACH * tau;
        double uSmall = logB + Math.log(SMALL_Y);
        if (!(uLow < uSmall)) {
            return Double.POSITIVE_INFINITY; // b too small to be worth it: no bound (the others remain)
        }
        // E y, rounded up: (E[w; w <= b] + b P(w > b)) / b
        double above = Normal.sf(logB / tau);
        double firstMoment = (termMean * Normal.cdf((logB - tau * tau) / tau) / b + above) * (1 + 1e-13);
        // cells below SMALL_Y: sum_i P(cell_i) y_top(i)^2 (the mass below uLow counted at uLow)
        double squares = Normal.cdf(uLow / tau) * Math.exp(2 * (uLow - logB));
        double u = uLow;
        while (u < uSmall) {
            double next = Math.min(uSmall, u + LOG_CELL);
            squares += cellMass(u / tau, next / tau) * Math.exp(2 * (next - logB));
            u = next;
        }
        double[] mass = new double[4096];
        double[] top = new double[4096];
        int cells = 0;
        double y = SMALL_Y;
        double zPrev = uSmall / tau;
        while (y < 1) {
            double next = Math.min(1, y * (1 + Math.min(CELL_RATIO, TOP_CELL / y)));
            double z = (logB + Math.log(next)) / tau;
            if (cells == mass.length) {
                mass = java.util.Arrays.copyOf(mass, 2 * cells);
                top = java.util.Arrays.copyOf(top, 2 * cells);
            }
            mass[cells] = cellMass(zPrev, z);
            top[cells++] = next;
            zPrev = z;
            y = next;
        }
        Cells cellLaw = new Cells(firstMoment, squares, java.util.Arrays.copyOf(mass, cells),
                java.util.Arrays.copyOf(top, cells), above);
        double ratio = c / b;
        int grid = 48;
        double logLo = Math.log(THETA_MIN);
        double stepGrid = (Math.log(THETA_MAX) - logLo) / (grid - 1);
        double bestValue = Double.POSITIVE_INFINITY;
        int bestIndex = 0;
        for (int i = 0; i < grid; i++) {
            double v = objective(Math.exp(logLo + i * stepGrid), ratio, logB, cellLaw);
            if (v < bestValue) {
                bestValue = v;
                bestIndex = i;
            }
        }
        double a = logLo + Math.max(0, bestIndex - 1) * stepGrid;
        double z = logLo + Math.min(grid - 1, bestIndex + 1) * stepGrid;
        double golden = (Math.sqrt(5) - 1) / 2;
        for (int it = 0; it < 40; it++) {
            double x1 = z - golden * (z - a);
            double x2 = a + golden * (z - a);
            double f1 = objective(Math.exp(x1), ratio, logB, cellLaw);
            double f2 = objective(Math.exp(x2), ratio, logB, cellLaw);
            bestValue = Math.min(bestValue, Math.min(f1, f2));
            if (f1 < f2) {
                z = x2;
            } else {
                a = x1;
            }
        }
        return bestValue;
    }

    /** The law of {@code y = min(w, b)/b} as the Chernoff bound uses it (see {@link #logChernoff}). */
    private record Cells(double firstMoment, double squares, double[] mass, double[] top, double above) {
    }

    private double objective(double theta, double ratio, double logB, Cells law) {
        double xStar = theta * SMALL_Y;
        double excess = theta * law.firstMoment() + law.squares() * remainder(xStar) / (SMALL_Y * SMALL_Y);
        double[] mass = law.mass();
        double[] top = law.top();
        for (int i = 0; i < mass.length; i++) {
            excess += mass[i] * remainder(theta * top[i]);
        }
        excess += law.above() * remainder(theta);
        double logTransform = Math.log1p(excess * (1 + 1e-12));
        double value = -theta * ratio - 1 - Math.log(theta) + logB + steps * logTransform;
        return Double.isNaN(value) ? Double.POSITIVE_INFINITY : value; // an overflowed transform bounds nothing
    }

    /**
     * An upper bound on {@code g(x) = e^x - 1 - x}, {@code x >= 0}: below 0.01 {@code x^2 e^x / 2} (each term
     * {@code x^k/k! <= (x^2/2) x^{k-2}/(k-2)!}; 0.34% above g there), else {@code expm1(x) - x} with a relative
     * allowance for its rounding.
     */
    static double remainder(double x) {
        if (x < 0.01) {
            return 0.5 * x * x * Math.exp(x);
        }
        return (Math.expm1(x) - x) * (1 + 1e-13);
    }

    /**
     * An upper bound on {@code P(z0 < Z <= z1)}: the difference of the two tails on the side where they are small (no
     * cancellation against 1), plus an allowance for their own relative error (about 3e-16 each).
     */
    private static double cellMass(double z0, double z1) {
        double lo = z0 >= 0 ? Normal.sf(z1) : Normal.cdf(z0);
        double hi = z0 >= 0 ? Normal.sf(z0) : Normal.cdf(z1);
        return Math.max(0, hi - lo) + 1e-15 * hi;
    }

    private static double logSum(double a, double b, double c) {
        double m = Math.max(a, Math.max(b, c));
        if (m == Double.NEGATIVE_INFINITY || m == Double.POSITIVE_INFINITY) {
            return m;
        }
        return m + Math.log(Math.exp(a - m) + Math.exp(b - m) + Math.exp(c - m));
    }
}

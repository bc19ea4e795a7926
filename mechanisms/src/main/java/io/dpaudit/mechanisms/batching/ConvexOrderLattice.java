package io.dpaudit.mechanisms.batching;

/**
 * Balls-and-bins' sum {@code S} ({@link LognormalSumLattice}) on a lattice whose terms are moved in <i>convex
 * order</i> rather than rounded, for one epoch's curve without a rounding band. Under {@code Q} the likelihood ratio is
 * {@code X = S / (T mu)}, {@code mu = e^{tau^2/2}}, and both directions' hockey sticks are convex in {@code S}:
 * {@code delta_remove(eps) = E_Q[(X - e^eps)_+]} (and increasing), {@code delta_add(eps) = E_Q[(1 - e^eps X)_+]}.
 * <ul>
 *   <li><b>Split</b> ({@link Kind#SPLIT}, an upper end). A term {@code w} in {@code (i h, (i+1) h]} goes to
 *       {@code (i+1) h} with probability {@code (w - i h) / h} and to {@code i h} otherwise, so {@code E[w' | w] = w}.
 *       Summed over the independent terms, {@code S' = S + N} with {@code E[N | w_1..w_T] = 0}, so by Jensen's
 *       inequality (conditionally on the terms) {@code E phi(S') >= E phi(S)} for every convex {@code phi}: both
 *       hockey sticks of the split lattice are upper ends, their excess second order ({@code E N^2 <= T h^2 / 4}).
 *       Interval {@code i}'s mass {@code F_i} goes {@code F_i p_i} to point {@code i + 1} and the rest to {@code i},
 *       {@code p_i = (E[w; interval] - i h F_i) / (h F_i)}.</li>
 *   <li><b>Cell means, rounded down</b> ({@link Kind#CELL_MEANS}, a lower end of the remove direction). The terms'
 *       range is cut into cells ({@link CellPartition}) whose means lie at or just above lattice points, and a term is
 *       replaced by its cell's mean rounded down to the lattice. The cell means {@code E[S | cells]} are a conditional
 *       expectation of {@code S}, so in convex order below it, and rounding down lowers them:
 *       {@code E_Q[(X_cells - c)_+] <= E_Q[(X - c)_+]} for the increasing convex integrand.</li>
 * </ul>
 * Each cell's mass and partial mean are differences of normal tails (the partial mean is {@code mu} times the mass
 * under {@code log w ~ N(tau^2, tau^2)}), with relative error about {@code u i tau / z} at a term {@code i h}
 * ({@code z = log(i h) / tau}), under 1e-9 on every lattice used; the reads allow {@value #KAPPA} of each term
 * (the split's bias {@code |E[w' | w] - w| <= KAPPA (w + h)}, read as {@code S <= (S' + T KAPPA h) / (1 - KAPPA)}
 * for the remove direction and {@code S >= (S' - T KAPPA h) / (1 + KAPPA)} for the add direction; a cell's mean
 * lowered by its own rounding allowance, {@link CellPartition#meanError}), which the tests check against quadrature.
 *
 * <p>Terms above the clamp {@code B = n h} <i>escape</i>: on "no term escaped" the terms are independent with the law
 * restricted to {@code (0, B]} and the arguments hold there; an upper end adds the escape event's bound, a lower end
 * drops it. The clamp is separate from the lattice's length {@code m} (the sum's range), so that the exponential tilt
 * ({@link LognormalSumLattice#tiltInPlace}) that makes the round-off allowance relative in a tail is not capped by terms
 * near a far clamp. The sum's law is the term law's power by {@link CompensatedPower} (its low frequencies in
 * double-double), whose allowance has no factor {@code T} (T = 10^4, σ = 1: 1.6e-19 per point, 1.5e-15 in double). Reads sum the lattice between cuts and bound what lies beyond in closed form
 * ({@link #removeTail}, {@link #addTail}: Chernoff bounds on the term law's blocks).
 */
final class ConvexOrderLattice {
    /** Allowance for the rounding of the split positions, relative, per term. */
    static final double KAPPA = 1e-7;
    /**
     * A read stops at the first cut whose tail bound is under this fraction of the sum so far (further cuts could
     * lower the end by no more than that).
     */
    static final double STOP = 1e-6;
    /** Block length of the tail bounds' moment generating functions. */
    private static final int BLOCK = 64;
    /** Tilts per index of the tail bounds' Chernoff search: 5 per decade from 1e-12 to 1. */
    private static final double[] LAMBDAS = new double[61];

    static {
        for (int k = 0; k < LAMBDAS.length; k++) {
            LAMBDAS[k] = Math.pow(10, -12 + k / 5.0);
        }
    }

    /** How each term is moved onto the lattice. */
    enum Kind {
        /** Split between its two neighbouring points, its mean kept: an upper end of both directions. */
        SPLIT,
        /** Its cell's mean, rounded down: a lower end of the remove direction. */
        CELL_MEANS
    }

    private final Kind kind;
    private final int steps;
    private final double h;
    private final int n;
    private final double[] q;
    private final double eta;
    private final double tilt;
    private final double logScale;
    private final double mean;
    private final double escapeQ;
    /** The least sum on the escape event the reads add: {@code (k + 1) B}, {@code k} terms read apart. */
    private final double escapedSum;
    private final double escapeP;
    private final double alias;
    /** Per Chernoff tilt {@code LAMBDAS[k]}: log of {@code (h/mu) M'(l) M(l)^{T-1}} and of {@code M(-l)^T}. */
    private final double[] logUpperMoment;
    private final double[] logLowerMoment;
    /** The read masses' sums by blocks ({@link ReadSums}: from above on the split lattice, from below on the cells'). */
    private ReadSums sums;

    private ConvexOrderLattice(Kind kind, int steps, double h, int n, LognormalSumLattice.Powers sums, double tilt,
            double logScale, double tau, double[] moments, double alias, int apart) {
        this.kind = kind;
        this.steps = steps;
        this.h = h;
        this.n = n;
        this.q = sums.q();
        this.eta = sums.etaQ();
        this.tilt = tilt;
        this.logScale = logScale;
        this.mean = Math.exp(Math.log(steps) + tau * tau / 2);
        double clamp = n * h;
        this.escapeQ = TermEscape.atLeastUnderQ(apart + 1, steps, tau, clamp);
        this.escapedSum = (apart + 1) * clamp;
        this.escapeP = TermEscape.atLeast(apart + 1, steps, tau, clamp);
        this.logUpperMoment = java.util.Arrays.copyOfRange(moments, 0, LAMBDAS.length);
        this.logLowerMoment = java.util.Arrays.copyOfRange(moments, LAMBDAS.length, 2 * LAMBDAS.length);
        this.alias = alias;
    }

    /**
     * The lattice of {@code steps} terms of log-scale {@code tau}: spacing {@code h}, clamp index {@code n}
     * ({@code B = n h}), {@code m} points (a power of two, {@code m >= 2 n + 2}); {@code tiltAt >= 0} above the mean:
     * computed under the exponential tilt whose Chernoff bound on {@code Q(S' >= tiltAt h)} is tightest, halved until
     * no more than {@link LognormalSumLattice#WRAP_LIMIT} of the tilted mass wraps around (dropped under {@code 1/n}
     * per index).
     */
    static ConvexOrderLattice compute(Kind kind, int steps, double tau, double h, int n, int m, long tiltAt) {
        return of(kind, kind == Kind.SPLIT ? splitLaw(n, h, tau) : CellPartition.law(n, h, tau), steps, tau, h, n, m, tiltAt);
    }

    /** The same from one term's lattice law {@code a} (points {@code 0..n}): the tests plant faulty laws here. */
    static ConvexOrderLattice of(Kind kind, double[] a, int steps, double tau, double h, int n, int m, long tiltAt) {
        return of(term(kind, a, steps, tau, h, m), steps, tau, h, n, m, tiltAt);
    }

    /**
     * One term's lattice law with what every lattice made from it shares: the tail bounds' moments and the Chernoff
     * bound on the mass that wraps around {@code m} points.
     */
    record Term(Kind kind, double[] law, double[] moments, double alias, int apart) {
    }

    /** The {@link Term} of law {@code a} for {@code steps} terms on {@code m} points of spacing {@code h}. */
    static Term term(Kind kind, double[] a, int steps, double tau, double h, int m) {
        return term(kind, a, steps, tau, h, m, 0);
    }

    /**
     * The same, with the events of exactly one up to exactly {@code apart} terms above the clamp read apart
     * ({@link LargeTerms}: the reads then add only the probability of {@code apart + 1} or more).
     */
    static Term term(Kind kind, double[] a, int steps, double tau, double h, int m, int apart) {
        return new Term(kind, a, moments(a, steps, h, tau), LognormalSumLattice.chernoffAlias(a, a, 1, steps, m),
                apart);
    }

    /** The lattice of {@code term}, tilted as {@link #compute} says. */
    static ConvexOrderLattice of(Term term, int steps, double tau, double h, int n, int m, long tiltAt) {
        Kind kind = term.kind();
        double[] a = term.law();
        double[] moments = term.moments();
        double alias = term.alias();
        double tilt = 0;
        double logScale = 0;
        double[] law = a;
        if (tiltAt >= 0 && tiltAt > steps * LognormalSumLattice.meanIndex(a)) {
            double lambda = aimTilt(a, steps, tiltAt);
            // halved first on the cheap bound from the block sums, then checked exactly
            double[] blocks = LognormalSumLattice.blocks(a);
            while (lambda * n >= 1 && LognormalSumLattice.tiltedWrapBound(blocks, blocks, 1, steps, m, lambda)
                    > LognormalSumLattice.WRAP_LIMIT) {
                lambda /= 2;
            }
            for (int halvings = 0; halvings < 4 && lambda * n >= 1; halvings++) {
                double[] at = a.clone();
                double logZ = LognormalSumLattice.tiltInPlace(at, lambda);
                if (LognormalSumLattice.chernoffAlias(at, at, 1, steps, m) <= LognormalSumLattice.WRAP_LIMIT) {
                    tilt = lambda;
                    logScale = steps * logZ;
                    law = at;
                    break;
                }
                lambda /= 2;
            }
        }
        LognormalSumLattice.Powers sums = CompensatedPower.of(law, steps, m);
        if (sums == null) {
            sums = LognormalSumLattice.powers(law, null, steps, 0, m);
        }
        return new ConvexOrderLattice(kind, steps, h, n, sums, tilt, logScale, tau, moments, alias, term.apart());
    }

    /** One split term's masses on points {@code 0..n} (class comment). */
    static double[] splitLaw(int n, double h, double tau) {
        double[] mass = LognormalSumLattice.intervalMasses(n, h, tau, 0);
        double[] tilted = LognormalSumLattice.intervalMasses(n, h, tau, tau * tau);
        double mu = Math.exp(tau * tau / 2);
        double[] a = new double[n + 1];
        for (int i = 0; i < n; i++) {
            double f = mass[i];
            if (f > 0) {
                double p = Math.max(0, Math.min(1, (mu * tilted[i] - i * h * f) / (h * f)));
                a[i] += f * (1 - p);
                a[i + 1] += f * p;
            }
        }
        return a;
    }

    /**
     * The term law's blocks of {@value #BLOCK} points: {@code {log mass, mean index, last index}} per block with mass.
     * The mean is rounded up by {@code 1e-12} of itself plus {@code 1e-6} (a bound's side), the mass by {@code 1e-12}.
     */
    private static double[][] blocks(double[] a) {
        int count = (a.length + BLOCK - 1) / BLOCK;
        double[][] out = new double[3][count];
        for (int b = 0; b < count; b++) {
            double mass = 0;
            double first = 0;
            int last = Math.min(a.length, (b + 1) * BLOCK) - 1;
            for (int i = b * BLOCK; i <= last; i++) {
                mass += a[i];
                first += i * a[i];
            }
            out[0][b] = mass > 0 ? Math.log(mass * (1 + 1e-12)) : Double.NEGATIVE_INFINITY;
            out[1][b] = mass > 0 ? first / mass * (1 + 1e-12) + 1e-6 : 0;
            out[2][b] = last;
        }
        return out;
    }

    /**
     * {@code log sum_i a_i e^{l i}} (times {@code i} where {@code weighted}) bounded above through the blocks: within a
     * block of mean {@code c}, {@code sum a_i e^{l (i - c)} <= mass e^{l^2 (BLOCK - 1)^2 / 8}} (Hoeffding's lemma),
     * and {@code i} is at most the block's last index. For {@code l < 0} the mean is taken {@code 2e-6 + 2e-12 c}
     * lower (the rounded-up mean's other side).
     */
    private static double logMoment(double[][] blocks, double l, boolean weighted) {
        double spread = l * l * (BLOCK - 1.0) * (BLOCK - 1.0) / 8;
        double top = Double.NEGATIVE_INFINITY;
        int count = blocks[0].length;
        for (int b = 0; b < count; b++) {
            top = Math.max(top, exponent(blocks, b, l, weighted));
        }
        if (top == Double.NEGATIVE_INFINITY) {
            return top;
        }
        double sum = 0;
        for (int b = 0; b < count; b++) {
            double e = exponent(blocks, b, l, weighted);
            if (e > Double.NEGATIVE_INFINITY) {
                sum += Math.exp(e - top);
            }
        }
        return top + Math.log(sum) + spread;
    }

    private static double exponent(double[][] blocks, int b, double l, boolean weighted) {
        double logMass = blocks[0][b];
        if (logMass == Double.NEGATIVE_INFINITY) {
            return logMass;
        }
        double c = l >= 0 ? blocks[1][b] : blocks[1][b] * (1 - 2e-12) - 2e-6;
        return logMass + l * c + (weighted ? Math.log(Math.max(1, blocks[2][b])) : 0);
    }

    /**
     * The logs of the tail bounds' moments per tilt {@code l = LAMBDAS[k]}: {@code (h/mu) M'(l) M(l)^{T-1}} (first
     * half) and {@code M(-l)^T} (second half), {@code M(l) = sum_i a_i e^{l i}} ({@link #logMoment}).
     */
    private static double[] moments(double[] a, int steps, double h, double tau) {
        double[][] blocks = blocks(a);
        double logHOverMu = Math.log(h) - tau * tau / 2;
        double[] out = new double[2 * LAMBDAS.length];
        for (int k = 0; k < LAMBDAS.length; k++) {
            double l = LAMBDAS[k];
            out[k] = logHOverMu + logMoment(blocks, l, true) + (steps - 1) * logMoment(blocks, l, false) + 1e-9;
            out[LAMBDAS.length + k] = steps * logMoment(blocks, -l, false) + 1e-9;
        }
        return out;
    }

    /**
     * The tilt (per index) whose Chernoff exponent {@code T log M(l) - l j} is smallest, by golden section on
     * {@code [0, 60 / n]} with the blocks' moments ({@link #logMoment}; any tilt is valid, this only aims it).
     */
    static double aimTilt(double[] a, int steps, long j) {
        double[][] blocks = blocks(a);
        double lo = 0;
        double hi = 60.0 / a.length;
        double g = (Math.sqrt(5) - 1) / 2;
        for (int it = 0; it < 60; it++) {
            double c = hi - g * (hi - lo);
            double d = lo + g * (hi - lo);
            double fc = steps * logMoment(blocks, c, false) - c * j;
            double fd = steps * logMoment(blocks, d, false) - d * j;
            if (fc < fd) {
                hi = d;
            } else {
                lo = c;
            }
        }
        return (lo + hi) / 2;
    }

    /** An upper bound on {@code E_Q[X; S' >= j h]} (the true sum, wrapped around the lattice or not), by Chernoff. */
    double removeTail(long j) {
        double best = 0;
        for (int k = 0; k < LAMBDAS.length; k++) {
            best = Math.min(best, logUpperMoment[k] - LAMBDAS[k] * j);
        }
        return Math.exp(best);
    }

    /** An upper bound on {@code Q(S' <= j h)}, by Chernoff. */
    double addTail(long j) {
        double best = 0;
        for (int k = 0; k < LAMBDAS.length; k++) {
            best = Math.min(best, logLowerMoment[k] + LAMBDAS[k] * j);
        }
        return Math.exp(best);
    }

    /** Bound on point {@code j}'s mass on the original scale, from above ({@code +inf} possible) or below (0 at worst). */
    double mass(int j, boolean upper) {
        double x = upper ? q[j] + eta : q[j] - eta;
        if (!(x > 0)) {
            return 0;
        }
        if (tilt == 0) {
            return x;
        }
        double v = Math.exp(Math.log(x) + logScale - tilt * j);
        return upper ? v * (1 + 1e-11) : v < Double.POSITIVE_INFINITY ? v * (1 - 1e-11) : 0;
    }

    /** The lattice's length {@code m}. */
    int points() {
        return q.length;
    }

    /** The number of terms {@code T}. */
    int steps() {
        return steps;
    }

    /** The mean sum {@code T mu}. */
    double meanSum() {
        return mean;
    }

    /** The clamp {@code B = n h}. */
    double clamp() {
        return n * h;
    }

    /**
     * The probability under {@code P} that some term escaped, or k + 1 or more where k are read apart
     * ({@link LargeTerms}), rounded up: what the remove direction's upper reads add.
     */
    double escapeUnderP() {
        return escapeP;
    }

    /** The probability under {@code Q} that some term escaped, or k + 1 or more where k are read apart (rounded up). */
    double escapeUnderQ() {
        return escapeQ;
    }

    /** The least sum on the escape event {@link #escapeUnderQ} counts: {@code (k + 1) B}, {@code k} terms read apart. */
    double escapedSum() {
        return escapedSum;
    }

    /** A Chernoff bound on the lattice mass that wrapped around (true sums at or above {@code m h}). */
    double aliasMass() {
        return alias;
    }

    /** The lattice spacing. */
    double spacing() {
        return h;
    }

    /** The lattice index of the sum {@code T mu e^eps} (where the remove direction's integrand starts). */
    double indexOf(double eps) {
        return mean * Math.exp(eps) / h;
    }

    /**
     * The split lattice's upper end on {@code delta_remove(eps)}: point {@code j} read as the sum
     * {@code (j h + T KAPPA h) / (1 - KAPPA)}, summed from the first point above {@code e^eps} to a cut (the best of
     * {@code 2^k} points on, up to the first whose tail is under {@value #STOP} of the sum; the sums by blocks,
     * {@link #range}, plus their rounding), beyond which
     * {@link #removeTail} bounds the rest; plus {@code E_Q[X; escape] = P(escape)}.
     */
    double removeUpper(double eps) {
        requireKind(Kind.SPLIT);
        double c = Math.exp(eps);
        double shift = steps * KAPPA * h;
        double scale = 1 / (1 - KAPPA);
        double start = Math.ceil((c * mean / scale - shift) / h);
        if (!(start < q.length)) {
            return Math.min(1, escapeP + removeTail((long) Math.min(start, 1e18)));
        }
        int from = (int) Math.max(0, start);
        // x_j = a j + b at every point read (all at or above c)
        double a = h * scale / mean;
        double b = shift * scale / mean;
        double best = removeTail(from);
        double[] totals = new double[2];
        for (long step = 1;; step <<= 1) {
            int to = (int) Math.min(q.length, from + step);
            double slack = range(from, to, totals, a, c - b);
            double partial = Math.max(0, a * totals[1] - (c - b) * totals[0]) + slack;
            if (!(partial < Double.POSITIVE_INFINITY)) {
                break;
            }
            double tail = removeTail(to);
            best = Math.min(best, partial * (1 + 1e-8) + tail);
            if (to == q.length || !(partial < best) || tail <= STOP * partial) {
                break;
            }
        }
        return Math.min(1, best + escapeP);
    }

    /**
     * The split lattice's upper end on {@code delta_add(eps)}: point {@code j} read as the sum
     * {@code (j h - T KAPPA h) / (1 + KAPPA)}, summed down from the last point under {@code e^{-eps}} to a cut, below
     * which {@link #addTail} bounds the probability; the escape event adds at most
     * {@code Q(escape) (1 - e^eps B / (T mu))_+} ({@code (k + 1) B} and k + 1 or more terms where k are read apart).
     */
    double addUpper(double eps) {
        requireKind(Kind.SPLIT);
        double c = Math.exp(eps);
        double shift = steps * KAPPA * h;
        double scale = 1 / (1 + KAPPA);
        int from = (int) Math.min(q.length - 1, Math.floor((mean / c / scale + shift) / h));
        double escaped = escapeQ * Math.max(0, 1 - c * escapedSum / mean);
        if (from < 0) {
            return Math.min(1, escaped);
        }
        double best = addTail(from);
        double partial = 0;
        long next = 1;
        for (int j = from; j >= 0; j--) {
            double w = Math.min(1, 1 - c * (j * h - shift) * scale / mean);
            if (w > 0) {
                partial += mass(j, true) * w;
            }
            if (from + 1 - j == next || j == 0) {
                next <<= 1;
                double tail = j == 0 ? 0 : addTail(j - 1);
                best = Math.min(best, partial * (1 + 1e-8) + tail);
                if (!(partial < best) || tail <= STOP * partial) {
                    break;
                }
            }
        }
        return Math.min(1, best + escaped);
    }

    /**
     * The cell-mean lattice's lower end on {@code delta_remove(eps)}: each point's mass bounded from below, at the sum
     * {@code j h}, summed over every point above {@code e^eps} (each term is at least 0; the sums by blocks,
     * {@link #range}, less their rounding), less the mass that may have wrapped around onto those points (at most the
     * Chernoff bound on sums {@code >= m}, each at weight at most {@code m h / (T mu)}); the escape event is dropped.
     */
    double removeLower(double eps) {
        requireKind(Kind.CELL_MEANS);
        double c = Math.exp(eps);
        double start = Math.floor(c * mean / h) + 1;
        int from = (int) Math.max(0, Math.min(q.length, start));
        // x_j = a j at every point read (all above c); every term is at least 0, so all of them are read
        double a = h / mean;
        double[] totals = new double[2];
        double slack = range(from, q.length, totals, a, c);
        double sum = a * totals[1] - c * totals[0] - slack;
        if (!(sum >= 0)) {
            return 0;
        }
        return Math.max(0, sum * (1 - 1e-8) - alias * q.length * h / mean);
    }

    /** {@link ReadSums#range} over this lattice's read masses (made on the first read). */
    private double range(int from, int to, double[] out, double a, double w) {
        boolean upper = kind == Kind.SPLIT;
        if (sums == null) {
            sums = ReadSums.of(q.length, k -> mass(k, upper));
        }
        return sums.range(from, to, out, a, w, k -> mass(k, upper));
    }

    private void requireKind(Kind wanted) {
        if (kind != wanted) {
            throw new IllegalStateException("a " + kind + " lattice read as " + wanted);
        }
    }
}

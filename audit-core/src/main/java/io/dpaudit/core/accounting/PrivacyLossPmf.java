package io.dpaudit.core.accounting;

import io.dpaudit.core.numerics.Fft;
import io.dpaudit.core.numerics.LogSpace;
import java.util.ArrayList;
import java.util.List;
import java.util.function.DoubleUnaryOperator;

/**
 * A discrete privacy-loss distribution (PLD) on the grid {@code l_j = (offset + j) h}, plus a mass at {@code +inf}.
 * For a pair {@code (P, Q)} the privacy loss {@code L = log(dP/dQ)} under {@code P} has this law; its hockey-stick
 * curve is {@code delta(eps) = p_inf + sum_j p_j (1 - e^{eps - l_j})_+}.
 *
 * <p><b>Discretisation.</b> Pessimistic <b>connect-the-dots</b> (Doroshenko, Ghazi, Kamath, Kumar &amp; Manurangsi
 * 2022): the masses make the discrete curve equal the exact profile at every grid point and linear in {@code e^eps}
 * between them. A profile is convex in {@code e^eps}, so the chord lies above it: the discrete PLD dominates the true
 * pair for every ε, and so do its compositions (dominating pairs compose; Zhu, Dong &amp; Wang 2022).
 *
 * <p><b>Composition.</b> Fourier transforms ({@link Fft}, chosen over commons-math3's for accuracy) are raised to the counts and multiplied, on a
 * window of total loss chosen by a Chernoff bound so that at most {@code tau} of the mass lies outside it (Koskela,
 * Jälkö &amp; Honkela 2020). Mass outside the window can only alias into it, which adds mass; the missing upper tail is
 * added to {@code p_inf}. Round-off is bounded per grid point by {@code eta}, the larger of twice the most negative
 * entry the inverse transform produces (zero in exact arithmetic) and the model {@code 4 T u log2(n) max_j c_j}
 * (coefficient errors of about {@code u log2 n} grow T-fold under the power), and {@code eta} is added to every
 * entry, so every δ(ε) stays an upper bound. Mass found missing against the exact total goes to {@code p_inf}.
 *
 * <p><b>Tilting.</b> FFT round-off is relative to the largest entry, so far tails — small δ — drown in it. A
 * composition can therefore be computed under an exponential tilt {@code theta}: every factor's masses are replaced by
 * {@code p_j e^{theta l_j}} (normalised), the tilted masses are composed (their bulk now sits in the upper tail), and
 * the true masses are recovered as {@code c_j = ctilde_j e^{S - theta l_j}}, where {@code S} is the sum of the
 * factors' log normalisers. Round-off then scales with the true tail masses themselves. A tilted PLD drops the
 * untilted bulk below its window, so it answers only for {@code eps >= l_lo} ({@link #validFrom()}).
 */
final class PrivacyLossPmf {
    /** Largest FFT length used by {@link #compose}. */
    static final int MAX_FFT_LENGTH = 1 << 23;

    private final double h;
    private final long offset;
    private final double[] masses;     // tilted masses when theta > 0
    private final double infinityMass;
    private final double roundOff;     // eta, already added to every mass
    private final double theta;
    private final double logScale;     // S
    private final double validFrom;

    private PrivacyLossPmf(double h, long offset, double[] masses, double infinityMass, double roundOff, double theta,
            double logScale, double validFrom) {
        this.h = h;
        this.offset = offset;
        this.masses = masses;
        this.infinityMass = Math.min(1.0, infinityMass);
        this.roundOff = roundOff;
        this.theta = theta;
        this.logScale = logScale;
        this.validFrom = validFrom;
    }

    double h() {
        return h;
    }

    long offset() {
        return offset;
    }

    int length() {
        return masses.length;
    }

    double infinityMass() {
        return infinityMass;
    }

    /** The round-off allowance {@code eta} added to every (tilted) entry. */
    double roundOffPerPoint() {
        return roundOff;
    }

    /** Tilt of this PLD (0 when untilted). */
    double theta() {
        return theta;
    }

    /** Smallest ε this PLD answers for ({@code -inf} when untilted). */
    double validFrom() {
        return validFrom;
    }

    double loss(int j) {
        return (offset + j) * h;
    }

    /** log of the true mass of entry {@code j}. */
    private double logMass(int j) {
        return Math.log(masses[j]) + logScale - theta * loss(j);
    }

    /**
     * The connect-the-dots PLD of a pair whose exact hockey-stick profile is {@code profile}, on the grid points
     * covering {@code [lossLo, lossHi]} (the losses where the pair has mass; what lies above goes to {@code +inf}).
     *
     * <p>Connect-the-dots needs a profile that is convex in {@code gamma = e^eps} (every true profile
     * {@code H_gamma(P||Q) = sup_S P(S) - gamma Q(S)} is, and {@code H_0 = 1}); a claimed profile need not be (a
     * theorem's formula, or a misprinted one that jumps). A mechanism that meets a claim at every {@code eps} has a
     * convex profile below it, hence below the claim's greatest convex minorant; so the values are replaced by that
     * minorant (through the point {@code (0, 1)}) wherever it lies materially (1e-9 relative) below them. A convex
     * profile keeps its values; before, the negative masses a non-convex one implies were dropped, which for a
     * profile jumping from 1 to {@code q} at 0 left most of the mass nowhere.
     */
    static PrivacyLossPmf connectTheDots(DoubleUnaryOperator profile, double lossLo, double lossHi, double h) {
        long iLo = (long) Math.floor(lossLo / h);
        long iHi = (long) Math.ceil(lossHi / h);
        if (iHi <= iLo) {
            iHi = iLo + 1;
        }
        long n = iHi - iLo + 1;
        if (n > (1 << 26)) {
            throw new IllegalStateException("PLD grid of " + n + " points; the caller must coarsen h");
        }
        int len = (int) n;
        double[] delta = new double[len];
        for (int i = 0; i < len; i++) {
            double d = profile.applyAsDouble((iLo + i) * h);
            // A profile is non-increasing; enforce it against round-off.
            delta[i] = i == 0 ? Math.min(1.0, d) : Math.min(d, delta[i - 1]);
        }
        convexMinorant(delta, iLo, h);
        double[] p = new double[len];
        double eh = Math.expm1(h);        // e^h - 1
        double emh = Math.expm1(-h);      // e^-h - 1
        p[0] = 1 - delta[0] + (delta[1] - delta[0]) / eh;
        for (int i = 1; i < len - 1; i++) {
            p[i] = ((delta[i + 1] - delta[i]) - Math.exp(h) * (delta[i] - delta[i - 1])) / eh;
        }
        p[len - 1] = (delta[len - 1] - delta[len - 2]) / emh;
        for (int i = 0; i < len; i++) {
            if (!(p[i] > 0)) {
                p[i] = 0;
            }
        }
        return new PrivacyLossPmf(h, iLo, p, delta[len - 1], 0.0, 0.0, 0.0, Double.NEGATIVE_INFINITY);
    }

    /**
     * Lowers {@code delta[i]} (at {@code gamma_i = e^{(first + i) h}}) to the greatest convex minorant of the points
     * and {@code (0, 1)} where that lies more than 1e-9 relative below (Andrew's monotone chain, lower hull).
     */
    static void convexMinorant(double[] delta, long first, double h) {
        int n = delta.length;
        double[] x = new double[n + 1];
        double[] y = new double[n + 1];
        x[0] = 0;
        y[0] = 1;
        for (int i = 0; i < n; i++) {
            x[i + 1] = Math.exp((first + i) * h);
            y[i + 1] = delta[i];
        }
        int[] hull = new int[n + 1];
        int size = 0;
        for (int k = 0; k <= n; k++) {
            while (size >= 2) {
                int a = hull[size - 2];
                int b = hull[size - 1];
                double cross = (x[b] - x[a]) * (y[k] - y[a]) - (y[b] - y[a]) * (x[k] - x[a]);
                if (cross > 0) {
                    break; // a, b, k turn left: b stays on the lower hull
                }
                size--;
            }
            hull[size++] = k;
        }
        for (int s = 0; s + 1 < size; s++) {
            int a = hull[s];
            int b = hull[s + 1];
            for (int k = a + 1; k < b; k++) {
                double w = (x[k] - x[a]) / (x[b] - x[a]);
                double chord = y[a] + w * (y[b] - y[a]);
                if (chord < y[k] * (1 - 1e-9)) {
                    delta[k - 1] = Math.max(0.0, chord);
                }
            }
        }
    }

    /**
     * The PLD of a finite privacy-loss distribution on the grid of spacing {@code h}: each loss is moved to the grid
     * point above it ({@code roundUp}, the pessimistic discretisation: every {@code delta(eps)} can only grow, so the
     * result dominates the pair; Meiser &amp; Mohammadi 2018) or below it (the optimistic one, for the lower end of a
     * bracket). Masses on one grid point add up.
     */
    static PrivacyLossPmf fromLosses(double[] losses, double[] masses, double infinityMass, double h,
            boolean roundUp) {
        if (losses.length == 0) {
            return new PrivacyLossPmf(h, 0, new double[1], infinityMass, 0.0, 0.0, 0.0, Double.NEGATIVE_INFINITY);
        }
        long lo = Long.MAX_VALUE;
        long hi = Long.MIN_VALUE;
        long[] index = new long[losses.length];
        for (int i = 0; i < losses.length; i++) {
            double x = losses[i] / h;
            index[i] = (long) (roundUp ? Math.ceil(x) : Math.floor(x));
            lo = Math.min(lo, index[i]);
            hi = Math.max(hi, index[i]);
        }
        if (hi - lo + 1 > (1 << 26)) {
            throw new IllegalStateException("PLD grid of " + (hi - lo + 1) + " points; the caller must coarsen h");
        }
        double[] p = new double[(int) (hi - lo + 1)];
        for (int i = 0; i < losses.length; i++) {
            p[(int) (index[i] - lo)] += masses[i];
        }
        return new PrivacyLossPmf(h, lo, p, infinityMass, 0.0, 0.0, 0.0, Double.NEGATIVE_INFINITY);
    }

    /** {@code delta(eps) = p_inf + sum_{l_j > eps} p_j (1 - e^{eps - l_j})}; NaN below {@link #validFrom()}. */
    double delta(double epsilon) {
        if (epsilon < validFrom) {
            return Double.NaN;
        }
        double sum = 0;
        for (int j = masses.length - 1; j >= 0; j--) {
            double l = loss(j);
            if (l <= epsilon) {
                break;
            }
            if (masses[j] > 0) {
                double m = theta == 0 ? masses[j] : Math.exp(logMass(j));
                sum += m * LogSpace.oneMinusExp(epsilon - l);
            }
        }
        return Math.min(1.0, infinityMass + sum);
    }

    /**
     * Upper bounds on {@link #delta} at every one of {@code epsilons} (ascending), in one pass from the top instead of
     * one scan per ε: on the losses above ε, {@code delta(eps) = p_inf + U - e^eps W} with {@code U = sum p_j}
     * (compensated summation) and {@code W = sum p_j e^{-l_j}} (scaled, its factors built by repeated multiplication
     * by {@code e^h}). The subtraction can cancel where δ is small against {@code U}, so each value is raised by a
     * bound on the floating-point error of the sums, {@code (8k + 16) 2^-52 (U + e^eps W)} for {@code k} terms: an upper bound whose absolute error is below
     * {@code 1e-9 (U + e^eps W)} for a million grid points — what tabulating a trade-off function needs, not what a
     * tail query at δ = 1e-12 needs ({@link #delta} does that). NaN below {@link #validFrom()}.
     */
    double[] deltas(double[] epsilons) {
        if (theta != 0) {
            double[] out = new double[epsilons.length];
            for (int i = 0; i < out.length; i++) {
                out[i] = delta(epsilons[i]);
            }
            return out;
        }
        if (epsilons.length == 1 && masses.length >= 4 * CHECKPOINT_STRIDE) {
            return new double[] {deltaFromCheckpoint(epsilons[0])};
        }
        double[] out = new double[epsilons.length];
        Scan scan = new Scan();
        for (int i = epsilons.length - 1; i >= 0; i--) {
            double eps = epsilons[i];
            if (i < epsilons.length - 1 && eps > epsilons[i + 1]) {
                throw new IllegalArgumentException("epsilons must be ascending");
            }
            scan.downTo(eps);
            out[i] = scan.delta(eps);
        }
        return out;
    }

    /**
     * The one-pass scan of {@link #deltas} from the top entry down: on the losses passed, {@code U = sum p_j}
     * (compensated) and {@code W = sum p_j e^{-l_j}} kept as {@code e^{-scale} * scaled}; each step down the grid
     * multiplies the factor {@code e^{scale - l_j}} by {@code e^h}, and the scale moves down when the factor grows past
     * {@code 2^600}. Its state can be saved and resumed ({@link #deltaFromCheckpoint}) with the same operations.
     */
    private final class Scan {
        private final double up = Math.exp(h);
        private int j;
        private double sum;
        private double compensation;
        private double scale;
        private double factor = 1;
        private double scaled;
        private long terms;

        Scan() {
            j = masses.length - 1;
            scale = j >= 0 ? loss(j) : 0;
        }

        /** The state saved at slot {@code k} of {@code st}: entry {@code top - k * CHECKPOINT_STRIDE} is next. */
        Scan(ScanStates st, int k) {
            j = masses.length - 1 - k * CHECKPOINT_STRIDE;
            sum = st.sum()[k];
            compensation = st.compensation()[k];
            scale = st.scale()[k];
            factor = st.factor()[k];
            scaled = st.scaled()[k];
            terms = st.terms()[k];
        }

        /** Passes entry {@code j} and moves to the next one down. */
        void step() {
            double m = masses[j];
            if (m > 0) {
                double y = m - compensation; // Kahan
                double t = sum + y;
                compensation = (t - sum) - y;
                sum = t;
                scaled += m * factor;
                terms++;
            }
            j--;
            factor *= up;
            if (factor > 0x1p600 && j >= 0) {
                double newScale = loss(j);
                scaled *= Math.exp(newScale - scale);
                scale = newScale;
                factor = 1;
            }
        }

        /** Passes every entry whose loss exceeds {@code eps}. */
        void downTo(double eps) {
            while (j >= 0 && loss(j) > eps) {
                step();
            }
        }

        /** The upper bound on δ at {@code eps} from the entries passed (all those above {@code eps}). */
        double delta(double eps) {
            if (eps < validFrom) {
                return Double.NaN;
            }
            double sub = scaled == 0 ? 0 : Math.exp(eps - scale) * scaled;
            double slack = (8.0 * terms + 16) * 0x1p-52 * (sum + sub);
            return Math.min(1.0, infinityMass + Math.max(0.0, sum - sub) + slack);
        }

        void saveTo(ScanStates st, int k) {
            st.sum()[k] = sum;
            st.compensation()[k] = compensation;
            st.scale()[k] = scale;
            st.factor()[k] = factor;
            st.scaled()[k] = scaled;
            st.terms()[k] = terms;
        }
    }

    /** Entries between two saved states of the one-pass scan ({@link #deltaFromCheckpoint}). */
    static final int CHECKPOINT_STRIDE = 64;

    /**
     * The one-pass scan's state before entry {@code top - k * CHECKPOINT_STRIDE}, for every {@code k}: its sums, scale,
     * factor and term count. Built on the first single-point query (one pass, the same operations as
     * {@link #deltas}) and kept; about 1 byte per entry.
     */
    private volatile ScanStates scanStates;

    private record ScanStates(double[] sum, double[] compensation, double[] scale, double[] factor, double[] scaled,
            long[] terms) {
    }

    private ScanStates scanStates() {
        ScanStates st = scanStates;
        if (st != null) {
            return st;
        }
        int top = masses.length - 1;
        int count = top / CHECKPOINT_STRIDE + 1;
        st = new ScanStates(new double[count], new double[count], new double[count], new double[count],
                new double[count], new long[count]);
        Scan scan = new Scan();
        for (int k = 0; k < count; k++) {
            scan.saveTo(st, k);
            for (int i = 0; i < CHECKPOINT_STRIDE && scan.j >= 0; i++) {
                scan.step();
            }
        }
        scanStates = st;
        return st;
    }

    /**
     * {@link #deltas} at one ε, bit for bit, without the scan from the top: the scan resumes from the saved state
     * nearest above the first entry at or below ε and performs the same operations from there (so a curve refined
     * point by point costs {@code O(CHECKPOINT_STRIDE)} per point instead of a pass over the whole distribution).
     */
    private double deltaFromCheckpoint(double eps) {
        ScanStates st = scanStates();
        int top = masses.length - 1;
        int stop = -1; // the largest j with loss(j) <= eps, where the scan stops (-1 if none)
        if (loss(0) <= eps) {
            int lo = 0;
            int hi = top;
            while (lo < hi) {
                int mid = (lo + hi + 1) >>> 1;
                if (loss(mid) <= eps) {
                    lo = mid;
                } else {
                    hi = mid - 1;
                }
            }
            stop = lo;
        }
        int k = stop < 0 ? top / CHECKPOINT_STRIDE : (top - stop) / CHECKPOINT_STRIDE;
        Scan scan = new Scan(st, k);
        scan.downTo(eps);
        return scan.delta(eps);
    }

    /**
     * The smallest {@code eps >= max(0, validFrom)} with {@code delta(eps) <= target}, by one scan from the top: on
     * {@code [l_{j-1}, l_j)} the curve is {@code U - e^eps W} with {@code U = p_inf + sum_{i>=j} p_i} and
     * {@code W = sum_{i>=j} p_i e^{-l_i}} ({@code W} in log space). {@code +inf} when {@code p_inf >= target} or when
     * the answer would lie below {@link #validFrom()}.
     */
    double epsilon(double target) {
        if (infinityMass >= target) {
            return Double.POSITIVE_INFINITY;
        }
        double upper = infinityMass;
        double logW = Double.NEGATIVE_INFINITY;
        for (int j = masses.length - 1; j >= 0; j--) {
            if (masses[j] > 0) {
                double lm = logMass(j);
                upper += Math.exp(lm);
                logW = LogSpace.add(logW, lm - loss(j));
            }
            double segmentLo = j > 0 ? loss(j - 1) : Double.NEGATIVE_INFINITY;
            if (logW == Double.NEGATIVE_INFINITY || upper <= target) {
                if (segmentLo < validFrom) {
                    break;
                }
                continue;
            }
            double eps = Math.log(upper - target) - logW;
            if (eps >= segmentLo) {
                return eps < validFrom ? Double.POSITIVE_INFINITY : Math.max(0.0, eps);
            }
            if (segmentLo < validFrom) {
                break;
            }
        }
        return validFrom > Double.NEGATIVE_INFINITY ? Double.POSITIVE_INFINITY : 0.0;
    }

    /** The part of {@code delta(eps)} owed to the round-off allowance (an upper estimate). */
    double roundOffShare(double epsilon) {
        if (roundOff == 0) {
            return 0;
        }
        double sum = 0;
        for (int j = masses.length - 1; j >= 0 && loss(j) > epsilon; j--) {
            sum += Math.exp(Math.log(roundOff) + logScale - theta * loss(j)) * LogSpace.oneMinusExp(epsilon - loss(j));
        }
        return sum;
    }

    /** One factor of a composition: a PLD repeated {@code count} times. */
    record Term(PrivacyLossPmf pmf, long count) {
    }

    /**
     * The Chernoff window of total loss indices of a composition, {@code [lo, hi]}: for {@code t > 0},
     * {@code P(S >= b) <= prod_i M_i(t)^{T_i} e^{-t b}}, which equals {@code tau/2} at
     * {@code b(t) = (sum_i T_i log M_i(t) + log(2/tau)) / t}; {@code hi} is the smallest such {@code b} and {@code lo}
     * the largest from {@code t < 0}. {@code b(t)} is searched over {@code |t|} from 1e-9 to 1e3 (index units) on a
     * logarithmic grid refined by golden-section search: the optimum can sit far from {@code 1/sd} when a factor is a
     * spike plus rare long jumps (Poisson sampling with tiny q).
     */
    static long[] window(List<Term> terms, double tau) {
        long supportLo = 0;
        long supportHi = 0;
        for (Term t : terms) {
            supportLo += t.count() * t.pmf().offset;
            supportHi += t.count() * (t.pmf().offset + t.pmf().length() - 1);
        }
        double logTail = Math.log(2 / tau);
        double hi = Math.ceil(chernoff(terms, logTail, 1.0));
        double lo = Math.floor(chernoff(terms, logTail, -1.0));
        long wLo = (long) Math.max(supportLo, Math.min(lo, supportHi));
        long wHi = (long) Math.min(supportHi, Math.max(hi, supportLo));
        if (wHi < wLo) {
            wHi = wLo;
        }
        return new long[] {wLo, wHi};
    }

    /**
     * The best Chernoff threshold for {@code t} of the given sign: min over {@code t > 0}, max over {@code t < 0}.
     *
     * <p>Every {@code b(t)} is a valid threshold, so the search only decides how tight the window is. Stage one
     * locates the optimum on a cheap upper bound of {@code b} (each PLD's masses summed in blocks of {@value #BLOCK}
     * entries and placed at the block's end in the direction of {@code t}, which can only raise the moment generating
     * function): the logarithmic grid and 30 golden-section steps. Stage two refines it on the exact {@code b} by
     * Newton's method on the stationarity condition {@code u phi'(u) = phi(u)} of {@code b = phi(u)/u}, {@code u = |t|},
     * {@code phi = sum_i T_i K_i(+-u) + log(2/tau)} with {@code K_i} the cumulant generating functions (one pass over
     * each PLD gives {@code K}, {@code K'} and {@code K''}; {@code u phi' - phi} increases in {@code u}, so a bracket
     * guards the steps). The answer is the best exact value seen. Before, all 45 steps of the search were exact passes
     * over every PLD: half the time of a short composition.
     */
    private static double chernoff(List<Term> terms, double logTail, double sign) {
        java.util.function.DoubleUnaryOperator blocked = logT -> threshold(terms, logTail, sign, logT, true);
        double lo = Math.log(1e-9);
        double hi = Math.log(1e3);
        int grid = 12;
        double best = lo;
        double bestValue = Double.POSITIVE_INFINITY;
        for (int i = 0; i <= grid; i++) {
            double x = lo + (hi - lo) * i / grid;
            double v = blocked.applyAsDouble(x);
            if (v < bestValue) {
                bestValue = v;
                best = x;
            }
        }
        double step = (hi - lo) / grid;
        double u = Math.exp(golden(blocked, best - step, best + step, 30)[0]);
        double uMin = 1e-9;
        double uMax = 1e3;
        double below = uMin; // where u phi' - phi < 0 (the optimum lies above)
        double above = uMax; // where it is > 0
        double found = Double.POSITIVE_INFINITY;
        double[] m = new double[3];
        for (int iter = 0; iter < 12; iter++) {
            double phi = logTail;
            double dPhi = 0;
            double d2Phi = 0;
            for (Term term : terms) {
                term.pmf().cumulants(sign * u, m);
                phi += term.count() * m[0];
                dPhi += term.count() * sign * m[1];
                d2Phi += term.count() * m[2];
            }
            double b = phi / u; // sign * b(t), minimised
            if (!Double.isNaN(b)) {
                found = Math.min(found, b);
            }
            double f = u * dPhi - phi;
            if (!(Double.isFinite(f) && Double.isFinite(d2Phi))) {
                break;
            }
            if (f < 0) {
                below = u;
            } else {
                above = u;
            }
            double next = d2Phi > 0 ? u - f / (u * d2Phi) : Double.NaN;
            if (!(next > below && next < above)) {
                next = Math.sqrt(below * above); // outside the bracket: geometric bisection
            }
            if (Math.abs(next - u) <= 1e-4 * u || above / below < 1 + 1e-6) {
                break;
            }
            u = next;
        }
        if (!(found < Double.POSITIVE_INFINITY)) {
            found = threshold(terms, logTail, sign, Math.log(u), false);
        }
        return sign * found;
    }

    /** Golden-section search for a minimum on {@code [a, c]}: {@code {argmin, min}} of the points evaluated. */
    private static double[] golden(java.util.function.DoubleUnaryOperator f, double a, double c, int steps) {
        double phi = (Math.sqrt(5) - 1) / 2;
        double x1 = c - phi * (c - a);
        double x2 = a + phi * (c - a);
        double f1 = f.applyAsDouble(x1);
        double f2 = f.applyAsDouble(x2);
        for (int i = 0; i < steps; i++) {
            if (f1 < f2) {
                c = x2;
                x2 = x1;
                f2 = f1;
                x1 = c - phi * (c - a);
                f1 = f.applyAsDouble(x1);
            } else {
                a = x1;
                x1 = x2;
                f1 = f2;
                x2 = a + phi * (c - a);
                f2 = f.applyAsDouble(x2);
            }
        }
        return f1 < f2 ? new double[] {x1, f1} : new double[] {x2, f2};
    }

    /** {@code sign * b(t)} at {@code t = sign e^logT}, from the exact or the blocked moment generating functions. */
    private static double threshold(List<Term> terms, double logTail, double sign, double logT, boolean blocked) {
        double t = sign * Math.exp(logT);
        double logM = 0;
        for (Term term : terms) {
            logM += term.count() * (blocked ? term.pmf().blockedLogMoment(t) : term.pmf().logMoment(t));
        }
        double v = (logM + logTail) / t;
        return Double.isNaN(v) ? Double.POSITIVE_INFINITY : sign * v; // minimise sign * b
    }

    /** Entries per block of {@link #blockedLogMoment}. */
    static final int BLOCK = 64;
    private volatile double[] blockLogMassCache;

    /**
     * An upper bound on {@link #logMoment}: the masses of each block of {@value #BLOCK} entries put at the block's
     * last index for {@code t > 0}, its first for {@code t < 0}.
     */
    private double blockedLogMoment(double t) {
        double[] blocks = blockLogMassCache;
        if (blocks == null) {
            blocks = new double[(masses.length + BLOCK - 1) / BLOCK];
            for (int b = 0; b < blocks.length; b++) {
                double sum = 0;
                for (int j = b * BLOCK; j < Math.min(masses.length, (b + 1) * BLOCK); j++) {
                    sum += masses[j];
                }
                blocks[b] = Math.log(sum);
            }
            blockLogMassCache = blocks;
        }
        double max = Double.NEGATIVE_INFINITY;
        for (int b = 0; b < blocks.length; b++) {
            int j = t > 0 ? Math.min(masses.length - 1, (b + 1) * BLOCK - 1) : b * BLOCK;
            max = Math.max(max, blocks[b] + t * (offset + j));
        }
        if (max == Double.NEGATIVE_INFINITY) {
            return Double.NEGATIVE_INFINITY;
        }
        double s = 0;
        for (int b = 0; b < blocks.length; b++) {
            int j = t > 0 ? Math.min(masses.length - 1, (b + 1) * BLOCK - 1) : b * BLOCK;
            s += Math.exp(blocks[b] + t * (offset + j) - max);
        }
        return max + Math.log(s);
    }

    /**
     * The cumulant generating function {@code K(t) = log sum_j p_j e^{t (offset + j)}} (index units) and its first
     * two derivatives, the tilted mean and variance of the index, into {@code out[0..2]}; one pass, centred for
     * accuracy.
     */
    private void cumulants(double t, double[] out) {
        double[] lm = logMasses();
        int[] nz = nonZero();
        double max = Double.NEGATIVE_INFINITY;
        for (int j : nz) {
            max = Math.max(max, lm[j] + t * j);
        }
        if (max == Double.NEGATIVE_INFINITY) {
            out[0] = Double.NEGATIVE_INFINITY;
            out[1] = Double.NaN;
            out[2] = Double.NaN;
            return;
        }
        double centre = 0.5 * (masses.length - 1);
        double s0 = 0;
        double s1 = 0;
        double s2 = 0;
        for (int j : nz) {
            double w = Math.exp(lm[j] + t * j - max);
            double d = j - centre;
            s0 += w;
            s1 += w * d;
            s2 += w * d * d;
        }
        double mean = s1 / s0;
        out[0] = max + Math.log(s0) + t * offset;
        out[1] = offset + centre + mean;
        out[2] = Math.max(0.0, s2 / s0 - mean * mean);
    }

    /** {@code log sum_j p_j e^{t (offset + j)}}, the log moment generating function in index units. */
    private double logMoment(double t) {
        double[] lm = logMasses();
        int[] nz = nonZero();
        double max = Double.NEGATIVE_INFINITY;
        for (int j : nz) {
            max = Math.max(max, lm[j] + t * (offset + j));
        }
        if (max == Double.NEGATIVE_INFINITY) {
            return Double.NEGATIVE_INFINITY;
        }
        double s = 0;
        for (int j : nz) {
            s += Math.exp(lm[j] + t * (offset + j) - max);
        }
        return max + Math.log(s);
    }

    private volatile double[] logMassCache;
    private volatile int[] nonZeroCache;

    private double[] logMasses() {
        double[] lm = logMassCache;
        if (lm == null) {
            lm = new double[masses.length];
            for (int j = 0; j < masses.length; j++) {
                lm[j] = Math.log(masses[j]);
            }
            logMassCache = lm;
        }
        return lm;
    }

    private int[] nonZero() {
        int[] nz = nonZeroCache;
        if (nz == null) {
            nz = java.util.stream.IntStream.range(0, masses.length).filter(j -> masses[j] > 0).toArray();
            nonZeroCache = nz;
        }
        return nz;
    }

    /** This (untilted) PLD's finite part tilted by {@code e^{theta l}} and normalised; its log normaliser. */
    private PrivacyLossPmf tilted(double t) {
        double logNorm = logMoment(t * h); // log sum_j p_j e^{t l_j}, since l_j = (offset + j) h
        double[] p = new double[masses.length];
        for (int j = 0; j < masses.length; j++) {
            p[j] = masses[j] > 0 ? Math.exp(Math.log(masses[j]) + t * loss(j) - logNorm) : 0.0;
        }
        return new PrivacyLossPmf(h, offset, p, 0.0, 0.0, t, logNorm, Double.NEGATIVE_INFINITY);
    }

    /** The mean total loss of the composition under tilt {@code theta} (increasing in {@code theta}). */
    static double tiltedMean(List<Term> terms, double t) {
        double mean = 0;
        for (Term term : terms) {
            mean += term.count() * term.pmf().tiltedMeanLoss(t);
        }
        return mean;
    }

    /** {@code sum_j p_j e^{t l_j} l_j / sum_j p_j e^{t l_j}}, without allocating. */
    private double tiltedMeanLoss(double t) {
        double[] lm = logMasses();
        int[] nz = nonZero();
        double max = Double.NEGATIVE_INFINITY;
        for (int j : nz) {
            max = Math.max(max, lm[j] + t * loss(j));
        }
        double s0 = 0;
        double s1 = 0;
        for (int j : nz) {
            double w = Math.exp(lm[j] + t * loss(j) - max);
            s0 += w;
            s1 += w * loss(j);
        }
        return s1 / s0;
    }

    /** The composition of untilted terms (all on one grid spacing), restricted to its Chernoff window. */
    static PrivacyLossPmf compose(List<Term> terms, double tau) {
        return compose(terms, tau, 0.0);
    }

    /**
     * The composition of untilted terms under tilt {@code theta >= 0}. With {@code theta = 0} a single term of
     * count 1 is returned as is.
     */
    static PrivacyLossPmf compose(List<Term> terms, double tau, double t) {
        return compose(terms, tau, t, null);
    }

    /**
     * As {@link #compose(List, double, double)}, with the untilted composition's Chernoff window already known
     * ({@code null}: compute it).
     */
    static PrivacyLossPmf compose(List<Term> terms, double tau, double t, long[] knownWindow) {
        io.dpaudit.core.numerics.Interruption.check("composing a privacy loss distribution");
        double h = terms.get(0).pmf().h;
        double logFinite = 0;
        double logHeld = 0;
        for (Term term : terms) {
            if (term.pmf().h != h || term.pmf().theta != 0) {
                throw new IllegalArgumentException("compose needs untilted PLDs on one grid spacing");
            }
            logFinite += term.count() * Math.log1p(-term.pmf().infinityMass);
            double held = 0;
            for (double m : term.pmf().masses) {
                held += m;
            }
            logHeld += term.count() * Math.log(held);
        }
        double pInf = -Math.expm1(logFinite);
        if (t == 0 && terms.size() == 1 && terms.get(0).count() == 1) {
            return terms.get(0).pmf();
        }
        List<Term> work = terms;
        double logScale = 0;
        if (t != 0) {
            work = new ArrayList<>();
            for (Term term : terms) {
                PrivacyLossPmf tp = term.pmf().tilted(t);
                logScale += term.count() * tp.logScale;
                work.add(new Term(tp, term.count()));
            }
        }
        long[] w = t == 0 && knownWindow != null ? knownWindow : window(work, tau);
        long windowLength = w[1] - w[0] + 1;
        long base = 0;
        int maxLen = 0;
        for (Term term : work) {
            base += term.count() * term.pmf().offset;
            maxLen = Math.max(maxLen, term.pmf().length());
        }
        long needed = Math.max(windowLength, maxLen);
        if (needed > MAX_FFT_LENGTH) {
            throw new AccountingLimitException("pld", needed + " grid points", "the composed loss range is wider than "
                    + "the accountant's largest FFT (" + MAX_FFT_LENGTH + " points) at this grid spacing; use the rdp "
                    + "accountant");
        }
        int n = Integer.highestOneBit((int) Math.max(2, needed - 1)) << 1;
        if (n < needed) {
            n <<= 1;
        }
        double[] re = convolve(work, n);
        double[] out = new double[(int) windowLength];
        double mostNegative = 0;
        int shift = (int) Math.floorMod(w[0] - base, (long) n);
        for (int j = 0; j < out.length; j++) {
            double v = re[(shift + j) % n];
            mostNegative = Math.max(mostNegative, -v);
            out[j] = Math.max(v, 0.0);
        }
        // Round-off per entry: measured (twice the most negative entry) and modelled (coefficient errors of about
        // u log2(n) grow T-fold under the power; the inverse transform spreads them over the entries, none of which
        // exceeds the largest), whichever is larger.
        long totalCount = 0;
        double maxEntry = 0;
        for (Term term : work) {
            totalCount += term.count();
        }
        for (double v : out) {
            maxEntry = Math.max(maxEntry, v);
        }
        double modelled = 4.0 * totalCount * Math.ulp(1.0) * (31 - Integer.numberOfLeadingZeros(n)) * maxEntry;
        double eta = Math.max(2 * mostNegative, modelled);
        double windowMass = 0;
        for (int j = 0; j < out.length; j++) {
            out[j] += eta;
            windowMass += out[j];
        }
        if (t == 0) {
            // Mass conservation: the window holds the product of the factors' finite masses (each raised to its count)
            // minus at most tau. Mass found missing beyond that (round-off removing mass somewhere) is put at +inf,
            // where it can only raise δ.
            double missing = Math.max(0.0, Math.exp(logHeld) - tau - windowMass);
            return new PrivacyLossPmf(h, w[0], out, pInf + tau + missing, eta, 0.0, 0.0, Double.NEGATIVE_INFINITY);
        }
        // Untilted mass above the window is at most e^{S - theta l_hi} times the tilted tail (<= tau / 2).
        double upperTail = Math.exp(logScale - t * w[1] * h) * tau;
        return new PrivacyLossPmf(h, w[0], out, pInf + upperTail, eta, t, logScale, w[0] * h);
    }

    /**
     * Sets ({@code first}) or multiplies {@code re + i im} by {@code (fr + i fi)^count}, entry by entry over
     * {@code [0, half)}, by binary powering: about {@code 2 log2(count)} rounding errors, where the polar form (hypot,
     * log, exp, atan2, cos, sin) costs six transcendental calls and an error growing with {@code count}. Each power is
     * a chain of dependent products, so two entries at a time run in lockstep (their exponent bits are the same) and
     * the processor overlaps the two chains.
     *
     * <p>An entry whose power {@link #powerUnderflows} is zero without its chain: its base is taken as 0, whose power
     * is +-0, the value the chain would give (no later sum tells +-0 from 0); a pair of such entries is skipped. Tested
     * against the plain powering, value for value.
     */
    static void multiplyByPowers(double[] fr, double[] fi, long count, double[] re, double[] im, int half,
            boolean first) {
        for (int k = 0; k < half; k += 2) {
            boolean pair = k + 1 < half;
            boolean zeroA = powerUnderflows(fr[k], fi[k], count);
            boolean zeroB = !pair || powerUnderflows(fr[k + 1], fi[k + 1], count);
            if (zeroA && zeroB) {
                store(re, im, k, 0, 0, first);
                if (pair) {
                    store(re, im, k + 1, 0, 0, first);
                }
                continue;
            }
            double ar = zeroA ? 0 : fr[k];
            double ai = zeroA ? 0 : fi[k];
            double br = zeroB ? 0 : fr[k + 1];
            double bi = zeroB ? 0 : fi[k + 1];
            double par = 1;
            double pai = 0;
            double pbr = 1;
            double pbi = 0;
            for (long e = count; ; ) {
                if ((e & 1) != 0) {
                    double a = par * ar - pai * ai;
                    pai = par * ai + pai * ar;
                    par = a;
                    double b = pbr * br - pbi * bi;
                    pbi = pbr * bi + pbi * br;
                    pbr = b;
                }
                e >>>= 1;
                if (e == 0) {
                    break;
                }
                double a = ar * ar - ai * ai;
                ai = 2 * ar * ai;
                ar = a;
                double b = br * br - bi * bi;
                bi = 2 * br * bi;
                br = b;
            }
            store(re, im, k, par, pai, first);
            if (pair) {
                store(re, im, k + 1, pbr, pbi, first);
            }
        }
    }

    /**
     * {@code (br + i bi)^count} is zero, without computing it: the square before the top bit's is below 2^-538. While
     * normal, the j-th square's relative error is at most about 2^(j+1) ulp (each squaring doubles the error it
     * receives and adds its own), 10^-9 at count 10^6, so that square's square underflows to exactly 0 and multiplies
     * the product. As the top bit's square is {@code 2^(top-1) > count/4}, it suffices that
     * {@code count log2|b|^2 < -4800} (600 bits against 538). Tried first with {@code log2|b|^2 < e + 1} (e the binary
     * exponent: free), then, for the bases it leaves (|b| above about 0.7 at a million rounds: all of a few-atom law's
     * spectrum, which does not decay), with the logarithm itself: one call where the powering costs two dozen complex
     * products. The computed {@code |b|^2} and logarithm are within a few ulp, far inside the margin. At a million
     * rounds most of a composition's spectrum is decided here.
     */
    static boolean powerUnderflows(double br, double bi, long count) {
        if (count < 2) {
            return false;
        }
        double square = br * br + bi * bi;
        int e = Math.getExponent(square);
        return count * (long) (e + 1) < -4800L || (e < 0 && count * Math.log(square) < -4800 * LN2);
    }

    private static final double LN2 = Math.log(2);

    /** {@code re[k] + i im[k]} set to {@code pr + i pi} ({@code first}) or multiplied by it. */
    private static void store(double[] re, double[] im, int k, double pr, double pi, boolean first) {
        if (first) {
            re[k] = pr;
            im[k] = pi;
        } else {
            double a = re[k] * pr - im[k] * pi;
            im[k] = re[k] * pi + im[k] * pr;
            re[k] = a;
        }
    }

    /** The circular convolution of the terms' masses (raised to their counts) on length {@code n}: real part. */
    private static double[] convolve(List<Term> terms, int n) {
        // Real inputs: the half spectrum k = 0..n/2 determines the rest (conjugate symmetry), and so does its power.
        int half = n / 2 + 1;
        double[] re = new double[half];
        double[] im = new double[half];
        double[] fr = new double[half];
        double[] fi = new double[half];
        boolean first = true;
        for (Term term : terms) {
            io.dpaudit.core.numerics.Interruption.check("composing a privacy loss distribution (FFT of length " + n + ")");
            Fft.forwardReal(term.pmf().masses, n, fr, fi);
            long count = term.count();
            multiplyByPowers(fr, fi, count, re, im, half, first);
            first = false;
        }
        return Fft.inverseReal(re, im, n);
    }
}

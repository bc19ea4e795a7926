package io.dpaudit.core.accounting;

import io.dpaudit.core.numerics.Fft;
import io.dpaudit.core.numerics.LogSpace;
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
 * <p>This class is the value: the grid, its masses, δ(ε) and ε(δ). Composition is {@link PmfComposition}; the
 * moment generating functions that choose a composition's window and tilt are {@link PmfMoments}.
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

    PrivacyLossPmf(double h, long offset, double[] masses, double infinityMass, double roundOff, double theta,
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

    /** The masses (tilted when {@code theta > 0}), as stored: for the moments and the composition, never copied. */
    double[] masses() {
        return masses;
    }

    /** {@code S}, the sum of the factors' log normalisers of a tilted composition (0 untilted). */
    double logScale() {
        return logScale;
    }

    private volatile PmfMoments moments;

    /** This PLD's moment generating functions (computed once, kept). */
    PmfMoments moments() {
        PmfMoments m = moments;
        if (m == null) {
            m = new PmfMoments(this);
            moments = m;
        }
        return m;
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
}

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
                sum += m * -Math.expm1(epsilon - l);
            }
        }
        return Math.min(1.0, infinityMass + sum);
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
            sum += Math.exp(Math.log(roundOff) + logScale - theta * loss(j)) * -Math.expm1(epsilon - loss(j));
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

    /** The best Chernoff threshold for {@code t} of the given sign: min over {@code t > 0}, max over {@code t < 0}. */
    private static double chernoff(List<Term> terms, double logTail, double sign) {
        java.util.function.DoubleUnaryOperator b = logT -> {
            double t = sign * Math.exp(logT);
            double logM = 0;
            for (Term term : terms) {
                logM += term.count() * term.pmf().logMoment(t);
            }
            double v = (logM + logTail) / t;
            return Double.isNaN(v) ? Double.POSITIVE_INFINITY : sign * v; // minimise sign * b
        };
        double lo = Math.log(1e-9);
        double hi = Math.log(1e3);
        int grid = 12;
        double best = lo;
        double bestValue = Double.POSITIVE_INFINITY;
        for (int i = 0; i <= grid; i++) {
            double x = lo + (hi - lo) * i / grid;
            double v = b.applyAsDouble(x);
            if (v < bestValue) {
                bestValue = v;
                best = x;
            }
        }
        double step = (hi - lo) / grid;
        double a = best - step;
        double c = best + step;
        double phi = (Math.sqrt(5) - 1) / 2;
        double x1 = c - phi * (c - a);
        double x2 = a + phi * (c - a);
        double f1 = b.applyAsDouble(x1);
        double f2 = b.applyAsDouble(x2);
        for (int i = 0; i < 30; i++) {
            if (f1 < f2) {
                c = x2;
                x2 = x1;
                f2 = f1;
                x1 = c - phi * (c - a);
                f1 = b.applyAsDouble(x1);
            } else {
                a = x1;
                x1 = x2;
                f1 = f2;
                x2 = a + phi * (c - a);
                f2 = b.applyAsDouble(x2);
            }
        }
        return sign * Math.min(bestValue, Math.min(f1, f2));
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
        io.dpaudit.core.Deadline.check("composing a privacy loss distribution");
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
        long[] w = window(work, tau);
        long windowLength = w[1] - w[0] + 1;
        long base = 0;
        int maxLen = 0;
        for (Term term : work) {
            base += term.count() * term.pmf().offset;
            maxLen = Math.max(maxLen, term.pmf().length());
        }
        long needed = Math.max(windowLength, maxLen);
        if (needed > MAX_FFT_LENGTH) {
            throw new IllegalStateException("PLD composition window of " + needed + " points; coarsen h");
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

    /** The circular convolution of the terms' masses (raised to their counts) on length {@code n}: real part. */
    private static double[] convolve(List<Term> terms, int n) {
        double[] re = new double[n];
        double[] im = new double[n];
        boolean first = true;
        for (Term term : terms) {
            io.dpaudit.core.Deadline.check("composing a privacy loss distribution (FFT of length " + n + ")");
            double[][] f = new double[2][n];
            System.arraycopy(term.pmf().masses, 0, f[0], 0, term.pmf().length());
            Fft.forward(f[0], f[1]);
            for (int k = 0; k < n; k++) {
                double r = Math.hypot(f[0][k], f[1][k]);
                double pr = 0;
                double pi = 0;
                if (r != 0) {
                    double mag = Math.exp(term.count() * Math.log(r));
                    double ang = term.count() * Math.atan2(f[1][k], f[0][k]);
                    pr = mag * Math.cos(ang);
                    pi = mag * Math.sin(ang);
                }
                if (first) {
                    re[k] = pr;
                    im[k] = pi;
                } else {
                    double a = re[k] * pr - im[k] * pi;
                    im[k] = re[k] * pi + im[k] * pr;
                    re[k] = a;
                }
            }
            first = false;
        }
        Fft.inverse(re, im);
        return re;
    }
}

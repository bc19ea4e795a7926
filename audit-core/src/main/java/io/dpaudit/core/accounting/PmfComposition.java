package io.dpaudit.core.accounting;

import io.dpaudit.core.bounds.AccountingLimitException;
import io.dpaudit.core.numerics.Fft;
import java.util.ArrayList;
import java.util.List;

/**
 * The composition of discrete privacy-loss distributions ({@link PrivacyLossPmf}): Fourier transforms raised to the
 * counts and multiplied, on a window of total loss chosen by a Chernoff bound, optionally under an exponential tilt,
 * with round-off bounded and added on the safe side (the method is stated on {@link PrivacyLossPmf}).
 */
final class PmfComposition {
    private PmfComposition() {
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
            supportLo += t.count() * t.pmf().offset();
            supportHi += t.count() * (t.pmf().offset() + t.pmf().length() - 1);
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
                term.pmf().moments().cumulants(sign * u, m);
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
            logM += term.count() * (blocked ? term.pmf().moments().blockedLogMoment(t) : term.pmf().moments().logMoment(t));
        }
        double v = (logM + logTail) / t;
        return Double.isNaN(v) ? Double.POSITIVE_INFINITY : sign * v; // minimise sign * b
    }

    /** The mean total loss of the composition under tilt {@code theta} (increasing in {@code theta}). */
    static double tiltedMean(List<Term> terms, double t) {
        double mean = 0;
        for (Term term : terms) {
            mean += term.count() * term.pmf().moments().tiltedMeanLoss(t);
        }
        return mean;
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
        double h = terms.get(0).pmf().h();
        double logFinite = 0;
        double logHeld = 0;
        for (Term term : terms) {
            if (term.pmf().h() != h || term.pmf().theta() != 0) {
                throw new IllegalArgumentException("compose needs untilted PLDs on one grid spacing");
            }
            logFinite += term.count() * Math.log1p(-term.pmf().infinityMass());
            double held = 0;
            for (double m : term.pmf().masses()) {
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
                PrivacyLossPmf tp = term.pmf().moments().tilted(t);
                logScale += term.count() * tp.logScale();
                work.add(new Term(tp, term.count()));
            }
        }
        long[] w = t == 0 && knownWindow != null ? knownWindow : window(work, tau);
        long windowLength = w[1] - w[0] + 1;
        long base = 0;
        int maxLen = 0;
        for (Term term : work) {
            base += term.count() * term.pmf().offset();
            maxLen = Math.max(maxLen, term.pmf().length());
        }
        long needed = Math.max(windowLength, maxLen);
        if (needed > PrivacyLossPmf.MAX_FFT_LENGTH) {
            throw new AccountingLimitException("pld", needed + " grid points", "the composed loss range is wider than "
                    + "the accountant's largest FFT (" + PrivacyLossPmf.MAX_FFT_LENGTH + " points) at this grid spacing; use the rdp "
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
            Fft.forwardReal(term.pmf().masses(), n, fr, fi);
            long count = term.count();
            multiplyByPowers(fr, fi, count, re, im, half, first);
            first = false;
        }
        return Fft.inverseReal(re, im, n);
    }
}

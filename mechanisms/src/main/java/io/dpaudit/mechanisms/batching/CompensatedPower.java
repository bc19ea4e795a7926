package io.dpaudit.mechanisms.batching;

import io.dpaudit.core.numerics.Fft;

/**
 * The law of a sum of {@code T} independent lattice terms, {@code q = a^{*T}}, as {@link LognormalSumLattice#powers}
 * computes it (one real FFT of length {@code m}, the spectrum raised to the power {@code T}, one inverse FFT), with the
 * low frequencies computed in double-double arithmetic, so that the round-off allowance loses its factor {@code T}.
 *
 * <p>In plain double arithmetic a coefficient {@code y_k} of the term's spectrum carries a relative error of about
 * {@code u log2 m} ({@code u = 2^-53}), and its power {@code y_k^T} about {@code T} times that: the allowance of
 * {@link LognormalSumLattice#powers} is {@code 4 (T + 2) u log2 m} of {@code sum_k |y_k|^T / m} per point. Here
 * <ul>
 *   <li>the term's masses are split into a <i>body</i> {@code [lo, hi]} and a tail of mass at most
 *       {@value #TAIL_SHARE}{@code / T} of the whole;</li>
 *   <li>for the frequencies {@code k < K} that carry all but {@value #TAIL_SHARE}{@code / (T + 2)} of
 *       {@code sum_k |y_k|^T}, the body's coefficient {@code sum_j a_j w_k^j}, {@code w_k = e^{-2 pi i k / m}}, is
 *       computed by Horner's rule in double-double (about 106 bits; {@code w_k} from its Taylor series), the tail's
 *       taken from a double FFT of the tail alone (absolute error at most {@code 4 u log2 m} of its mass), and the
 *       sum raised to the power {@code T} by binary powering in double-double;</li>
 *   <li>the other frequencies are raised in polar form as in {@link LognormalSumLattice#powers}.</li>
 * </ul>
 * A coefficient known to within {@code e} has its power within {@code T e (|y| + e)^{T-1}} (the mean value theorem);
 * summed over the frequencies (twice for {@code 0 < k < m/2}) with the plain ones' allowance, divided by {@code m},
 * plus the inverse transform's {@code 4 u (log2 m + 1)} of {@code sum_k |q_k| / m}, that is the allowance per point
 * {@code eta}; as in {@link LognormalSumLattice#powers} it is at least twice the most negative computed mass.
 */
final class CompensatedPower {
    /** The tail's share of the term's mass, and the plain frequencies' share of the spectrum's sum, times {@code T}. */
    static final double TAIL_SHARE = 0.01;
    /** Fewest terms compensated: below, the plain allowance's factor {@code T + 2} is small ({@link #of} returns null). */
    static final int FEWEST_STEPS = 16;
    /** Most body points times compensated frequencies computed ({@link #of} returns null above). */
    static final long MOST_WORK = 1L << 27;
    private static final double U = 0x1p-53;
    /** Terms of the twiddles' Taylor series: {@code pi^(2 TERMS) / (2 TERMS)!} is under 1e-40. */
    private static final int TERMS = 34;
    /** {@code 1 / n!} in double-double, {@code n = 0..2 TERMS + 1}: {@code {hi[], lo[]}}. */
    private static final double[][] INVERSE_FACTORIALS = inverseFactorials(2 * TERMS + 1);
    /** 2 pi in double-double. */
    private static final double TWO_PI_HI = 6.283185307179586;
    private static final double TWO_PI_LO = 2.4492935982947064e-16;

    private CompensatedPower() {
    }

    /**
     * {@code q = a^{*T}} on {@code m} points with its allowance ({@link LognormalSumLattice.Powers}, {@code p} null), or
     * null where the compensated frequencies times the body's points would exceed {@value #MOST_WORK} or there are
     * fewer than {@value #FEWEST_STEPS} terms (the caller then uses {@link LognormalSumLattice#powers}).
     */
    static LognormalSumLattice.Powers of(double[] a, int steps, int m) {
        if (steps < FEWEST_STEPS) {
            return null;
        }
        int half = m / 2 + 1;
        double total = 0;
        for (double v : a) {
            total += v;
        }
        total *= 1 + 1e-12;
        // the body: drop at most half the tail budget from each end
        double budget = TAIL_SHARE / steps * total / 2;
        int lo = 0;
        double dropped = 0;
        while (lo < a.length - 1 && dropped + a[lo] <= budget) {
            dropped += a[lo++];
        }
        int hi = a.length - 1;
        dropped = 0;
        while (hi > lo && dropped + a[hi] <= budget) {
            dropped += a[hi--];
        }
        double[] tail = a.clone();
        double tailMass = 0;
        for (int j = lo; j <= hi; j++) {
            tail[j] = 0;
        }
        for (double v : tail) {
            tailMass += v;
        }
        tailMass *= 1 + 1e-12;

        double[] re = new double[half];
        double[] im = new double[half];
        Fft.forwardReal(a, m, re, im);
        // the plain powers' magnitudes, and how many frequencies the compensation needs
        double logM = Math.log(m) / Math.log(2);
        double[] mag = new double[half];
        double absQ = 0;
        for (int k = 0; k < half; k++) {
            double r = Math.hypot(re[k], im[k]);
            mag[k] = r > 0 ? Math.exp(steps * Math.log(r)) : 0;
            absQ += weight(k, half) * mag[k];
        }
        int kCount = half;
        double suffix = 0;
        while (kCount > 0 && suffix + weight(kCount - 1, half) * mag[kCount - 1] <= TAIL_SHARE * absQ / (steps + 2)) {
            kCount--;
            suffix += weight(kCount, half) * mag[kCount];
        }
        long bodyPoints = hi - lo + 1L;
        if (kCount * bodyPoints > MOST_WORK) {
            return null;
        }
        double[] tailRe = new double[half];
        double[] tailIm = new double[half];
        Fft.forwardReal(tail, m, tailRe, tailIm);
        double tailError = 4 * U * logM * tailMass;
        // Horner's steps and the twiddle's own error (a few u^2) grown by the powers up to hi, generously
        double bodyError = 32 * U * U * (hi + 64.0) * total;

        double[] qRe = re;
        double[] qIm = im;
        double coefficientErrors = 0;
        double sumQ = 0;
        double[] w = new double[4];
        double[] y = new double[4];
        for (int k = 0; k < half; k++) {
            double weight = weight(k, half);
            if (k < kCount) {
                twiddle(k, m, w);
                body(a, lo, hi, w, y);
                // y += the tail's coefficient, then y^T
                twoSumInto(y, 0, tailRe[k]);
                twoSumInto(y, 2, tailIm[k]);
                double e = tailError + bodyError;
                double size = Math.hypot(y[0], y[2]);
                power(y, steps);
                qRe[k] = y[0] + y[1];
                qIm[k] = y[2] + y[3];
                double lifted = size * (1 + 4 * U) + e;
                double err = steps * e * Math.exp((steps - 1) * Math.log(lifted));
                double modulus = Math.hypot(qRe[k], qIm[k]);
                coefficientErrors += weight * (err + 2 * U * modulus + 64 * U * U * steps * Math.exp(steps
                        * Math.log(lifted)));
                sumQ += weight * modulus;
            } else {
                double r = Math.hypot(re[k], im[k]);
                double phi = Math.atan2(im[k], re[k]);
                double rq = mag[k];
                qRe[k] = r > 0 ? rq * Math.cos(steps * phi) : 0;
                qIm[k] = r > 0 ? rq * Math.sin(steps * phi) : 0;
                coefficientErrors += weight * 4.0 * (steps + 2) * U * logM * rq;
                sumQ += weight * rq;
            }
        }
        double[] q = Fft.inverseReal(qRe, qIm, m);
        double eta = (coefficientErrors + 4 * U * (logM + 1) * sumQ) / m;
        double negative = 0;
        for (double v : q) {
            negative = Math.min(negative, v);
        }
        return new LognormalSumLattice.Powers(q, null, Math.max(eta, -2 * negative), 0);
    }

    private static double weight(int k, int half) {
        return k == 0 || k == half - 1 ? 1 : 2;
    }

    /**
     * {@code w = e^{-2 pi i k / m}} in double-double ({@code {re hi, re lo, im hi, im lo}}), from the Taylor series of
     * cos and sin at {@code theta = 2 pi k / m <= pi} ({@value #TERMS} terms of each, by Horner's rule).
     */
    static void twiddle(int k, int m, double[] w) {
        // theta = 2 pi k / m exactly as a double-double product (k / m is exact: m a power of two)
        double f = (double) k / m;
        double th = TWO_PI_HI * f;
        double tl = Math.fma(TWO_PI_HI, f, -th) + TWO_PI_LO * f;
        double s = th + tl;
        tl = tl - (s - th);
        th = s;
        // theta^2
        double[] t2 = mul(th, tl, th, tl);
        // cos = sum (-1)^n t^{2n} / (2n)!, sin = theta sum (-1)^n t^{2n} / (2n+1)!; by Horner from the top
        double ch = 0;
        double cl = 0;
        double sh = 0;
        double sl = 0;
        for (int n = TERMS; n >= 0; n--) {
            double[] c = mul(ch, cl, t2[0], t2[1]);
            double[] sv = mul(sh, sl, t2[0], t2[1]);
            // c = term_n - c * t2 / ... : Horner of sum (-1)^n x^n / (2n)! is c_n = 1/(2n)! - x c_{n+1}
            double[] cNew = add(INVERSE_FACTORIALS[0][2 * n], INVERSE_FACTORIALS[1][2 * n], -c[0], -c[1]);
            double[] sNew = add(INVERSE_FACTORIALS[0][2 * n + 1], INVERSE_FACTORIALS[1][2 * n + 1], -sv[0], -sv[1]);
            ch = cNew[0];
            cl = cNew[1];
            sh = sNew[0];
            sl = sNew[1];
        }
        double[] sin = mul(sh, sl, th, tl);
        w[0] = ch;
        w[1] = cl;
        w[2] = -sin[0];
        w[3] = -sin[1];
    }

    /** {@code 1 / n!} in double-double for {@code n = 0..last}. */
    private static double[][] inverseFactorials(int last) {
        double[][] out = new double[2][last + 1];
        out[0][0] = 1;
        for (int i = 1; i <= last; i++) {
            double[] d = divide(out[0][i - 1], out[1][i - 1], i);
            out[0][i] = d[0];
            out[1][i] = d[1];
        }
        return out;
    }

    /** A double-double divided by a small integer. */
    private static double[] divide(double hi, double lo, double d) {
        double q1 = hi / d;
        double p = q1 * d;
        double pe = Math.fma(q1, d, -p);
        double r = (hi - p - pe + lo) / d;
        double s = q1 + r;
        return new double[] {s, r - (s - q1)};
    }

    private static double[] mul(double ah, double al, double bh, double bl) {
        double p = ah * bh;
        double e = Math.fma(ah, bh, -p) + (ah * bl + al * bh);
        double s = p + e;
        return new double[] {s, e - (s - p)};
    }

    private static double[] add(double ah, double al, double bh, double bl) {
        double s = ah + bh;
        double v = s - ah;
        double e = (ah - (s - v)) + (bh - v) + al + bl;
        double r = s + e;
        return new double[] {r, e - (r - s)};
    }

    /** {@code y[at..at+1] += x} in double-double. */
    private static void twoSumInto(double[] y, int at, double x) {
        double s = y[at] + x;
        double v = s - y[at];
        double e = (y[at] - (s - v)) + (x - v) + y[at + 1];
        double r = s + e;
        y[at] = r;
        y[at + 1] = e - (r - s);
    }

    /**
     * {@code y = sum_{j=lo}^{hi} a_j w^j} in double-double: Horner's rule from {@code hi} down to {@code lo}, then times
     * {@code w^lo} (binary powering). {@code y}: {@code {re hi, re lo, im hi, im lo}}.
     */
    static void body(double[] a, int lo, int hi, double[] w, double[] y) {
        double wrh = w[0];
        double wrl = w[1];
        double wih = w[2];
        double wil = w[3];
        double rh = 0;
        double rl = 0;
        double ih = 0;
        double il = 0;
        for (int j = hi; j >= lo; j--) {
            // (r + i s) * (wr + i wi) = (r wr - s wi) + i (r wi + s wr), each product in double-double
            double p1 = rh * wrh;
            double e1 = Math.fma(rh, wrh, -p1) + (rh * wrl + rl * wrh);
            double p2 = ih * wih;
            double e2 = Math.fma(ih, wih, -p2) + (ih * wil + il * wih);
            double p3 = rh * wih;
            double e3 = Math.fma(rh, wih, -p3) + (rh * wil + rl * wih);
            double p4 = ih * wrh;
            double e4 = Math.fma(ih, wrh, -p4) + (ih * wrl + il * wrh);
            // real: p1 - p2 + a_j, with the errors
            double s = p1 - p2;
            double v = s - p1;
            double err = (p1 - (s - v)) + (-p2 - v) + e1 - e2;
            double t = s + a[j];
            v = t - s;
            err += (s - (t - v)) + (a[j] - v);
            rh = t + err;
            rl = err - (rh - t);
            // imaginary: p3 + p4
            s = p3 + p4;
            v = s - p3;
            err = (p3 - (s - v)) + (p4 - v) + e3 + e4;
            ih = s + err;
            il = err - (ih - s);
        }
        y[0] = w[0];
        y[1] = w[1];
        y[2] = w[2];
        y[3] = w[3];
        power(y, lo);
        double[] out = complexMul(rh, rl, ih, il, y[0], y[1], y[2], y[3]);
        System.arraycopy(out, 0, y, 0, 4);
    }

    /** {@code y = y^n} in double-double (binary powering; {@code n >= 0}). */
    static void power(double[] y, int n) {
        double[] result = {1, 0, 0, 0};
        double[] base = y.clone();
        int e = n;
        while (e > 0) {
            if ((e & 1) == 1) {
                result = complexMul(result[0], result[1], result[2], result[3], base[0], base[1], base[2], base[3]);
            }
            e >>= 1;
            if (e > 0) {
                base = complexMul(base[0], base[1], base[2], base[3], base[0], base[1], base[2], base[3]);
            }
        }
        System.arraycopy(result, 0, y, 0, 4);
    }

    private static double[] complexMul(double arh, double arl, double aih, double ail, double brh, double brl,
            double bih, double bil) {
        double[] rr = mul(arh, arl, brh, brl);
        double[] ii = mul(aih, ail, bih, bil);
        double[] ri = mul(arh, arl, bih, bil);
        double[] ir = mul(aih, ail, brh, brl);
        double[] re = add(rr[0], rr[1], -ii[0], -ii[1]);
        double[] im = add(ri[0], ri[1], ir[0], ir[1]);
        return new double[] {re[0], re[1], im[0], im[1]};
    }
}

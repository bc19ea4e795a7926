package io.dpaudit.mechanisms.batching;

import io.dpaudit.core.numerics.Fft;
import io.dpaudit.core.numerics.Normal;

/**
 * The law of {@code S = sum_{t=1}^T w_t} on a lattice, where under {@code Q} the {@code w_t = e^{x_t / s^2}}
 * ({@code x_t ~ N(0, s^2)}) are independent lognormals, {@code log w ~ N(0, tau^2)} with {@code tau = 1/s}, and under
 * {@code P} the first one is replaced by {@code w' = e^{x_1 / s^2}} with {@code x_1 ~ N(1, s^2)},
 * {@code log w' ~ N(tau^2, tau^2)}. This is the sufficient statistic of the balls-and-bins pair (formula sheet §14):
 * {@code dP_B/dQ_B = S / (T e^{tau^2/2})}, and under {@code P_B} every permutation-invariant statistic has the law it
 * has under {@code N(e_1, s^2 I)}.
 *
 * <p><b>Discretisation with a direction.</b> Each term is moved to the lattice point {@code j h} above it
 * ({@code roundUp}: the lattice sum is at least {@code S}, term by term) or below it (at most {@code S}); the error in
 * {@code S} is at most {@code T h}. A term above the clamp {@code B = n h} <i>escapes</i>: its mass is left out of the
 * lattice (the lattice holds the sub-probability of "no term escaped"), and the caller knows that on the missing mass
 * {@code S > B}. The lattice's sum of {@code T} terms, each in {@code [0, n]}, is computed by one real FFT of length
 * {@code m >= 2n + 2} raised to the power {@code T} (for {@code P}: the power {@code T - r} times the transform of
 * {@code w'} to the power {@code r}); sums at or above {@code m} wrap around ({@code aliased}), and their mass is bounded by a Chernoff bound
 * on the lattice terms ({@code P(sum >= m) <= min_t E[e^{t sum}] e^{-t m}}, each term's moment generating function
 * bounded from above by moving its masses to the ends of blocks of {@value #BLOCK} points).
 *
 * <p><b>Round-off.</b> Every lattice mass is within {@code eta} of the exact sub-probability (of the rounded terms),
 * where {@code eta} is the larger of twice the most negative entry the inverse transform produced (zero in exact
 * arithmetic) and the model {@code 4 (T + 2) u log2(m) (1/m) sum_k |A_k|^T} (relative coefficient errors of about
 * {@code u log2 m}, grown {@code T}-fold by the power, spread by the inverse transform); the same model
 * {@code PrivacyLossPmf} uses for its compositions.
 */
final class LognormalSumLattice {
    /** Block length of the Chernoff bound's moment generating function. */
    static final int BLOCK = 64;
    /** Largest tilted mass allowed to wrap around the lattice (the tilt is halved until it does not). */
    static final double WRAP_LIMIT = 1e-13;

    /**
     * A computed law.
     *
     * @param h lattice spacing
     * @param n the clamp index: terms above {@code n h} escaped
     * @param q lattice masses of {@code S} under {@code Q} (sub-probability of no escape), length {@code m}
     * @param p the same under {@code P}
     * @param escapeQ probability under {@code Q} that some term escaped ({@code S > n h})
     * @param escapeP the same under {@code P}
     * @param aliasQ upper bound on the lattice mass that wrapped around under {@code Q} (true sums {@code >= m h})
     * @param aliasP the same under {@code P}
     * @param etaQ round-off allowance per lattice point under {@code Q} (of the tilted masses, where tilted)
     * @param etaP the same under {@code P}
     * @param tilt the exponential tilt {@code lambda} per lattice index the masses were computed under (0: none)
     * @param logScaleQ {@code log} of the factor {@code Z^T} that undoes the tilt under {@code Q} (0 where untilted)
     * @param logScaleP the same under {@code P}
     */
    record Law(double h, int n, double[] q, double[] p, double escapeQ, double escapeP, double aliasQ,
            double aliasP, double etaQ, double etaP, double tilt, double logScaleQ, double logScaleP) {

        /** An upper bound on the lattice mass at point {@code j} under {@code P} (may be {@code +inf}). */
        double upperP(int j) {
            return untilt(p[j] + etaP, j, logScaleP);
        }

        /** A lower bound on the lattice mass at point {@code j} under {@code P} (may be negative). */
        double lowerP(int j) {
            return untilt(p[j] - etaP, j, logScaleP);
        }

        /** An upper bound on the lattice mass at point {@code j} under {@code Q} (may be {@code +inf}). */
        double upperQ(int j) {
            return untilt(q[j] + etaQ, j, logScaleQ);
        }

        /** A lower bound on the lattice mass at point {@code j} under {@code Q} (may be negative). */
        double lowerQ(int j) {
            return untilt(q[j] - etaQ, j, logScaleQ);
        }

        /**
         * A tilted mass (or bound) back on the original scale: {@code x Z^T e^{-lambda j}}; a non-positive {@code x}
         * is returned as it is (a lower bound of no use).
         */
        private double untilt(double x, int j, double logScale) {
            if (tilt == 0 || !(x > 0)) {
                return x;
            }
            return Math.exp(Math.log(x) + logScale - tilt * j);
        }
    }

    private LognormalSumLattice() {
    }

    /**
     * The law of {@code S} for {@code steps} terms with log-scale {@code tau}, clamp {@code clamp}, {@code m} lattice
     * points (a power of two; {@code n = m/2 - 1}), one term shifted under {@code P}.
     */
    static Law compute(int steps, double tau, double clamp, int m, boolean roundUp) {
        return compute(steps, 1, tau, clamp, m, roundUp);
    }

    /** The same with {@code shifted} terms ({@code 1 <= shifted <= steps}) shifted under {@code P}. */
    static Law compute(int steps, int shifted, double tau, double clamp, int m, boolean roundUp) {
        return compute(steps, shifted, tau, clamp, m, roundUp, -1);
    }

    /**
     * The same, computed under the exponential tilt that makes the Chernoff bound on {@code P(S >= tiltAt h)} tightest
     * when {@code tiltAt} is above the mean of the lattice sum, on {@code Q(S <= tiltAt h)} when it is below
     * ({@code tiltAt < 0}: no tilt). The tilt is halved until the tilted sum wraps around the lattice no more than
     * {@value #WRAP_LIMIT} or the plain sum does, and dropped when it falls under {@code 1/n} per index.
     *
     * <p><b>Tilting.</b> Each term's lattice masses {@code a_i} are replaced by {@code a_i e^{lambda i} / Z_a}
     * ({@code Z_a = sum_i a_i e^{lambda i}}), so the lattice sum's masses become {@code s_j e^{lambda j} / Z^T}
     * ({@code Z^T = Z_a^{T - r} Z_b^r} under {@code P}): the FFT computes the tilted law, whose round-off allowance
     * {@code eta} (the same model, plus the Chernoff bound on the tilted mass that wrapped around and landed on a
     * point) is multiplied back by {@code Z^T e^{-lambda j}} ({@link Law#upperP}). In the upper tail that factor is at
     * most the Chernoff bound on the tail's probability, so the allowance there is relative rather than absolute: the
     * lattice's round-off floor (about 1e-15 per point) no longer caps the smallest δ it resolves. The escape and
     * wrap-around masses are the untilted law's (properties of the law, not of the computation).
     */
    static Law compute(int steps, int shifted, double tau, double clamp, int m, boolean roundUp, long tiltAt) {
        int n = m / 2 - 1;
        double h = clamp / n;
        // Interval masses P(w in (i h, (i+1) h]) for i = 0..n-1 under Q (shift 0) and P (shift tau^2).
        double[] intervalQ = intervalMasses(n, h, tau, 0.0);
        double[] intervalP = intervalMasses(n, h, tau, tau * tau);
        double escapeTermQ = Normal.sf(Math.log(n * h) / tau);
        double escapeTermP = Normal.sf((Math.log(n * h) - tau * tau) / tau);
        double[] a = lattice(intervalQ, n, roundUp);
        double[] b = lattice(intervalP, n, roundUp);
        double aliasQ = chernoffAlias(a, a, 1, steps, m);
        double aliasP = chernoffAlias(a, b, shifted, steps, m);
        double tilt = 0;
        double logScaleQ = 0;
        double logScaleP = 0;
        double wrappedQ = 0;
        double wrappedP = 0;
        if (tiltAt >= 0) {
            // towards P's upper tail above the mean of the lattice sum, towards Q's lower tail below it
            boolean lowerTail = tiltAt < steps * meanIndex(a);
            double lambda = chernoffTilt(a, b, shifted, steps, tiltAt, lowerTail);
            // halved until the tilted sum wraps around the lattice no more than WRAP_LIMIT or the plain sum does (a
            // heavy tail's tilt piles mass at the clamp, and T such terms overflow it): first on a cheap bound from
            // the block sums, then checked exactly; a tilt under 1/n (a factor below e over the lattice) is dropped
            double wrapLimit = Math.max(WRAP_LIMIT, Math.max(aliasQ, aliasP));
            if (lambda > 0) {
                double[] blockA = blocks(a);
                double[] blockB = blocks(b);
                while (lambda * n >= 1 && tiltedWrapBound(blockA, blockB, shifted, steps, m, lambda) > wrapLimit) {
                    lambda /= 2;
                }
            }
            for (int halvings = 0; halvings < 4 && Math.abs(lambda) * n >= 1; halvings++) {
                double[] at = a.clone();
                double[] bt = b.clone();
                double logZa = tiltInPlace(at, lambda);
                double logZb = tiltInPlace(bt, lambda);
                double wq = chernoffAlias(at, at, 1, steps, m);
                double wp = chernoffAlias(at, bt, shifted, steps, m);
                if (Math.max(wq, wp) <= wrapLimit) {
                    tilt = lambda;
                    a = at;
                    b = bt;
                    logScaleQ = steps * logZa;
                    logScaleP = (steps - shifted) * logZa + shifted * logZb;
                    wrappedQ = wq;
                    wrappedP = wp;
                    break;
                }
                lambda /= 2;
            }
        }
        Powers sums = powers(a, b, steps, shifted, m);
        double etaQ = sums.etaQ() + wrappedQ;
        double etaP = sums.etaP() + wrappedP;
        double[] q = sums.q();
        double[] p = sums.p();
        double escapeQ = -Math.expm1(steps * Math.log1p(-escapeTermQ));
        double escapeP = -Math.expm1((steps - shifted) * Math.log1p(-escapeTermQ)
                + shifted * Math.log1p(-escapeTermP));
        return new Law(h, n, q, p, escapeQ, escapeP, aliasQ, aliasP, etaQ, etaP, tilt, logScaleQ, logScaleP);
    }

    /**
     * The lattice laws of sums, and their round-off allowances per point.
     *
     * @param q masses of {@code steps} terms of law {@code a}
     * @param p masses of {@code steps - shifted} terms of law {@code a} plus {@code shifted} terms of law {@code b}
     * @param etaQ round-off allowance per point of {@code q}
     * @param etaP the same of {@code p}
     */
    record Powers(double[] q, double[] p, double etaQ, double etaP) {
    }

    /**
     * The laws of the sums of independent lattice terms (term masses {@code a}, {@code b} on points {@code 0..}),
     * computed by one real FFT of length {@code m} raised to the powers (sums at or above {@code m} wrap around), with
     * the round-off allowance of the class comment; {@code b} null: {@code q} alone ({@code p} null).
     */
    static Powers powers(double[] a, double[] b, int steps, int shifted, int m) {
        int half = m / 2 + 1;
        double[] aRe = new double[half];
        double[] aIm = new double[half];
        Fft.forwardReal(a, m, aRe, aIm);
        boolean withP = b != null;
        // without P the power overwrites the transform in place (each coefficient is read before it is written)
        double[] bRe = withP ? new double[half] : null;
        double[] bIm = withP ? new double[half] : null;
        if (withP) {
            Fft.forwardReal(b, m, bRe, bIm);
        }
        double[] qRe = withP ? new double[half] : aRe;
        double[] qIm = withP ? new double[half] : aIm;
        double[] pRe = withP ? new double[half] : null;
        double[] pIm = withP ? new double[half] : null;
        double absQ = 0;
        double absP = 0;
        for (int k = 0; k < half; k++) {
            double r = Math.hypot(aRe[k], aIm[k]);
            double phi = Math.atan2(aIm[k], aRe[k]);
            double weight = k == 0 || k == half - 1 ? 1 : 2;
            if (r > 0) {
                double logR = Math.log(r);
                double rq = Math.exp(steps * logR);
                qRe[k] = rq * Math.cos(steps * phi);
                qIm[k] = rq * Math.sin(steps * phi);
                absQ += weight * rq;
                if (!withP) {
                    continue;
                }
                double rp = Math.exp((steps - shifted) * logR);
                double cr = rp * Math.cos((steps - shifted) * phi);
                double ci = rp * Math.sin((steps - shifted) * phi);
                // times the shifted term's transform to the power r (in polar form where r > 1)
                double sRe = bRe[k];
                double sIm = bIm[k];
                if (shifted > 1) {
                    double rb = Math.hypot(bRe[k], bIm[k]);
                    double phiB = Math.atan2(bIm[k], bRe[k]);
                    double sr = rb > 0 ? Math.exp(shifted * Math.log(rb)) : 0;
                    sRe = sr * Math.cos(shifted * phiB);
                    sIm = sr * Math.sin(shifted * phiB);
                }
                pRe[k] = cr * sRe - ci * sIm;
                pIm[k] = cr * sIm + ci * sRe;
                absP += weight * Math.hypot(pRe[k], pIm[k]);
            }
        }
        double[] q = Fft.inverseReal(qRe, qIm, m);
        double model = 4.0 * (steps + 2) * 0x1p-53 * (Math.log(m) / Math.log(2));
        double etaQ = Math.max(model * absQ / m, 2 * mostNegative(q));
        if (!withP) {
            return new Powers(q, null, etaQ, 0);
        }
        double[] p = Fft.inverseReal(pRe, pIm, m);
        return new Powers(q, p, etaQ, Math.max(model * absP / m, 2 * mostNegative(p)));
    }

    /**
     * The tilt {@code lambda} (per index) minimising the Chernoff exponent at index {@code j}: of the sum under
     * {@code P}, {@code (T - r) log Z_a(lambda) + r log Z_b(lambda) - lambda j} over {@code lambda >= 0}, or, for the
     * lower tail, of the sum under {@code Q}, {@code T log Z_a(lambda) - lambda j} over {@code lambda <= 0}; searched
     * by golden section on block sums of the masses (any tilt is valid: the search only sharpens the allowance), within
     * {@code |lambda| <= 600 / n}, so that no tilted mass overflows.
     */
    static double chernoffTilt(double[] a, double[] b, int shifted, int steps, long j, boolean lowerTail) {
        double[] blockA = logBlocks(blocks(a));
        double[] blockB = lowerTail ? blockA : logBlocks(blocks(b));
        int r = lowerTail ? 0 : shifted;
        double lo = lowerTail ? -600.0 / a.length : 0;
        double hi = lowerTail ? 0 : 600.0 / a.length;
        double g = (Math.sqrt(5) - 1) / 2;
        for (int it = 0; it < 80; it++) {
            double c = hi - g * (hi - lo);
            double d = lo + g * (hi - lo);
            double fc = (steps - r) * logMgf(blockA, c) + r * logMgf(blockB, c) - c * j;
            double fd = (steps - r) * logMgf(blockA, d) + r * logMgf(blockB, d) - d * j;
            if (fc < fd) {
                hi = d;
            } else {
                lo = c;
            }
        }
        return (lo + hi) / 2;
    }

    /**
     * An upper bound on the mass of the lattice sum at or above {@code m} under the tilt {@code lambda > 0}, from block
     * sums (each block's tilted mass at most its mass times {@code e^{lambda (b+1) BLOCK}} over the normaliser's lower
     * bound {@code sum_b mass_b e^{lambda b BLOCK}}) and the Chernoff bound of {@link #chernoffAlias}.
     */
    static double tiltedWrapBound(double[] blockA, double[] blockB, int shifted, int steps, int m,
            double lambda) {
        double[] logA = logBlocks(blockA);
        double[] logB = logBlocks(blockB);
        double logZa = logMgf(logA, lambda) - lambda * BLOCK;
        double logZb = logMgf(logB, lambda) - lambda * BLOCK;
        double best = 0;
        for (int i = 0; i <= 80; i++) {
            double t = 1e-9 * Math.pow(1e10, i / 80.0);
            double v = shifted * (logMgf(logB, lambda + t) - logZb)
                    + (steps - shifted) * (logMgf(logA, lambda + t) - logZa) - t * m;
            best = Math.min(best, v);
        }
        return Math.exp(best);
    }

    /** The mean index of a term's lattice masses. */
    static double meanIndex(double[] x) {
        double sum = 0;
        for (int i = 0; i < x.length; i++) {
            sum += i * x[i];
        }
        return sum;
    }

    /**
     * Replaces the masses {@code x_i} by {@code x_i e^{lambda i} / Z}, {@code Z = sum_i x_i e^{lambda i}}, and returns
     * {@code log Z} (formed from the largest exponent, so that nothing overflows).
     */
    static double tiltInPlace(double[] x, double lambda) {
        double top = Double.NEGATIVE_INFINITY;
        for (int i = 0; i < x.length; i++) {
            if (x[i] > 0) {
                top = Math.max(top, Math.log(x[i]) + lambda * i);
            }
        }
        double sum = 0;
        for (int i = 0; i < x.length; i++) {
            if (x[i] > 0) {
                x[i] = Math.exp(Math.log(x[i]) + lambda * i - top);
                sum += x[i];
            }
        }
        for (int i = 0; i < x.length; i++) {
            x[i] /= sum;
        }
        return top + Math.log(sum);
    }

    /**
     * {@code P(w in (i h, (i+1) h])} for {@code log w ~ N(shift, tau^2)}, {@code i = 0..n-1}, from differences of the
     * normal distribution function taken on the side where they do not cancel.
     */
    static double[] intervalMasses(int n, double h, double tau, double shift) {
        return INTERVALS.get(n, h, tau, shift);
    }

    /** The interval masses last computed (a bracket's set-up asks for each about five times over). */
    private static final IntervalMassCache INTERVALS = new IntervalMassCache(LognormalSumLattice::computeIntervalMasses);

    private static double[] computeIntervalMasses(int n, double h, double tau, double shift) {
        double[] out = new double[n];
        double zPrev = Double.NEGATIVE_INFINITY;
        double cdfPrev = 0;
        double sfPrev = 1;
        for (int i = 0; i < n; i++) {
            double z = (Math.log((i + 1) * h) - shift) / tau;
            double cdf;
            double sf;
            if (z <= 0) {
                cdf = Normal.cdf(z);
                sf = 1 - cdf;
            } else {
                sf = Normal.sf(z);
                cdf = 1 - sf;
            }
            double mass = zPrev >= 0 ? sfPrev - sf : cdf - cdfPrev;
            out[i] = Math.max(0.0, mass);
            zPrev = z;
            cdfPrev = cdf;
            sfPrev = sf;
        }
        return out;
    }

    /**
     * Bounds {@code [lo, hi]} on the mean of one term's rounding offset {@code u = w - h floor(w / h)} (in
     * {@code [0, h)}), for {@code log w ~ N(shift, tau^2)}: {@code E[u] = sum_i (int_{(ih, (i+1)h]} w dF - i h F_i)},
     * each interval's partial expectation being {@code e^{shift + tau^2/2}} times its mass under the law shifted by
     * {@code tau^2}; the intervals above the clamp {@code n h} (where {@code u < h}) are bounded by {@code h} times
     * their probability, and a relative 1e-9 of {@code h} is allowed for rounding.
     */
    static double[] meanOffset(int n, double h, double tau, double shift) {
        double[] mass = intervalMasses(n, h, tau, shift);
        double[] tilted = intervalMasses(n, h, tau, shift + tau * tau);
        double scale = Math.exp(shift + tau * tau / 2);
        double sum = 0;
        for (int i = 0; i < n; i++) {
            sum += scale * tilted[i] - i * h * mass[i];
        }
        double above = Normal.sf((Math.log(n * h) - shift) / tau);
        double slack = 1e-9 * h;
        return new double[] {Math.max(0, sum - slack), Math.min(h, sum + h * above + slack)};
    }

    /** The term's lattice masses: interval {@code i} to point {@code i + 1} (rounded up) or {@code i} (down). */
    private static double[] lattice(double[] interval, int n, boolean roundUp) {
        double[] out = new double[n + 1];
        System.arraycopy(interval, 0, out, roundUp ? 1 : 0, n);
        return out;
    }

    private static double mostNegative(double[] x) {
        double worst = 0;
        for (double v : x) {
            worst = Math.min(worst, v);
        }
        return -worst;
    }

    /**
     * A Chernoff bound on the lattice mass of {@code r firsts + (steps - r) others} at or above {@code m}:
     * {@code min_t M_first(t)^r M_other(t)^(steps-r) e^{-t m}}, with each moment generating function bounded above
     * blockwise; {@code t} on a logarithmic grid of index units.
     */
    static double chernoffAlias(double[] other, double[] first, int r, int steps, int m) {
        return chernoffFromBlocks(blocks(other), blocks(first), r, steps, m);
    }

    /** {@link #chernoffAlias} from the terms' block sums ({@link #blocks}). */
    static double chernoffFromBlocks(double[] blockOther, double[] blockFirst, int r, int steps, long m) {
        double[] logOther = logBlocks(blockOther);
        double[] logFirst = blockFirst == blockOther ? logOther : logBlocks(blockFirst);
        double best = 0; // log bound; t -> 0 gives the total mass, at most 1
        for (int i = 0; i <= 80; i++) {
            double t = 1e-9 * Math.pow(1e10, i / 80.0);
            double v = r * logMgf(logFirst, t) + (steps - r) * logMgf(logOther, t) - t * m;
            best = Math.min(best, v);
        }
        return Math.exp(best);
    }

    /** Sums of {@value #BLOCK} consecutive masses. */
    static double[] blocks(double[] x) {
        double[] out = new double[(x.length + BLOCK - 1) / BLOCK];
        for (int j = 0; j < x.length; j++) {
            out[j / BLOCK] += x[j];
        }
        return out;
    }

    /**
     * The logs of block sums ({@link #blocks}), {@code -inf} where a block's mass is not positive: computed once per
     * search, not once per {@link #logMgf} evaluation (the same numbers, bit for bit).
     */
    static double[] logBlocks(double[] blockMass) {
        double[] out = new double[blockMass.length];
        for (int b = 0; b < blockMass.length; b++) {
            out[b] = blockMass[b] > 0 ? Math.log(blockMass[b]) : Double.NEGATIVE_INFINITY;
        }
        return out;
    }

    /**
     * {@code log sum_b mass_b e^{t (b+1) BLOCK}} from the blocks' logs ({@link #logBlocks}): an upper bound on the log
     * MGF at {@code t > 0}.
     */
    private static double logMgf(double[] logBlock, double t) {
        double top = Double.NEGATIVE_INFINITY;
        for (int b = 0; b < logBlock.length; b++) {
            if (logBlock[b] > Double.NEGATIVE_INFINITY) {
                top = Math.max(top, logBlock[b] + t * (b + 1.0) * BLOCK);
            }
        }
        if (top == Double.NEGATIVE_INFINITY) {
            return Double.NEGATIVE_INFINITY;
        }
        double sum = 0;
        for (int b = 0; b < logBlock.length; b++) {
            if (logBlock[b] > Double.NEGATIVE_INFINITY) {
                sum += Math.exp(logBlock[b] + t * (b + 1.0) * BLOCK - top);
            }
        }
        return top + Math.log(sum);
    }
}

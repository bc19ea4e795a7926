package io.dpaudit.mechanisms.participation;

import io.dpaudit.core.law.BinomialTable;
import io.dpaudit.core.bounds.BoundKind;
import io.dpaudit.core.bounds.GaussianBound;
import io.dpaudit.core.bounds.NamedBound;
import io.dpaudit.core.bounds.PrivacyBound;
import io.dpaudit.core.numerics.LogSpace;
import io.dpaudit.core.numerics.Normal;
import io.dpaudit.core.numerics.RootFinder;
import io.dpaudit.core.numerics.SafeRounding;
import java.util.Locale;
import java.util.function.DoubleUnaryOperator;

/**
 * The privacy bounds of Hasircioğlu &amp; Gündüz, "Privacy Amplification via Random Participation in Federated
 * Learning" (seed 000), each as a profile {@code delta(eps)} for one iteration, with the parametrisation of the paper:
 * {@code eps'} is the free variable of each statement, solved for from {@code eps}.
 *
 * <p>Two misprints are corrected and the printed forms kept as {@link BoundKind#KNOWN_WRONG} claims:
 * Theorem 5.1 and Corollary 5.3 print {@code eps = log(1 + q(e^{eps'-1}))}, a typo for
 * {@code log(1 + q(e^{eps'} - 1))} (Poisson amplification, BBG18; the printed form gives {@code log(1 + q/e) > 0} at
 * {@code eps' = 0} and no amplification at q = 1 — formula sheet §11); and Corollary 5.3 prints the rate {@code q}
 * although its own text says that central shuffling samples each element with probability {@code pq}.
 */
public final class RandomParticipationBounds {
    private RandomParticipationBounds() {
    }

    /**
     * Whether {@code pq = 1}: every client and record joins, {@code eps' = eps} and {@code beta = 1}, so the terms
     * {@code (1 - beta) (1-p)/(1-pq)} and {@code (1 - beta) p(1-q)/(1-pq)} of Theorems 4.1 and 5.2 are 0, not the
     * 0/0 that doubles would make of them (Theorem 4.1 then reported delta = 0 for every eps, Theorem 5.2 NaN).
     */
    static boolean everyoneJoins(double pq) {
        return pq >= 1;
    }

    /** {@code eps' = log(1 + (e^eps - 1) / rate)}, the base ε of Poisson amplification. */
    static double baseEpsilon(double epsilon, double rate) {
        return io.dpaudit.core.bounds.PoissonAmplificationBound.baseEpsilon(epsilon, rate);
    }

    /**
     * Theorem 4.1 (Eqs. 5–7): for {@code eps = log(1 + pq(e^{eps'} - 1))}, with {@code a' = e^{eps'}},
     * {@code beta = e^{eps - eps'}}, {@code c1 = (1 - beta)(1-p)/(1-pq)}, {@code c2 = p(1-q)/(1-pq)(1-beta) + beta}
     * and {@code w_i = Binomial(i; d, q)},
     * <pre>
     * delta = pq ( sum_i w_i (Phibar((z - (i+1)C)/s) - a' c2 Phibar((z - iC)/s)) - a' c1 Phibar(z/s) )
     * </pre>
     * where {@code z = z*} solves Eq. (7), {@code sum_i w_i (phi_{(i+1)C} - a' c2 phi_{iC}) - a' c1 phi_0 = 0}. This
     * is Eq. (6) rewritten with survival functions (the two agree since {@code sum w_i = 1}) and evaluated in log
     * space. Eq. (7) is solved in log space: its left side changes sign from negative to positive once on the right
     * (the relevant crossing, the start of the region where the integrand of Eq. (28) is positive); all crossings are
     * located on a grid of spacing {@code s/16} over {@code [-40 s, (d+1) C + 40 s + s^2 log(a'(c1 + c2))/C]} and the
     * last upward one is refined by bracketing.
     *
     * <p>The statement bounds {@code H(M(D with x') || M(D without x'))} for the configuration of Eq. (27) (the other
     * records of the client aligned with {@code x'}); it is exact for that configuration. Whether other
     * configurations exceed it is what an audit tests.
     */
    public static PrivacyBound theorem41(double p, double q, int d, double sigma, double clip) {
        Theorem41 t = new Theorem41(p, q, new BinomialTable(d, q), sigma, clip);
        return new Profile("thm-4.1", String.format(Locale.ROOT, "Hasircioglu & Gunduz, Theorem 4.1 (Eqs. 5-7), "
                + "random participation, p=%s, q=%s, d=%d, sigma=%s, C=%s", fmt(p), fmt(q), d, fmt(sigma), fmt(clip)),
                BoundKind.UPPER_BOUND, t::delta);
    }

    static double theorem41Delta(double epsilon, double p, double q, BinomialTable w, double sigma, double clip) {
        return new Theorem41(p, q, w, sigma, clip).delta(epsilon);
    }

    /**
     * Theorem 4.1 for fixed {@code (p, q, d, sigma, C)} as a function of {@code eps}. Eq. (7) reads
     * {@code L(z) = log(a'c2 R(z) + a'c1 phi(z/s))} with {@code L(z) = log sum_i w_i phi((z - (i+1)C)/s)} and
     * {@code R(z) = sum_i w_i phi((z - iC)/s)}, where only {@code a'c1} and {@code a'c2} depend on {@code eps}; so
     * {@code L}, {@code log R} and {@code log phi(z/s)} are tabulated once on the search grid (spacing {@code s/16}
     * from {@code -40 s}), and each {@code eps} costs a log-sum of two terms per grid point instead of {@code 2(d+1)}
     * densities. The grid reaches the right end needed for {@code eps <= 64} (the end grows with {@code eps} as
     * {@code s^2 eps'/C}, since {@code c1 + c2 = 1}); a larger {@code eps}, or a grid of more than 2^18 points,
     * is searched on a grid of its own as before. The crossing is refined on the untabulated function.
     */
    private static final class Theorem41 {
        private static final double TABULATED_EPSILON = 64;
        private static final int MAX_TABULATED = 1 << 18;
        private final double p;
        private final double q;
        private final double sigma;
        private final double clip;
        private final int first;
        private final int size;
        private final double[] logW;
        private final double lo;
        private final double spacing;
        private final double[] logLeft;
        private final double[] logRight;
        private final double[] logZero;

        Theorem41(double p, double q, BinomialTable w, double sigma, double clip) {
            this.p = p;
            this.q = q;
            this.sigma = sigma;
            this.clip = clip;
            this.first = w.first();
            this.size = w.size();
            this.logW = new double[size];
            for (int k = 0; k < size; k++) {
                logW[k] = Math.log(w.probability(k));
            }
            this.lo = -40 * sigma;
            this.spacing = sigma / 16;
            double hi = right(baseEpsilon(TABULATED_EPSILON, p * q));
            double points = Math.ceil((hi - lo) / spacing) + 1;
            int n = points <= MAX_TABULATED ? (int) points : 0;
            this.logLeft = new double[n];
            this.logRight = new double[n];
            this.logZero = new double[n];
            double[] terms = new double[size];
            for (int i = 0; i < n; i++) {
                double z = lo + i * spacing;
                logLeft[i] = logLeft(z, terms);
                logRight[i] = logRight(z, terms);
                logZero[i] = Normal.logPdf(z / sigma);
            }
        }

        /** The right end of the search for the crossing, for base {@code eps'} with {@code log a' = eps'}. */
        private double right(double logA) {
            return (first + size) * clip + 40 * sigma + sigma * sigma * Math.max(0, logA) / clip;
        }

        private double logLeft(double z, double[] terms) {
            for (int k = 0; k < size; k++) {
                terms[k] = logW[k] + Normal.logPdf((z - (first + k + 1) * clip) / sigma);
            }
            return LogSpace.sum(terms, 0, size);
        }

        private double logRight(double z, double[] terms) {
            for (int k = 0; k < size; k++) {
                terms[k] = logW[k] + Normal.logPdf((z - (first + k) * clip) / sigma);
            }
            return LogSpace.sum(terms, 0, size);
        }

        double delta(double epsilon) {
            double pq = p * q;
            double epsP = baseEpsilon(epsilon, pq);
            double logA = epsP;
            double beta = Math.exp(epsilon - epsP);
            double c1 = everyoneJoins(pq) ? 0 : (1 - beta) * (1 - p) / (1 - pq);
            double c2 = everyoneJoins(pq) ? 1 : p * (1 - q) / (1 - pq) * (1 - beta) + beta;
            if (Double.isNaN(c1) || !(c2 > 0)) {
                // never a silent 0 below: a NaN here would find no crossing and report delta = 0 (a c1 a rounding
                // below 0, where beta comes out a hair above 1, is 0: see logAc1)
                throw new IllegalStateException("Theorem 4.1 at p=" + p + ", q=" + q + ", eps=" + epsilon
                        + ": c1=" + c1 + ", c2=" + c2);
            }
            double logAc1 = c1 > 0 ? logA + Math.log(c1) : Double.NEGATIVE_INFINITY;
            double logAc2 = logA + Math.log(c2);
            double[] terms = new double[size];
            DoubleUnaryOperator g = z -> logLeft(z, terms)
                    - LogSpace.add(logAc2 + logRight(z, terms), logAc1 + Normal.logPdf(z / sigma));
            double hi = right(logA);
            double z = Double.NaN;
            int tabulated = (int) Math.ceil((hi - lo) / spacing) + 1;
            if (tabulated <= logLeft.length) {
                double prev = logLeft[0] - LogSpace.add(logAc2 + logRight[0], logAc1 + logZero[0]);
                if (prev > 0) {
                    z = Double.NEGATIVE_INFINITY;
                }
                for (int i = 1; i < tabulated; i++) {
                    double cur = logLeft[i] - LogSpace.add(logAc2 + logRight[i], logAc1 + logZero[i]);
                    if (prev <= 0 && cur > 0) {
                        z = crossing(g, lo + (i - 1) * spacing, lo + i * spacing);
                    }
                    prev = cur;
                }
            } else {
                int n = (int) Math.min(2_000_000, Math.ceil((hi - lo) / spacing));
                double prevX = lo;
                double prev = g.applyAsDouble(lo);
                if (prev > 0) {
                    z = Double.NEGATIVE_INFINITY;
                }
                for (int i = 1; i <= n; i++) {
                    double x = lo + (hi - lo) * i / n;
                    double cur = g.applyAsDouble(x);
                    if (prev <= 0 && cur > 0) {
                        z = crossing(g, prevX, x);
                    }
                    prev = cur;
                    prevX = x;
                }
            }
            if (Double.isNaN(z)) {
                return 0.0; // the integrand of Eq. (28) is nowhere positive
            }
            // delta = pq (S1 - S2), S1 = sum w_i Phibar((z-(i+1)C)/s), S2 = a'c2 sum w_i Phibar((z-iC)/s) + a'c1 Phibar(z/s)
            for (int k = 0; k < size; k++) {
                terms[k] = logW[k] + Normal.logSf((z - (first + k + 1) * clip) / sigma);
            }
            double logS1 = LogSpace.sum(terms, 0, size);
            for (int k = 0; k < size; k++) {
                terms[k] = logW[k] + Normal.logSf((z - (first + k) * clip) / sigma);
            }
            double logS2 = LogSpace.add(logAc2 + LogSpace.sum(terms, 0, size), logAc1 + Normal.logSf(z / sigma));
            if (!(logS1 > logS2)) {
                return 0.0;
            }
            return Math.min(1.0, pq * Math.exp(logS1 + LogSpace.log1mExp(logS2 - logS1)));
        }

        private static double crossing(DoubleUnaryOperator g, double a, double b) {
            RootFinder.Bracket bracket = RootFinder.solve(g, a, b, 0, 1e-12);
            return 0.5 * (bracket.lo() + bracket.hi());
        }
    }

    /**
     * Theorem 5.2 (weak client sampling, identities of joining clients public): for
     * {@code eps = log(1 + pq(e^{eps'} - 1))}, {@code delta = pq delta_G(eps''; C/s)} with
     * {@code eps'' = eps' + log(e^{eps - eps'} + (1 - e^{eps - eps'}) p(1-q)/(1-pq))} (Eqs. 10–11).
     */
    public static PrivacyBound wcs(double p, double q, double sigma, double clip) {
        double mu = clip / sigma;
        return new Profile("wcs-thm5.2", String.format(Locale.ROOT, "Hasircioglu & Gunduz, Theorem 5.2 (Eqs. 10-11), "
                + "weak client sampling, p=%s, q=%s, sigma=%s, C=%s", fmt(p), fmt(q), fmt(sigma), fmt(clip)),
                BoundKind.UPPER_BOUND, eps -> {
                    double pq = p * q;
                    double epsP = baseEpsilon(eps, pq);
                    double beta = Math.exp(eps - epsP);
                    double eps2 = everyoneJoins(pq) ? epsP
                            : epsP + Math.log(beta + (1 - beta) * p * (1 - q) / (1 - pq));
                    return Math.min(1.0, pq * GaussianBound.exactDelta(eps2, mu));
                });
    }

    /**
     * Theorem 5.1 (only local sampling), corrected: {@code eps = log(1 + q(e^{eps'} - 1))},
     * {@code delta = q delta_G(eps'; C/s)} (Eqs. 8–9; Poisson amplification of the Gaussian, BBG18 Thm 8).
     */
    public static PrivacyBound ols(double q, double sigma, double clip) {
        return poissonForm("ols-thm5.1", "Theorem 5.1 (Eqs. 8-9), only local sampling, corrected: eps = log(1 + q(e^eps'"
                + " - 1))", q, sigma, clip, BoundKind.UPPER_BOUND);
    }

    /**
     * Corollary 5.3 (central shuffling), corrected: the rate is {@code pq}, as the corollary's own text says:
     * {@code eps = log(1 + pq(e^{eps'} - 1))}, {@code delta = pq delta_G(eps'; C/s)} (Eqs. 12–13).
     *
     * @param kind {@link BoundKind#UPPER_BOUND} for the central-shuffling scheme itself;
     *     {@link BoundKind#PAIR_PROFILE} when drawn for random participation, for which it is the exact profile of
     *     the configuration with zero other gradients (a lower bound, as the paper uses it)
     */
    public static PrivacyBound cs(double p, double q, double sigma, double clip, BoundKind kind) {
        return poissonForm("cs-cor5.3", "Corollary 5.3 (Eqs. 12-13), central shuffling, corrected: rate pq, eps = "
                + "log(1 + pq(e^eps' - 1))", p * q, sigma, clip, kind);
    }

    /** Theorem 5.1 as printed, {@code eps = log(1 + q e^{eps' - 1})}: known to be wrong (a misprint). */
    public static PrivacyBound olsAsPrinted(double q, double sigma, double clip) {
        return printedForm("ols-thm5.1-as-printed", "Theorem 5.1 as printed, eps = log(1 + q(e^{eps'-1})) - a misprint "
                + "of log(1 + q(e^{eps'} - 1)); kept as a known-wrong claim", q, sigma, clip);
    }

    /** Corollary 5.3 as printed: rate q and {@code eps = log(1 + q e^{eps' - 1})}: known to be wrong. */
    public static PrivacyBound csAsPrinted(double q, double sigma, double clip) {
        return printedForm("cs-cor5.3-as-printed", "Corollary 5.3 as printed, eps = log(1 + q(e^{eps'-1})) with rate q - "
                + "misprints of log(1 + pq(e^{eps'} - 1)); kept as a known-wrong claim", q, sigma, clip);
    }

    private static PrivacyBound poissonForm(String name, String what, double rate, double sigma, double clip,
            BoundKind kind) {
        double mu = clip / sigma;
        return new Profile(name, String.format(Locale.ROOT, "Hasircioglu & Gunduz, %s, rate=%s, sigma=%s, C=%s", what,
                fmt(rate), fmt(sigma), fmt(clip)), kind,
                eps -> Math.min(1.0, rate * GaussianBound.exactDelta(baseEpsilon(eps, rate), mu)));
    }

    private static PrivacyBound printedForm(String name, String what, double rate, double sigma, double clip) {
        double mu = clip / sigma;
        // eps = log(1 + q e^{eps'-1})  <=>  eps' = 1 + log((e^eps - 1)/q); at eps = 0 no finite eps' exists.
        return new Profile(name, String.format(Locale.ROOT, "Hasircioglu & Gunduz, %s, q=%s, sigma=%s, C=%s", what,
                fmt(rate), fmt(sigma), fmt(clip)), BoundKind.KNOWN_WRONG, eps -> {
                    if (eps <= 0) {
                        return 1.0;
                    }
                    double r = Math.expm1(eps) / rate;
                    // log((e^eps - 1)/rate) in log space where e^eps overflows
                    double epsP = 1 + (Double.isFinite(r) ? Math.log(r)
                            : eps + Math.log1p(-Math.exp(-eps)) - Math.log(rate));
                    return Math.min(1.0, rate * GaussianBound.exactDelta(epsP, mu));
                });
    }

    private static String fmt(double x) {
        return io.dpaudit.core.Checks.format(x);
    }

    /** A bound given by its profile function, rounded up. */
    static final class Profile extends NamedBound {
        private final java.util.function.DoubleUnaryOperator profile;

        Profile(String name, String source, BoundKind kind, java.util.function.DoubleUnaryOperator profile) {
            super(name, source, kind);
            this.profile = profile;
        }

        @Override
        public double delta(double epsilon) {
            double d = profile.applyAsDouble(epsilon);
            if (Double.isNaN(d) && !Double.isNaN(epsilon)) {
                throw new IllegalStateException(name() + ": delta(" + epsilon + ") is NaN");
            }
            return SafeRounding.upProbability(d);
        }
    }
}

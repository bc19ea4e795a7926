package io.dpaudit.core.bounds;

import io.dpaudit.core.law.GaussianMixture;
import io.dpaudit.core.numerics.Normal;
import io.dpaudit.core.numerics.SafeRounding;

/**
 * The exact privacy profile (both directions) of a two-dimensional neighbouring pair of the form
 * <pre>
 *   P (with the record):    A(v) phi(u) + B(v) phi(u - mu)
 *   Q (without the record): G(v) phi(u)
 * </pre>
 * with {@code A, B, G} one-dimensional Gaussian mixtures in {@code v} (A and B sub-normalised, {@code A + B} and
 * {@code G} of mass one) and {@code phi} the standard normal density in units of the noise — the orthogonal
 * configuration of random participation, where {@code v} reveals how many of the client's other records were sampled.
 *
 * <p>For fixed {@code v} the likelihood ratio is monotone in {@code u}, so the inner integral has a closed form:
 * {@code int (p - e^eps q)_+ du = (A - e^eps G) Phibar(t) + B Phibar(t - mu)} with {@code t} the unique crossing
 * (or {@code A - e^eps G + B} when {@code A >= e^eps G}); the reverse direction likewise with {@code Phi}. The outer
 * integral over {@code v} uses the trapezoid rule on a grid of spacing {@code s/64} over all means plus and minus
 * 40 s, with the three densities precomputed once. The inner integral is a smooth function of {@code v} (where the
 * inner case changes, at {@code A = e^eps G}, its value and slope agree from both sides), so the rule converges
 * quickly: over seed 000's configurations ({@code sigma} from 0.3 to 2, {@code d} up to 100, {@code eps} from 0 to
 * 8) it agrees with the rule at spacing {@code s/256} to 2e-7 relative, and with an independent quadrature to the
 * 1e-4 the tests ask.
 *
 * <p>Grid points whose contribution is provably below {@value #NEGLIGIBLE} skip the two normal tails it would cost:
 * the contribution is then replaced by that upper bound ({@code B(v)}, or {@code B(v) phi(t - mu)/(t - mu)} by Mills'
 * inequality), so the sum can only move up, by less than {@code 1e-44} times the grid's length.
 */
public final class ShiftedMixtureProfile implements PairProfile {
    /** A contribution (density) below which the exact inner integral is replaced by an upper bound on it. */
    static final double NEGLIGIBLE = 1e-44;
    private final String name;
    private final String source;
    private final double mu;
    private final double scale;
    private final double step;
    private final double[] a;
    private final double[] b;
    private final double[] g;

    /**
     * @param lawA law of v when the record is present and not included, normalised; {@code weightA} its probability
     *     (null when that probability is 0: the record is then always included)
     * @param lawB law of v when the record is present and included, normalised; {@code weightB} its probability
     *     (null when that probability is 0)
     * @param lawG law of v without the record
     * @param shift the record's shift of u, in the same units as the mixtures' standard deviation
     * @param scale factor multiplying both divergences (the probability of the event in which the pair differs)
     */
    public ShiftedMixtureProfile(String name, String source, GaussianMixture lawA, double weightA,
            GaussianMixture lawB, double weightB, GaussianMixture lawG, double shift, double scale) {
        this.name = name;
        this.source = source;
        double s = lawG.sd();
        this.mu = shift / s;
        this.scale = scale;
        if ((lawA == null) != (weightA == 0) || (lawB == null) != (weightB == 0)) {
            throw new IllegalArgumentException("a part's law is null exactly when its weight is 0");
        }
        double lo = lawG.minMean();
        double hi = lawG.maxMean();
        for (GaussianMixture part : new GaussianMixture[] {lawA, lawB}) {
            if (part != null) {
                lo = Math.min(lo, part.minMean());
                hi = Math.max(hi, part.maxMean());
            }
        }
        lo -= 40 * s;
        hi += 40 * s;
        double points = Math.ceil((hi - lo) / (s / 64));
        if (!(points <= MixturePairProfile.MAX_GRID)) {
            throw new io.dpaudit.core.bounds.AccountingLimitException("bound " + name, "(these parameters)",
                    String.format(java.util.Locale.ROOT, "the means are %.3g noise standard deviations apart: the "
                    + "exact profile would need %.3g grid points (at most %d); no finite answer at this noise",
                    (hi - lo - 80 * s) / s, points, MixturePairProfile.MAX_GRID));
        }
        int n = (int) points;
        this.step = (hi - lo) / n;
        this.a = new double[n + 1];
        this.b = new double[n + 1];
        this.g = new double[n + 1];
        double[] x = new double[1];
        double norm = -Math.log(s) - Normal.LOG_SQRT_2PI;
        for (int i = 0; i <= n; i++) {
            x[0] = lo + i * step;
            a[i] = lawA == null ? 0 : weightA * Math.exp(lawA.logDensityUnnormalized(x, 0) + norm);
            b[i] = lawB == null ? 0 : weightB * Math.exp(lawB.logDensityUnnormalized(x, 0) + norm);
            g[i] = Math.exp(lawG.logDensityUnnormalized(x, 0) + norm);
        }
    }

    @Override
    public String name() {
        return name;
    }

    @Override
    public String source() {
        return source;
    }

    @Override
    public BoundKind kind() {
        return BoundKind.PAIR_PROFILE;
    }

    @Override
    public double delta(double epsilon) {
        return SafeRounding.upProbability(Math.max(remove(epsilon), add(epsilon)));
    }

    /** {@code scale * H_{e^eps}(P || Q)}. */
    @Override
    public double remove(double epsilon) {
        double e = Math.exp(epsilon);
        double sum = 0;
        for (int i = 0; i < g.length; i++) {
            double lead = a[i] - times(e, g[i]);
            double tail = b[i];
            double v;
            if (lead >= 0) {
                v = lead + tail;
            } else if (tail <= 0) {
                v = 0;
            } else if (tail < NEGLIGIBLE) {
                v = tail; // v <= tail * Phibar(t - mu) <= tail
            } else {
                // lead phi(t) + tail phi(t - mu) = 0  <=>  t = (log(-lead / tail) + mu^2 / 2) / mu
                double t = (Math.log(-lead / tail) + 0.5 * mu * mu) / mu;
                double mills = t - mu > 1 ? tail * Math.exp(Normal.logPdf(t - mu)) / (t - mu) : 1;
                v = mills < NEGLIGIBLE ? mills : lead * Normal.sf(t) + tail * Normal.sf(t - mu);
            }
            sum += (i == 0 || i == g.length - 1 ? 0.5 : 1.0) * Math.max(0.0, v);
        }
        return Math.min(1.0, scale * sum * step);
    }

    /** {@code e x}, 0 for {@code x = 0} even when {@code e = e^eps} overflowed (eps > 709): never inf * 0 = NaN. */
    private static double times(double e, double x) {
        return x == 0 ? 0 : e * x;
    }

    /** {@code scale * H_{e^eps}(Q || P)}. */
    @Override
    public double add(double epsilon) {
        double e = Math.exp(epsilon);
        double sum = 0;
        for (int i = 0; i < g.length; i++) {
            double lead = g[i] - times(e, a[i]);
            double tail = times(e, b[i]);
            double v;
            if (lead <= 0) {
                v = 0;
            } else if (tail <= 0) {
                v = lead;
            } else if (lead < NEGLIGIBLE) {
                v = lead; // v <= lead * Phi(t) <= lead
            } else {
                // lead phi(t) - tail phi(t - mu) > 0 for u < t
                double t = (Math.log(lead / tail) + 0.5 * mu * mu) / mu;
                double mills = t < -1 ? lead * Math.exp(Normal.logPdf(t)) / -t : 1;
                v = mills < NEGLIGIBLE ? mills : lead * Normal.cdf(t) - tail * Normal.cdf(t - mu);
            }
            sum += (i == 0 || i == g.length - 1 ? 0.5 : 1.0) * Math.max(0.0, v);
        }
        return Math.min(1.0, scale * sum * step);
    }
}

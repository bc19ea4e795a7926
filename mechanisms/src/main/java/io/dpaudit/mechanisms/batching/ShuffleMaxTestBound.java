package io.dpaudit.mechanisms.batching;

import io.dpaudit.core.bounds.BoundKind;
import io.dpaudit.core.bounds.PrivacyBound;
import io.dpaudit.core.numerics.Normal;

/**
 * The lower bound of Chua, Ghazi, Kamath, Kumar, Manurangsi, Sinha &amp; Zhang ("How Private are DP-SGD
 * Implementations?", ICML 2024) on shuffled batches: on the pair {@code P = (1/T) sum_t N(2 e_t, s^2 I_T)} against
 * {@code Q = (1/T) sum_t N(e_t, s^2 I_T)} (every other record's clipped gradient opposite to the canary's), the single
 * test {@code E_C = {max_t x_t > C}} gives
 * <pre>
 * delta_S(eps) >= max_C [P(E_C) - e^eps Q(E_C)],   P(max <= C) under a shift m: Phi((C - m)/s) Phi(C/s)^(T-1),
 * </pre>
 * a lower bound on the δ that any correct accounting of shuffled batches must give (formula sheet §14). One epoch,
 * or E epochs of a persistent shuffle ({@code s = sigma / sqrt(E)}: the per-step sums over the epochs). E epochs of a
 * dynamic shuffle draw a new permutation each, so the epochs are independent: the count of epochs whose maximum exceeds
 * C is Binomial(E, P(E_C)) against Binomial(E, Q(E_C)), a post-processing of the output whose divergence, in both
 * directions, is the bound ({@link EpochCounts}; formula sheet §14: the max statistic composed E times).
 *
 * <p>Computed in log space ({@code (T-1) log Phi}), maximised over C on a grid of 4000 points spanning the noise
 * (C from {@code 1.5 - 12 s} to {@code 2 + 60 s}) refined by golden-section search around the best, and rounded down
 * (a lower bound). ε(δ) is the lower end of the root bracket of the profile, rounded down.
 */
final class ShuffleMaxTestBound implements PrivacyBound {
    static final String NAME = "chua24-shuffle-lower";
    private final int steps;
    private final double s;
    /** The epochs' counts, for E epochs of a dynamic shuffle; null for one epoch or a persistent shuffle. */
    private final EpochCounts counts;
    private final String source;

    ShuffleMaxTestBound(BatchingParameters b) {
        this.steps = b.steps();
        this.s = b.persistent() ? b.sigma() / Math.sqrt(b.epochs()) : b.sigma();
        this.counts = b.epochs() > 1 && !b.persistent() ? new EpochCounts(b.epochs()) : null;
        this.source = "Chua et al. (ICML 2024), the max test on the shuffle's pair (1/T) sum N(2 e_t) vs (1/T) sum "
                + "N(e_t): a proven lower bound on shuffled batches' delta(eps)" + (b.epochs() > 1 && !b.persistent()
                ? ", over " + b.epochs() + " dynamic epochs the count of epochs whose maximum exceeds C, both directions"
                : "");
    }

    @Override
    public String name() {
        return NAME;
    }

    @Override
    public String source() {
        return source;
    }

    @Override
    public BoundKind kind() {
        return BoundKind.LOWER_BOUND;
    }

    /** ε(δ) of a lower bound: rounded down, finite wherever the search ran. */
    @Override
    public double epsilon(double delta) {
        return PrivacyBound.epsilonFromLowerProfile(this, delta);
    }

    @Override
    public double delta(double epsilon) {
        return ThresholdSearch.supremum(c -> gap(c, epsilon), 1.5 - 12 * s, 2 + 60 * s);
    }

    /**
     * {@code P(E_C) - e^eps Q(E_C)} (NaN-free; -inf where e^eps overflows against a positive Q(E_C)). Both
     * probabilities are {@code 1 - Phi(x) Phi(c/s)^(T-1)}; where that is below about 1e-200 it is taken in log space
     * ({@link #logOneMinusCdfProductTail}), so that a Q(E_C) below double precision's smallest number is still
     * positive: rounded to 0 it made the bound optimistic (ε = inf at σ = 0.01, above the deterministic upper bound).
     */
    private double gap(double c, double epsilon) {
        if (counts != null) {
            double x2 = (c - 2) / s;
            double x1 = (c - 1) / s;
            double y = c / s;
            double logOthers = (steps - 1) * Normal.logCdf(y);
            return counts.bothDirections(AllocationMaxTestBound.logOneMinusProduct(x2, 1, y, steps - 1),
                    Normal.logCdf(x2) + logOthers, AllocationMaxTestBound.logOneMinusProduct(x1, 1, y, steps - 1),
                    Normal.logCdf(x1) + logOthers, epsilon);
        }
        double logOthers = (steps - 1) * Normal.logCdf(c / s);
        double lp = Normal.logCdf((c - 2) / s) + logOthers;
        double lq = Normal.logCdf((c - 1) / s) + logOthers;
        double p = lp < -DIRECT ? -Math.expm1(lp) : Math.exp(logOneMinusCdfProductTail((c - 2) / s, c / s));
        double logQ = lq < -DIRECT ? Math.log(-Math.expm1(lq)) : logOneMinusCdfProductTail((c - 1) / s, c / s);
        if (logQ == Double.NEGATIVE_INFINITY) {
            return p * (1 - ROUNDING);
        }
        double logTerm = epsilon + logQ;
        if (logTerm > 700) {
            return Double.NEGATIVE_INFINITY;
        }
        double term = Math.exp(logTerm);
        return p - term - ROUNDING * (p + term);
    }

    /**
     * Relative error allowed for each of the two probabilities. They come from {@code log Phi} through one
     * {@code expm1} (or in log space), each a few ulps: their rounding moves {@code P(E_C) - e^eps Q(E_C)} by at most
     * about 1e-16 times the two terms. Where the terms nearly cancel (σ = 1e12: both about 0.5, their difference
     * 4e-13) that is a relative 4e-4 of the answer, which came out that much above the exact Gaussian profile at T = 1.
     * Subtracting 1e-13 of the terms keeps a lower bound below the truth with a margin of several hundred.
     */
    private static final double ROUNDING = 1e-13;

    /**
     * Above this, {@code L = log Phi(x) + (T-1) log Phi(y)} is used directly: a factor's {@code log Phi} that
     * underflowed (below 2.2e-308 in magnitude, at most {@code T} of them) moves it by a relative 1e-100 at most.
     */
    private static final double DIRECT = 1e-200;

    /**
     * {@code log(1 - Phi(x) Phi(y)^(T-1))} where {@code L = log Phi(x) + (T-1) log Phi(y)} is tiny: {@code log(-L)} is
     * formed from {@link #logMinusLogCdf} of each factor (each {@code log Phi} may have underflowed to 0), and the
     * probability {@code 1 - e^L = -expm1(L)} from it; below {@code e^-700} it is {@code -L} itself (exact to a
     * relative {@code e^-700}: {@code 1 - e^L} lies between {@code -L (1 + L/2)} and {@code -L}).
     */
    private double logOneMinusCdfProductTail(double x, double y) {
        double logMinusL = logMinusLogCdf(x);
        if (steps > 1) {
            logMinusL = logAddExp(logMinusL, Math.log(steps - 1.0) + logMinusLogCdf(y));
        }
        if (logMinusL < -700) {
            return logMinusL;
        }
        return Math.log(-Math.expm1(-Math.exp(logMinusL)));
    }

    /**
     * {@code log(-log Phi(x))}, accurate where {@code Phi(x)} rounds to 1: there {@code -log Phi(x) = -log1p(-u)} with
     * {@code u = Phi(-x)}, taken as {@code u} itself once {@code u < 1e-300} (relative error {@code u/2}).
     */
    static double logMinusLogCdf(double x) {
        if (x < 5) {
            return Math.log(-Normal.logCdf(x));
        }
        double logU = Normal.logCdf(-x);
        double u = Math.exp(logU);
        return u > 1e-300 ? Math.log(-Math.log1p(-u)) : logU;
    }

    private static double logAddExp(double a, double b) {
        double m = Math.max(a, b);
        return m == Double.NEGATIVE_INFINITY ? m : m + Math.log1p(Math.exp(Math.min(a, b) - m));
    }
}

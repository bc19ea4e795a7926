package io.dpaudit.mechanisms.batching;

import io.dpaudit.core.Checks;
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
 * <p>Other datasets of the same family ({@code others}: every other record's clipped gradient v in [-1, 1], v = -1
 * being Chua et al.'s): the canary's step shows {@code 1 - v} against {@code -v}, the same tests on that pair, with the
 * minimum's where v &gt; 0 (⊥ then lowers the canary's step). Each is a dataset the shuffle
 * must protect, so each gives a proven lower bound; which is highest is what the {@code lower-bound} screen of a pair
 * search finds.
 *
 * <p>Computed in log space ({@code (T-1) log Phi}), maximised over C on a grid of 4000 points spanning the noise
 * (C from {@code 1.5 - 12 s} to {@code 2 + 60 s} for Chua et al.'s pair) refined by golden-section search around the best, and rounded down
 * (a lower bound). ε(δ) is the lower end of the root bracket of the profile, rounded down.
 */
final class ShuffleMaxTestBound implements PrivacyBound {
    static final String NAME = "chua24-shuffle-lower";
    private final int steps;
    private final double s;
    /** The epochs' counts, for E epochs of a dynamic shuffle; null for one epoch or a persistent shuffle. */
    private final EpochCounts counts;
    /** The canary's step's shift with the canary ({@code 1 - v}) and with ⊥ ({@code -v}). */
    private final double with;
    private final double without;
    private final String source;

    ShuffleMaxTestBound(BatchingParameters b) {
        this.steps = b.steps();
        this.s = b.persistent() ? b.sigma() / Math.sqrt(b.epochs()) : b.sigma();
        this.counts = b.epochs() > 1 && !b.persistent() ? new EpochCounts(b.epochs()) : null;
        this.with = b.canaryShift();
        this.without = b.absentShift();
        boolean chua = b.others() == BatchingParameters.CHUA_OTHERS;
        this.source = (chua ? "Chua et al. (ICML 2024), the max test on the shuffle's pair (1/T) sum N(2 e_t) vs "
                + "(1/T) sum N(e_t)" : "the max test of Chua et al. (ICML 2024) on the shuffle's dataset whose other "
                + "records have gradient " + Checks.format(b.others()) + ": the pair (1/T) sum N(" + Checks.format(with)
                + " e_t) vs (1/T) sum N(" + Checks.format(without) + " e_t)") + ", both directions"
                + (b.others() <= 0 ? "" : b.others() < 1 ? ", with the min test" : ", by the min test")
                + ": a proven lower bound on shuffled batches' delta(eps)" + (b.epochs() > 1 && !b.persistent() ? ", over "
                + b.epochs() + " dynamic epochs the count of epochs whose maximum (minimum) passes C, both directions"
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

    /**
     * The largest of the tests' lower bounds. With {@code a} the canary's step's shift with the canary and {@code b}
     * with ⊥ ({@code a = b + 1}): where {@code a > 0} (the canary can make its step the highest: {@code v < 1}) the
     * maximum's events {@code {max > C}} (the canary's world against ⊥'s) and {@code {max <= C}} (the reverse); where
     * {@code b < 0} (⊥ can make it the lowest: {@code v > 0}) the minimum's {@code {min >= C}} and {@code {min < C}},
     * the minimum being the maximum of {@code -x}, whose shifts are {@code -a} and {@code -b}. Any test gives a valid
     * lower bound; these are the ones that can carry it. For Chua et al.'s pair the first is theirs.
     */
    @Override
    public double delta(double epsilon) {
        double a = with;
        double b = without;
        double best = 0;
        if (counts != null) {
            if (a > 0) {
                best = ThresholdSearch.supremum(c -> epochsGap(c, epsilon, a, b), low(a, b), high(a, b));
            }
            if (b < 0) {
                best = Math.max(best, ThresholdSearch.supremum(c -> epochsGap(c, epsilon, -a, -b), low(-a, -b),
                        high(-a, -b)));
            }
            return best;
        }
        if (a > 0) {
            best = ThresholdSearch.supremum(c -> aboveGap(c, epsilon, a, b), low(a, b), high(a, b));
            best = Math.max(best, ThresholdSearch.supremum(c -> belowGap(c, epsilon, b, a), low(a, b), high(a, b)));
        }
        if (b < 0) {
            best = Math.max(best, ThresholdSearch.supremum(c -> belowGap(c, epsilon, -a, -b), low(-a, -b),
                    high(-a, -b)));
            best = Math.max(best, ThresholdSearch.supremum(c -> aboveGap(c, epsilon, -b, -a), low(-a, -b),
                    high(-a, -b)));
        }
        return best;
    }

    /**
     * The thresholds searched for a maximum whose shifted step carries {@code p} or {@code q}: from half a unit and 12
     * noise deviations below the larger shift to 60 above it ({@code [1.5 - 12 s, 2 + 60 s]} for Chua et al.'s pair).
     */
    private double low(double p, double q) {
        return Math.max(p, q) - 0.5 - 12 * s;
    }

    private double high(double p, double q) {
        return Math.max(p, q) + 60 * s;
    }

    /** E dynamic epochs: the count of epochs whose maximum exceeds C, both directions (shifts p with, q without). */
    private double epochsGap(double c, double epsilon, double p, double q) {
        double xp = (c - p) / s;
        double xq = (c - q) / s;
        double y = c / s;
        double logOthers = (steps - 1) * Normal.logCdf(y);
        return counts.bothDirections(AllocationMaxTestBound.logOneMinusProduct(xp, 1, y, steps - 1),
                Normal.logCdf(xp) + logOthers, AllocationMaxTestBound.logOneMinusProduct(xq, 1, y, steps - 1),
                Normal.logCdf(xq) + logOthers, epsilon);
    }

    /**
     * {@code P(max <= C) - e^eps Q(max <= C)} where the shifted step carries {@code p} under the first law and
     * {@code q} under the second, each {@code Phi((C - m)/s) Phi(C/s)^(T-1)} from its logarithm.
     */
    private double belowGap(double c, double epsilon, double p, double q) {
        double logOthers = (steps - 1) * Normal.logCdf(c / s);
        double lp = Normal.logCdf((c - p) / s) + logOthers;
        double logTerm = epsilon + Normal.logCdf((c - q) / s) + logOthers;
        if (logTerm > 700) {
            return Double.NEGATIVE_INFINITY;
        }
        double first = Math.exp(lp);
        double term = Math.exp(logTerm);
        return first - term - ROUNDING * (first + term);
    }

    /**
     * {@code P(max > C) - e^eps Q(max > C)} where the shifted step carries {@code p} under the first law and {@code q}
     * under the second (NaN-free; -inf where e^eps overflows against a positive Q(max > C)). Both probabilities are
     * {@code 1 - Phi(x) Phi(c/s)^(T-1)}; where that is below about 1e-200 it is taken in log space
     * ({@link #logOneMinusCdfProductTail}), so that a Q(max > C) below double precision's smallest number is still
     * positive: rounded to 0 it made the bound optimistic (ε = inf at σ = 0.01, above the deterministic upper bound).
     */
    private double aboveGap(double c, double epsilon, double p, double q) {
        double logOthers = (steps - 1) * Normal.logCdf(c / s);
        double lp = Normal.logCdf((c - p) / s) + logOthers;
        double lq = Normal.logCdf((c - q) / s) + logOthers;
        double first = lp < -DIRECT ? -Math.expm1(lp) : Math.exp(logOneMinusCdfProductTail((c - p) / s, c / s));
        double logQ = lq < -DIRECT ? Math.log(-Math.expm1(lq)) : logOneMinusCdfProductTail((c - q) / s, c / s);
        if (logQ == Double.NEGATIVE_INFINITY) {
            return first * (1 - ROUNDING);
        }
        double logTerm = epsilon + logQ;
        if (logTerm > 700) {
            return Double.NEGATIVE_INFINITY;
        }
        double term = Math.exp(logTerm);
        return first - term - ROUNDING * (first + term);
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

package io.dpaudit.core.bounds;

import io.dpaudit.core.Checks;
import io.dpaudit.core.numerics.LogSpace;
import io.dpaudit.core.numerics.Normal;
import io.dpaudit.core.numerics.RootFinder;
import io.dpaudit.core.numerics.SafeRounding;
import java.util.function.DoubleUnaryOperator;

/**
 * Exact privacy profile of the Gaussian mechanism (Balle &amp; Wang, ICML 2018, Theorem 8):
 * {@code M(D) = f(D) + N(0, s^2 I)} with l2-sensitivity {@code Delta} is {@code (epsilon, delta)}-DP if and only if
 * <pre>  delta >= Phi(mu/2 - epsilon/mu) - e^epsilon Phi(-mu/2 - epsilon/mu),   mu = Delta / s.</pre>
 * T-fold composition is again of this form with {@code mu sqrt(T)} (the composition of Gaussian mechanisms is a
 * Gaussian mechanism; Dong, Roth &amp; Su 2019, GDP composition), so the profile is exact for any number of rounds.
 *
 * <p>Evaluated in log space as dp_accounting does (formula sheet §1.1): with {@code l_a = log Phi(a)} and
 * {@code l_b = epsilon + log Phi(b)}, {@code delta = exp(l_a + log(1 - e^{l_b - l_a}))}, and 0 when
 * {@code l_b >= l_a}; for {@code b < -20}, {@code l_b = log phi(a) + log(Phi(b)/phi(b))}, the same number without
 * cancelling two terms of order {@code b^2/2}. Both directions of add/remove adjacency have this same profile.
 */
public final class GaussianBound implements PrivacyBound {
    /** Identifier used in claims and on the command line. */
    public static final String NAME = "gaussian-exact";

    private final double mu;

    /** @param mu {@code Delta sqrt(T) / s}, the Gaussian-DP parameter, {@code > 0} */
    public GaussianBound(double mu) {
        this.mu = Checks.positive("mu", mu);
    }

    /** The bound for sensitivity {@code clip}, noise standard deviation {@code sigma} and {@code rounds} rounds. */
    public static GaussianBound of(double sigma, double clip, long rounds) {
        Checks.positive("sigma", sigma);
        Checks.positive("clip", clip);
        Checks.atLeast("rounds", rounds, 1);
        return new GaussianBound(clip * Math.sqrt((double) rounds) / sigma);
    }

    /** The Gaussian-DP parameter {@code mu}. */
    public double mu() {
        return mu;
    }

    @Override
    public double gdpMu() {
        return mu;
    }

    @Override
    public String name() {
        return NAME;
    }

    @Override
    public String source() {
        return "Balle & Wang (ICML 2018), Thm 8: exact delta(eps) of the Gaussian mechanism; "
                + "T rounds compose to mu*sqrt(T) (Dong, Roth & Su 2019)";
    }

    @Override
    public double delta(double epsilon) {
        return SafeRounding.upProbability(exactDelta(epsilon, mu));
    }

    /**
     * As {@link PrivacyBound#epsilon}, and beyond its search limit (tiny noise, or very many rounds: eps up to about
     * {@code mu^2 / 2}) by root finding on {@code [0, mu^2/2 + mu (z + 1)]}, {@code z = Phi^-1(1 - delta)}, where
     * {@code delta(eps) <= Phi(mu/2 - eps/mu) = Phi(-z - 1) < delta} holds. The extra standard deviation keeps the
     * sign change when {@code mu/2 - eps/mu} is rounded: at {@code mu = 8e12} its rounding is about 1e-3, which at
     * the end {@code z} alone made {@code delta(eps)} come out 0.003% above {@code delta}, and the search failed.
     */
    @Override
    public double epsilon(double delta) {
        double e = PrivacyBound.epsilonFromProfile(this, delta);
        if (e != Double.POSITIVE_INFINITY) {
            return e;
        }
        double hi = mu * mu / 2 + mu * (Math.max(0.0, Normal.inverseSurvival(delta)) + 1.0);
        if (!Double.isFinite(hi)) {
            return Double.POSITIVE_INFINITY;
        }
        double logTarget = Math.log(delta);
        DoubleUnaryOperator excess = x -> Math.log(exactDelta(x, mu)) - logTarget;
        // The default search saw delta above the target at EPSILON_SEARCH_LAST (8192): the root is above it, and
        // may lie below EPSILON_SEARCH_LIMIT (1e4): at sigma = 0.0077 it is about 9049, and a bracket starting at 1e4
        // had no sign change (an internal error).
        hi = Math.max(hi, 2 * EPSILON_SEARCH_LAST);
        if (!(excess.applyAsDouble(hi) <= 0)) {
            // mu so large (beyond about 1e15) that mu/2 - eps/mu is not resolved in doubles: the end is itself an
            // upper bound (eps <= mu^2/2 + mu z < hi), loose by a relative 2 (z + 1) / mu at most.
            return SafeRounding.up(hi);
        }
        RootFinder.Bracket b = RootFinder.solve(excess, EPSILON_SEARCH_LAST, hi, 1e-13, 1e-15);
        return SafeRounding.up(b.hi());
    }

    /**
     * {@code Phi(mu/2 - epsilon/mu) - e^epsilon Phi(-mu/2 - epsilon/mu)} for any real {@code epsilon} (no
     * rounding), in {@code [0, 1]}.
     */
    public static double exactDelta(double epsilon, double mu) {
        if (Double.isNaN(epsilon) || Double.isNaN(mu)) {
            return Double.NaN;
        }
        if (epsilon == Double.POSITIVE_INFINITY) {
            return 0.0;
        }
        if (mu == Double.POSITIVE_INFINITY) {
            return 1.0;
        }
        double a = mu / 2 - epsilon / mu;
        double b = -mu / 2 - epsilon / mu;
        double la = Normal.logCdf(a);
        // gap = l_b - l_a. In the far tail eps + log Phi(b) is the difference of two huge terms; eps - b^2/2 = -a^2/2
        // exactly (b - a = -mu, b + a = -2 eps/mu), so there l_b = log phi(a) + log(Phi(b)/phi(b)), and when a is in
        // the tail too, the -a^2/2 of both l_a and l_b cancels before it is ever formed.
        double gap;
        if (b >= -20) {
            gap = (epsilon + Normal.logCdf(b)) - la;
        } else if (a < -20) {
            gap = Normal.logCdfOverPdf(b) - Normal.logCdfOverPdf(a);
        } else {
            gap = (Normal.logPdf(a) + Normal.logCdfOverPdf(b)) - la;
        }
        if (gap >= 0) {
            return 0.0;
        }
        return Math.min(1.0, Math.exp(la + LogSpace.log1mExp(gap)));
    }
}

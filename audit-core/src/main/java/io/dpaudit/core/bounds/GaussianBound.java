package io.dpaudit.core.bounds;

import io.dpaudit.core.Checks;
import io.dpaudit.core.numerics.LogSpace;
import io.dpaudit.core.numerics.Normal;
import io.dpaudit.core.numerics.RootFinder;
import io.dpaudit.core.numerics.SafeRounding;

/**
 * Exact privacy profile of the Gaussian mechanism (Balle &amp; Wang, ICML 2018, Theorem 8):
 * {@code M(D) = f(D) + N(0, s^2 I)} with l2-sensitivity {@code Delta} is {@code (epsilon, delta)}-DP if and only if
 * <pre>  delta >= Phi(mu/2 - epsilon/mu) - e^epsilon Phi(-mu/2 - epsilon/mu),   mu = Delta / s.</pre>
 * T-fold composition is again of this form with {@code mu sqrt(T)} (the composition of Gaussian mechanisms is a
 * Gaussian mechanism; Dong, Roth &amp; Su 2019, GDP composition), so the profile is exact for any number of rounds.
 *
 * <p>Evaluated in log space as dp_accounting does (formula sheet §1.1): with {@code l_a = log Phi(a)} and
 * {@code l_b = epsilon + log Phi(b)}, {@code delta = exp(l_a + log(1 - e^{l_b - l_a}))}, and 0 when
 * {@code l_b >= l_a}. Both directions of add/remove adjacency have this same profile.
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
     * {@code mu^2 / 2}) by root finding on {@code [0, mu^2/2 + mu z]}, {@code z = Phi^-1(1 - delta)}, where
     * {@code delta(eps) <= Phi(mu/2 - eps/mu) = delta} already holds.
     */
    @Override
    public double epsilon(double delta) {
        double e = PrivacyBound.epsilonFromProfile(this, delta);
        if (e != Double.POSITIVE_INFINITY) {
            return e;
        }
        double hi = mu * mu / 2 + mu * Math.max(0.0, Normal.inverseSurvival(delta));
        if (!Double.isFinite(hi)) {
            return Double.POSITIVE_INFINITY;
        }
        double logTarget = Math.log(delta);
        RootFinder.Bracket b = RootFinder.solve(x -> Math.log(exactDelta(x, mu)) - logTarget,
                EPSILON_SEARCH_LIMIT, Math.max(hi, EPSILON_SEARCH_LIMIT), 1e-13, 1e-15);
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
        double lb = epsilon + Normal.logCdf(b);
        if (lb >= la) {
            return 0.0;
        }
        return Math.min(1.0, Math.exp(la + LogSpace.log1mExp(lb - la)));
    }
}

package io.dpaudit.core.fdp;

import io.dpaudit.core.bounds.GaussianBound;
import io.dpaudit.core.numerics.RootFinder;
import java.util.function.DoubleUnaryOperator;

/**
 * Conversions between trade-off functions and privacy profiles, and between μ-GDP and (ε, δ).
 *
 * <ul>
 *   <li>A symmetric {@code f} is equivalent to the profile {@code delta_f(eps) = sup_alpha (1 - f(alpha) -
 *       e^eps alpha)} for all {@code eps >= 0} (Dong, Roth &amp; Su 2019, Prop. 2.12 as usually cited). The sup is a
 *       one-dimensional concave maximisation whose maximiser moves towards 0 as ε grows, so it is searched on a
 *       logarithmic grid of {@code alpha} and refined by golden-section search in {@code log alpha}.</li>
 *   <li>Conversely {@code f = sup_eps f_{eps, delta(eps)}}; on a finite grid of ε the supremum is a lower bound of
 *       the true {@code f}, which is the safe direction (a smaller {@code f} is a weaker guarantee).</li>
 *   <li>μ-GDP holds iff {@code (eps, delta_G(eps; mu))}-DP holds for all ε ({@link GaussianBound}); the μ for a target
 *       {@code (eps, delta)} is found by bracketing ({@code delta_G} increases in μ), rounded up.</li>
 * </ul>
 */
public final class TradeOffConversions {
    private static final double LOG10_ALPHA_MIN = -300;
    private static final double GRID_STEP = 0.05;
    /** Relative margin by which {@link #muFor} is moved below its computed root (see there). */
    private static final double ROUNDING_MARGIN = 1e-12;

    private TradeOffConversions() {
    }

    /** {@code delta_f(eps) = sup_alpha (1 - f(alpha) - e^eps alpha)}, clamped to {@code [0, 1]}. */
    public static double profile(TradeOffFunction f, double epsilon) {
        double expEps = Math.exp(epsilon);
        DoubleUnaryOperator g = logAlpha -> {
            double a = Math.exp(logAlpha);
            return 1 - f.beta(a) - expEps * a;
        };
        double bestLog = 0;
        double best = g.applyAsDouble(0);
        double ln10 = Math.log(10);
        int points = (int) Math.floor(-LOG10_ALPHA_MIN / GRID_STEP + 1e-9); // the grid 0, -step, ..., down to the minimum
        for (int i = 0; i <= points; i++) {
            double l = -i * GRID_STEP;
            double v = g.applyAsDouble(l * ln10);
            if (v > best) {
                best = v;
                bestLog = l * ln10;
            }
        }
        // Golden-section refinement on [bestLog - step, bestLog + step] (log alpha).
        double lo = bestLog - GRID_STEP * ln10;
        double hi = Math.min(0, bestLog + GRID_STEP * ln10);
        double phi = (Math.sqrt(5) - 1) / 2;
        double x1 = hi - phi * (hi - lo);
        double x2 = lo + phi * (hi - lo);
        double f1 = g.applyAsDouble(x1);
        double f2 = g.applyAsDouble(x2);
        for (int i = 0; i < 100; i++) {
            if (f1 < f2) {
                lo = x1;
                x1 = x2;
                f1 = f2;
                x2 = lo + phi * (hi - lo);
                f2 = g.applyAsDouble(x2);
            } else {
                hi = x2;
                x2 = x1;
                f2 = f1;
                x1 = hi - phi * (hi - lo);
                f1 = g.applyAsDouble(x1);
            }
        }
        best = Math.max(best, Math.max(f1, f2));
        return Math.max(0.0, Math.min(1.0, best));
    }

    /** {@code f(alpha) >= sup_{eps in grid} max(0, 1 - delta(eps) - e^eps alpha, e^-eps (1 - delta(eps) - alpha))}. */
    public static double tradeOff(DoubleUnaryOperator profile, double[] epsilonGrid, double alpha) {
        double best = 0;
        for (double e : epsilonGrid) {
            best = Math.max(best, new EpsilonDeltaTradeOff(e, profile.applyAsDouble(e)).beta(alpha));
        }
        return best;
    }

    /** δ of μ-GDP at ε. */
    public static double deltaForMu(double mu, double epsilon) {
        return GaussianBound.exactDelta(epsilon, mu);
    }

    /** The smallest ε with {@code delta_G(eps; mu) <= delta}, rounded up. */
    public static double epsilonForMu(double mu, double delta) {
        return new GaussianBound(mu).epsilon(delta);
    }

    /**
     * The largest μ whose profile meets {@code (eps, delta)}, rounded down (the safe side for a budget). Near the root
     * {@code log delta_G(eps; mu)} is evaluated to about 1e-13 absolute, which moves the computed root by up to some
     * 20 ulps of μ either way; the result is therefore the bracket's lower end moved down by a further 1e-12 relative,
     * so that it stays below the true root.
     */
    public static double muFor(double epsilon, double delta) {
        double logTarget = Math.log(delta);
        RootFinder.Bracket b = RootFinder.bracketPositive(m -> Math.log(deltaForMu(m, epsilon)) - logTarget, 1.0,
                2.0, 1e-8, 1e4);
        if (b == null) {
            throw new IllegalArgumentException("no mu in [1e-8, 1e4] meets (" + epsilon + ", " + delta + ")");
        }
        if (b.lo() == b.hi()) {
            return b.lo();
        }
        RootFinder.Bracket r = RootFinder.solve(m -> Math.log(deltaForMu(m, epsilon)) - logTarget, b.lo(), b.hi(),
                1e-14, 0);
        return r.lo() * (1 - ROUNDING_MARGIN);
    }
}

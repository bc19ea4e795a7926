package io.dpaudit.core.fdp;

import io.dpaudit.core.Checks;
import io.dpaudit.core.numerics.RootFinder;

/**
 * The subsampling operator {@code C_p} of Dong, Roth &amp; Su (2019) for sampling without replacement a fraction
 * {@code p = m/n} under replace-one adjacency: if {@code M} is f-DP on samples of size {@code m}, then {@code M o
 * Sample_{m/n}} is {@code C_p(f)}-DP, with {@code f_p = p f + (1-p) Id}, {@code Id(a) = 1 - a} and
 * {@code C_p(f) = min{f_p, f_p^{-1}}**} (the greatest convex minorant).
 *
 * <p>For a symmetric {@code f} the minorant replaces the kink at the diagonal by the segment of slope -1 touching
 * {@code f_p} at its fixed point {@code x*} ({@code f(x*) = x*}, where {@code f'(x*) = -1} by symmetry):
 * <pre>
 * C_p(f)(a) = f_p(a)                  for a <= x*
 *           = x* + f_p(x*) - a        for x* <= a <= f_p(x*)
 *           = f_p^{-1}(a)             for a >= f_p(x*)
 * </pre>
 * For {@code f = G_mu}, {@code x* = Phi(-mu/2)} whatever {@code p} (formula sheet §5.4, verified numerically). For
 * ε ≥ 0 its profile is {@code p delta_f(log(1 + (e^eps - 1)/p))}, the Poisson remove-direction closed form.
 */
public final class SubsampledTradeOff implements TradeOffFunction {
    private final TradeOffFunction base;
    private final double p;
    private final double fixedPoint;
    private final double fpAtFixedPoint;

    /**
     * @param symmetricBase a symmetric trade-off function ({@code f^{-1} = f})
     * @param p sampling fraction in (0, 1]
     */
    public SubsampledTradeOff(TradeOffFunction symmetricBase, double p) {
        this.base = symmetricBase;
        this.p = Checks.samplingProbability("p", p);
        RootFinder.Bracket b = RootFinder.solve(x -> symmetricBase.beta(x) - x, 0.0, 1.0, 0, 1e-15);
        this.fixedPoint = 0.5 * (b.lo() + b.hi());
        this.fpAtFixedPoint = fp(fixedPoint);
    }

    /** The fixed point {@code x*} of the base. */
    public double fixedPoint() {
        return fixedPoint;
    }

    private double fp(double a) {
        return p * base.beta(a) + (1 - p) * (1 - a);
    }

    /** {@code f_p^{-1}(a) = inf {t : f_p(t) <= a}}, by bisection ({@code f_p} is decreasing). */
    private double fpInverse(double a) {
        if (a >= 1) {
            return 0;
        }
        if (fp(1.0) >= a) {
            return 1;
        }
        RootFinder.Bracket b = RootFinder.solve(t -> fp(t) - a, 0.0, 1.0, 0, 1e-15);
        return b.hi();
    }

    @Override
    public double beta(double a) {
        if (a <= fixedPoint) {
            return fp(a);
        }
        if (a <= fpAtFixedPoint) {
            return fixedPoint + fpAtFixedPoint - a;
        }
        return fpInverse(a);
    }
}

package io.dpaudit.core.bounds;

import io.dpaudit.core.Checks;
import io.dpaudit.core.numerics.SafeRounding;

/**
 * Privacy amplification by Poisson subsampling (Balle, Barthe &amp; Gaboardi, NeurIPS 2018, Thm 8; add/remove
 * adjacency): if {@code M} is {@code (eps, delta(eps))}-DP then {@code M o Poisson_q} is
 * {@code (log(1 + q(e^eps - 1)), q delta(eps))}-DP. As a profile: {@code delta'(eps') = q delta(log(1 + (e^eps' -
 * 1)/q))}, evaluated as {@code log1p(expm1(eps')/q)}.
 *
 * <p>Applies to one round of subsampling of any base mechanism. The theorem is tight for the Gaussian in the
 * remove direction, so for a Gaussian base this bound coincides with
 * {@link PoissonSubsampledGaussianBound}, which it is tested against.
 */
public final class PoissonAmplificationBound implements PrivacyBound {
    /** Identifier prefix used in claims and on the command line. */
    public static final String NAME_PREFIX = "bbg18-poisson-amplification";

    private final double q;
    private final PrivacyBound base;

    /**
     * @param q sampling probability in (0, 1]
     * @param base the profile of the mechanism run on the subsample
     */
    public PoissonAmplificationBound(double q, PrivacyBound base) {
        this.q = Checks.samplingProbability("q", q);
        this.base = base;
    }

    /**
     * The base ε for which the amplified ε is {@code epsilon}: {@code log(1 + (e^eps - 1)/q)}; where
     * {@code e^eps} would overflow, {@code eps - log q + log1p(-(1 - q) e^-eps)}, the same in log space.
     */
    public static double baseEpsilon(double epsilon, double q) {
        double r = Math.expm1(epsilon) / q;
        if (Double.isFinite(r)) {
            return Math.log1p(r);
        }
        return epsilon - Math.log(q) + Math.log1p(-(1 - q) * Math.exp(-epsilon));
    }

    /**
     * The amplified ε of a base ε: {@code log(1 + q(e^eps - 1))}; where {@code e^eps} would overflow,
     * {@code eps + log q + log1p((1 - q) e^-eps / q)}, the same in log space.
     */
    public static double amplifiedEpsilon(double baseEpsilon, double q) {
        double r = q * Math.expm1(baseEpsilon);
        if (Double.isFinite(r) || baseEpsilon == Double.POSITIVE_INFINITY) {
            return Math.log1p(r);
        }
        return baseEpsilon + Math.log(q) + Math.log1p((1 - q) * Math.exp(-baseEpsilon) / q);
    }

    @Override
    public String name() {
        return NAME_PREFIX + "(" + base.name() + ")";
    }

    @Override
    public String source() {
        return "Balle, Barthe & Gaboardi (NeurIPS 2018), Thm 8 (Poisson subsampling), applied to: " + base.source();
    }

    @Override
    public double delta(double epsilon) {
        Checks.nonNegative("epsilon", epsilon);
        return SafeRounding.upProbability(q * base.delta(baseEpsilon(epsilon, q)));
    }
}

package io.dpaudit.mechanisms.zoo;

import io.dpaudit.core.bounds.BoundKind;
import io.dpaudit.core.bounds.NamedBound;
import io.dpaudit.core.bounds.PrivacyBound;
import io.dpaudit.core.numerics.SafeRounding;

/**
 * The privacy profile that pure {@code eps0}-DP implies:
 * {@code delta(eps) = (e^eps0 - e^eps) / (1 + e^eps0)} for {@code eps < eps0}, and 0 from {@code eps0} on. Every
 * {@code eps0}-DP mechanism is dominated by randomized response with that ratio (Kairouz, Oh &amp; Viswanath 2015,
 * Theorem 2.2), whose profile this is, so the curve is an upper bound on the profile of any mechanism that is truly
 * {@code eps0}-DP — and a claim to refute for one that is not. Computed as
 * {@code (1 - e^(eps - eps0)) / (1 + e^-eps0)}, which cannot overflow.
 */
final class PureDpBound extends NamedBound {
    private final double eps0;

    PureDpBound(String name, String source, BoundKind kind, double eps0) {
        super(name, source, kind);
        this.eps0 = eps0;
    }

    @Override
    public double delta(double epsilon) {
        if (epsilon >= eps0) {
            return 0.0;
        }
        return SafeRounding.upProbability(-Math.expm1(epsilon - eps0) / (1 + Math.exp(-eps0)));
    }

    @Override
    public double pureEpsilon() {
        return eps0;
    }

    @Override
    public double epsilon(double delta) {
        if (delta == 0) {
            return eps0;
        }
        return PrivacyBound.epsilonFromProfile(this, delta);
    }
}

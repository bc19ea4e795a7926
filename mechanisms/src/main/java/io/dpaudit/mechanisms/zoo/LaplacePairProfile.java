package io.dpaudit.mechanisms.zoo;

import io.dpaudit.core.bounds.BoundKind;
import io.dpaudit.core.bounds.PrivacyBound;
import io.dpaudit.core.numerics.SafeRounding;

/**
 * The exact privacy profile of the Laplace mechanism on one pair whose answers differ by {@code s} (scale {@code b}):
 * with {@code a = s/b}, the privacy loss of {@code x + Lap(b)} is {@code |x - d'|/b - |x - d|/b}, which takes the value
 * {@code a} on a half-line of probability 1/2 under {@code D}, and the hockey-stick divergence is
 * {@code delta(eps) = 1 - e^((eps - a)/2)} for {@code eps < a}, 0 beyond (both orders of the pair agree).
 */
final class LaplacePairProfile implements PrivacyBound {
    private final double a;

    LaplacePairProfile(double shift, double scale) {
        this.a = Math.abs(shift) / scale;
    }

    @Override
    public String name() {
        return "laplace-exact";
    }

    @Override
    public String source() {
        return "exact profile of the simulated pair: 1 - exp((eps - a)/2) for eps < a = |d - d'| eps0, 0 beyond "
                + "(hockey-stick divergence of two Laplace laws)";
    }

    @Override
    public BoundKind kind() {
        return BoundKind.PAIR_PROFILE;
    }

    @Override
    public double delta(double epsilon) {
        if (epsilon >= a) {
            return 0.0;
        }
        return SafeRounding.upProbability(-Math.expm1((epsilon - a) / 2));
    }

    @Override
    public double pureEpsilon() {
        return a;
    }

    @Override
    public double epsilon(double delta) {
        if (delta == 0) {
            return a;
        }
        return PrivacyBound.epsilonFromProfile(this, delta);
    }
}

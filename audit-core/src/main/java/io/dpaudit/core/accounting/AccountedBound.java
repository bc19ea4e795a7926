package io.dpaudit.core.accounting;

import io.dpaudit.core.bounds.BoundKind;
import io.dpaudit.core.bounds.PrivacyBound;
import java.util.function.DoubleUnaryOperator;

/**
 * The bound an accountant returns: its curve, already computed, behind the {@link PrivacyBound} contract.
 *
 * @param name the name it is reported under
 * @param source method, event and adjacency
 * @param kind certified upper bound, proven lower bound or approximation
 * @param deltaOf {@code epsilon -> delta}, rounded up
 * @param epsilonOf {@code delta -> epsilon}, rounded up; null for a lower bound, whose ε(δ) is then the inversion of
 *     its profile from below ({@link PrivacyBound#epsilonFromLowerProfile})
 * @param gdpMu {@code mu} when the curve is {@code G_mu} (the GDP accountant), NaN otherwise
 * @param deltasOf many {@code epsilon -> delta} in one pass (upper bounds), or null to evaluate them one by one
 * @param lowerEndOf the lower end of the numerical bracket ({@link PrivacyBound#deltaLowerEnd}), or null when the curve
 *     is exact up to rounding
 */
record AccountedBound(String name, String source, BoundKind kind, DoubleUnaryOperator deltaOf,
        DoubleUnaryOperator epsilonOf, double gdpMu, java.util.function.UnaryOperator<double[]> deltasOf,
        DoubleUnaryOperator lowerEndOf) implements PrivacyBound {

    /** A bound whose source is the accountant's method followed by the event and adjacency accounted. */
    static AccountedBound of(String name, String method, DpEvent event, Adjacency adjacency, BoundKind kind,
            DoubleUnaryOperator deltaOf, DoubleUnaryOperator epsilonOf) {
        return new AccountedBound(name, method + "; event " + event.describe() + ", " + adjacency.description(), kind,
                deltaOf, epsilonOf, Double.NaN, null, null);
    }

    /** The same with the curve's GDP parameter. */
    AccountedBound withGdpMu(double mu) {
        return new AccountedBound(name, source, kind, deltaOf, epsilonOf, mu, deltasOf, lowerEndOf);
    }

    /** The same with a one-pass evaluation of many δ(ε) ({@link PrivacyBound#deltas}). */
    AccountedBound withBatch(java.util.function.UnaryOperator<double[]> batch) {
        return new AccountedBound(name, source, kind, deltaOf, epsilonOf, gdpMu, batch, lowerEndOf);
    }

    /** The same with the lower end of its numerical bracket ({@link PrivacyBound#deltaLowerEnd}). */
    AccountedBound withLowerEnd(DoubleUnaryOperator lowerEnd) {
        return new AccountedBound(name, source, kind, deltaOf, epsilonOf, gdpMu, deltasOf, lowerEnd);
    }

    @Override
    public double deltaLowerEnd(double epsilon) {
        return lowerEndOf != null ? lowerEndOf.applyAsDouble(epsilon) : delta(epsilon);
    }

    @Override
    public double[] deltas(double[] epsilons) {
        return deltasOf != null ? deltasOf.apply(epsilons) : PrivacyBound.super.deltas(epsilons);
    }

    @Override
    public double delta(double epsilon) {
        return deltaOf.applyAsDouble(epsilon);
    }

    @Override
    public double epsilon(double delta) {
        return epsilonOf != null ? epsilonOf.applyAsDouble(delta) : PrivacyBound.epsilonFromLowerProfile(this, delta);
    }
}

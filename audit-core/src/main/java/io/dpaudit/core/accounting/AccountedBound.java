package io.dpaudit.core.accounting;

import io.dpaudit.core.bounds.BoundKind;
import io.dpaudit.core.bounds.PrivacyBound;
import java.util.function.DoubleUnaryOperator;

/**
 * The bound an accountant returns: its curve, already computed, behind the {@link PrivacyBound} contract.
 *
 * @param name the name it is reported under
 * @param source method, event and adjacency
 * @param kind certified upper bound or approximation
 * @param deltaOf {@code epsilon -> delta}, rounded up
 * @param epsilonOf {@code delta -> epsilon}, rounded up
 * @param gdpMu {@code mu} when the curve is {@code G_mu} (the GDP accountant), NaN otherwise
 */
record AccountedBound(String name, String source, BoundKind kind, DoubleUnaryOperator deltaOf,
        DoubleUnaryOperator epsilonOf, double gdpMu) implements PrivacyBound {

    /** A bound whose source is the accountant's method followed by the event and adjacency accounted. */
    static AccountedBound of(String name, String method, DpEvent event, Adjacency adjacency, BoundKind kind,
            DoubleUnaryOperator deltaOf, DoubleUnaryOperator epsilonOf) {
        return new AccountedBound(name, method + "; event " + event.describe() + ", " + adjacency.description(), kind,
                deltaOf, epsilonOf, Double.NaN);
    }

    /** The same with the curve's GDP parameter. */
    AccountedBound withGdpMu(double mu) {
        return new AccountedBound(name, source, kind, deltaOf, epsilonOf, mu);
    }

    @Override
    public double delta(double epsilon) {
        return deltaOf.applyAsDouble(epsilon);
    }

    @Override
    public double epsilon(double delta) {
        return epsilonOf.applyAsDouble(delta);
    }
}

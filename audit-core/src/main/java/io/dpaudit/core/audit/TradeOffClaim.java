package io.dpaudit.core.audit;

import io.dpaudit.core.fdp.GaussianTradeOff;
import io.dpaudit.core.fdp.TradeOffFunction;

/**
 * An f-DP claim on the audited pair {@code (M(D), M(D'))}: its trade-off curve lies on or above {@code f}, and the
 * curve of the reversed pair {@code T(M(D'), M(D))} on or above {@code reverse}.
 *
 * <p>A claim about a mechanism under a symmetric adjacency ("the mechanism is f-DP") constrains every neighbouring pair
 * in both orders by the same {@code f}, so {@code reverse = f}. A claim about one ordered pair — the exact curve
 * {@code T(P, Q)} of a pair profile, say — says nothing more about {@code T(Q, P)} than {@code T(Q, P) = T(P, Q)^{-1}
 * >= f^{-1}}, so {@code reverse = f^{-1}}: checking the reversed tests against {@code f} would refute a true curve
 * whenever the pair is asymmetric (Poisson-subsampled pairs are).
 *
 * @param label name shown in reports
 * @param f the claimed lower bound on {@code T(M(D), M(D'))}
 * @param reverse the claimed lower bound on {@code T(M(D'), M(D))}
 * @param gdpMu {@code mu} when the claim is {@code mu}-GDP ({@code f = G_mu}), NaN otherwise
 * @param source where the claim comes from
 */
public record TradeOffClaim(String label, TradeOffFunction f, TradeOffFunction reverse, double gdpMu, String source) {
    /** A claim about every neighbouring pair in both orders ({@code reverse = f}). */
    public TradeOffClaim(String label, TradeOffFunction f, double gdpMu, String source) {
        this(label, f, f, gdpMu, source);
    }

    /** A {@code mu}-GDP claim. */
    public static TradeOffClaim gdp(String label, double mu, String source) {
        return new TradeOffClaim(label, new GaussianTradeOff(mu), mu, source);
    }

    /** Whether the claim constrains the two orders of the pair by different functions. */
    public boolean orderedPair() {
        return reverse != f;
    }
}

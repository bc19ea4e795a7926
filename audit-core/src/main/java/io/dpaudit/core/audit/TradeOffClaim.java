package io.dpaudit.core.audit;

import io.dpaudit.core.fdp.GaussianTradeOff;
import io.dpaudit.core.fdp.TradeOffFunction;

/**
 * An f-DP claim: every neighbouring pair's trade-off curve lies on or above {@code f}, in both orders of the pair.
 *
 * @param label name shown in reports
 * @param f the claimed trade-off function
 * @param gdpMu {@code mu} when the claim is {@code mu}-GDP ({@code f = G_mu}), NaN otherwise
 * @param source where the claim comes from
 */
public record TradeOffClaim(String label, TradeOffFunction f, double gdpMu, String source) {
    /** A {@code mu}-GDP claim. */
    public static TradeOffClaim gdp(String label, double mu, String source) {
        return new TradeOffClaim(label, new GaussianTradeOff(mu), mu, source);
    }
}

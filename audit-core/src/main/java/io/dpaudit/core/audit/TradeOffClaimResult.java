package io.dpaudit.core.audit;

import io.dpaudit.core.estimate.tradeoff.CertifiedTradeOff;
import io.dpaudit.core.estimate.power.TradeOffPower;

/**
 * The verdict on an f-DP claim: {@link Verdict#VIOLATED} when a certified point of the empirical trade-off curve lies
 * strictly below the claimed {@code f} (for a correct claim this happens with probability at most
 * {@code 1 - confidence}, the points holding simultaneously); otherwise {@link Verdict#INCONCLUSIVE} when
 * {@code power} says no Gaussian pair short of ten times the claim's {@code mu} would have been refuted, else
 * {@link Verdict#CONSISTENT}.
 *
 * @param claim the claim
 * @param verdict violated, consistent or inconclusive
 * @param refutation the point below {@code f} by the widest margin, or null
 * @param gdpMuLowerBound the certified GDP lower bound of the audit
 * @param tightness {@code gdpMuLowerBound / mu} for a GDP claim, NaN otherwise
 * @param power what the certification could have refuted
 */
public record TradeOffClaimResult(TradeOffClaim claim, Verdict verdict, CertifiedTradeOff.Refutation refutation,
        double gdpMuLowerBound, double tightness, TradeOffPower power) {
}

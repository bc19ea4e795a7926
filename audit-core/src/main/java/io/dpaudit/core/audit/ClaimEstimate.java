package io.dpaudit.core.audit;

import io.dpaudit.core.estimate.PrivacyLossEstimate;

/**
 * The privacy-loss estimate's view of one (ε, δ) claim.
 *
 * @param verdict violated, tight or loose
 * @param deltaAtClaim interval for δ at the claim's ε
 * @param requiredEpsilon interval for the ε the simulated pair needs at the claim's δ
 */
public record ClaimEstimate(EstimateVerdict verdict, PrivacyLossEstimate.DeltaInterval deltaAtClaim,
        PrivacyLossEstimate.EpsilonInterval requiredEpsilon) {

    /**
     * Judges a claim: {@link EstimateVerdict#VIOLATED} when the audit's verdict is, or when the estimate's lower δ at
     * the claim's ε exceeds the claim's δ; {@link EstimateVerdict#LOOSE} when its upper δ is below the claim's δ;
     * otherwise {@link EstimateVerdict#TIGHT}.
     */
    public static ClaimEstimate judge(Claim claim, Verdict auditVerdict, PrivacyLossEstimate estimate) {
        PrivacyLossEstimate.DeltaInterval d = estimate.deltaAt(claim.epsilon());
        EstimateVerdict v;
        if (auditVerdict == Verdict.VIOLATED || d.lower() > claim.delta()) {
            v = EstimateVerdict.VIOLATED;
        } else if (d.upper() < claim.delta()) {
            v = EstimateVerdict.LOOSE;
        } else {
            v = EstimateVerdict.TIGHT;
        }
        return new ClaimEstimate(v, d, estimate.epsilonAt(claim.delta()));
    }

    /**
     * How many times larger the claimed ε is than what the pair provably needs: {@code claimed / requiredEpsilon.upper}
     * (at least this factor at the stated confidence); NaN when the upper end is not finite or is 0.
     */
    public double loosenessFactor(Claim claim) {
        double u = requiredEpsilon.upper();
        return Double.isFinite(u) && u > 0 ? claim.epsilon() / u : Double.NaN;
    }
}

package io.dpaudit.core.audit;

import io.dpaudit.core.estimate.PrivacyLossEstimate;

/**
 * The privacy-loss estimate's view of one (ε, δ) claim.
 *
 * @param verdict violated, tight, loose or inconclusive
 * @param deltaAtClaim interval for δ at the claim's ε
 * @param requiredEpsilon interval for the ε the simulated pair needs at the claim's δ
 */
public record ClaimEstimate(EstimateVerdict verdict, PrivacyLossEstimate.DeltaInterval deltaAtClaim,
        PrivacyLossEstimate.EpsilonInterval requiredEpsilon) {

    /** Largest ratio of the δ interval's ends at which a claim inside it is called tight. */
    public static final double INFORMATIVE_RATIO = 10;

    /**
     * Judges a claim: {@link EstimateVerdict#VIOLATED} when the audit's verdict is, or when the estimate's lower δ at
     * the claim's ε exceeds the claim's δ; {@link EstimateVerdict#LOOSE} when its upper δ is below the claim's δ;
     * otherwise {@link EstimateVerdict#TIGHT} when the interval is informative (lower end positive, ends at most
     * {@value #INFORMATIVE_RATIO} times apart) and {@link EstimateVerdict#INCONCLUSIVE} when it is not — an interval
     * such as [0, 1] contains every claim and says nothing about it.
     */
    public static ClaimEstimate judge(Claim claim, Verdict auditVerdict, PrivacyLossEstimate estimate) {
        PrivacyLossEstimate.DeltaInterval d = estimate.deltaAt(claim.epsilon());
        EstimateVerdict v;
        if (auditVerdict == Verdict.VIOLATED || d.lower() > claim.delta()) {
            v = EstimateVerdict.VIOLATED;
        } else if (d.upper() < claim.delta()) {
            v = EstimateVerdict.LOOSE;
        } else if (d.lower() > 0 && d.upper() <= INFORMATIVE_RATIO * d.lower()) {
            v = EstimateVerdict.TIGHT;
        } else {
            v = EstimateVerdict.INCONCLUSIVE;
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

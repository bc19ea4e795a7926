package io.dpaudit.core.audit;

import io.dpaudit.core.estimate.power.DetectionPower;
import io.dpaudit.core.estimate.power.EpsilonPower;
import io.dpaudit.core.estimate.profile.PrivacyLossEstimate;

/**
 * The privacy-loss estimate's view of one (ε, δ) claim: the white-box evidence.
 *
 * @param verdict violated, tight, loose or inconclusive, by the estimate alone
 * @param deltaAtClaim interval for δ at the claim's ε
 * @param requiredEpsilon interval for the ε the simulated pair needs at the claim's δ
 */
public record ClaimEstimate(EstimateVerdict verdict, PrivacyLossEstimate.DeltaInterval deltaAtClaim,
        PrivacyLossEstimate.EpsilonInterval requiredEpsilon) {

    /** Largest ratio of the δ interval's ends at which a claim inside it is called tight. */
    public static final double INFORMATIVE_RATIO = 10;

    /**
     * Judges a claim by the estimate alone: {@link EstimateVerdict#VIOLATED} when the estimate's lower δ at the claim's
     * ε exceeds the claim's δ; {@link EstimateVerdict#LOOSE} when its upper δ is below the claim's δ; otherwise
     * {@link EstimateVerdict#TIGHT} when the interval is informative (lower end positive, ends at most
     * {@value #INFORMATIVE_RATIO} times apart) and {@link EstimateVerdict#INCONCLUSIVE} when it is not — an interval
     * such as [0, 1] contains every claim and says nothing about it.
     */
    public static ClaimEstimate judge(Claim claim, PrivacyLossEstimate estimate) {
        return judge(claim, estimate, false);
    }

    /**
     * As {@link #judge(Claim, PrivacyLossEstimate)}; when {@code pairFromBelow} (the simulated pair is only a
     * lower-bound pair of the mechanism, such as the shuffle's: another dataset may lose more) the estimate bounds the
     * mechanism's curve from below only, so it can refute a claim but never show one loose: a claim above its interval
     * is {@link EstimateVerdict#INCONCLUSIVE}. (A claim inside an informative interval is still tight: if it holds, the
     * mechanism's δ lies between the pair's lower end and the claim.)
     */
    public static ClaimEstimate judge(Claim claim, PrivacyLossEstimate estimate, boolean pairFromBelow) {
        PrivacyLossEstimate.DeltaInterval d = estimate.deltaAt(claim.epsilon());
        EstimateVerdict v;
        if (d.lower() > claim.delta()) {
            v = EstimateVerdict.VIOLATED;
        } else if (d.upper() < claim.delta()) {
            v = pairFromBelow ? EstimateVerdict.INCONCLUSIVE : EstimateVerdict.LOOSE;
        } else if (d.lower() > 0 && d.upper() <= INFORMATIVE_RATIO * d.lower()) {
            v = EstimateVerdict.TIGHT;
        } else {
            v = EstimateVerdict.INCONCLUSIVE;
        }
        return new ClaimEstimate(v, d, estimate.epsilonAt(claim.delta()));
    }

    /**
     * Whether the estimate powers a claim it does not refute: the simulated pair is proven to need at most
     * {@value EpsilonPower#CONSISTENT_FACTOR} times the claimed ε at the claim's δ (its upper ε there), so a violation
     * larger than that is excluded at the estimate's confidence. A claim of ε = 0: its upper δ at ε = 0 is below
     * {@value DetectionPower#INCONCLUSIVE_FACTOR} times the claimed δ (0 for a claimed δ of 0).
     */
    public boolean powers(Claim claim) {
        if (verdict == EstimateVerdict.VIOLATED) {
            return false;
        }
        if (claim.epsilon() > 0) {
            return requiredEpsilon.upper() <= EpsilonPower.CONSISTENT_FACTOR * claim.epsilon();
        }
        return claim.delta() == 0 ? deltaAtClaim.upper() == 0
                : deltaAtClaim.upper() < DetectionPower.INCONCLUSIVE_FACTOR * claim.delta();
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

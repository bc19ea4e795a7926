package io.dpaudit.core.audit;

import io.dpaudit.core.estimate.DeltaLowerBound;
import io.dpaudit.core.estimate.EpsilonLowerBound;

/**
 * The audit of one claim.
 *
 * @param claim the claim
 * @param verdict {@code VIOLATED} iff {@code deltaLowerBound.delta() > claim.delta()}; otherwise {@code INCONCLUSIVE}
 *     when {@code power} says only a violation many times the claim could have been seen
 *     ({@link io.dpaudit.core.estimate.DetectionPower#inconclusive}), else {@code CONSISTENT}
 * @param deltaLowerBound empirical δ lower bound at the claim's ε (decides the verdict; the certifying evidence)
 * @param epsilonLowerBound empirical ε lower bound at the claim's δ (for tightness)
 * @param power what the audit could have detected at the claim's ε
 * @param estimate the two-sided privacy-loss estimate's verdict, or null when no estimate was asked for
 */
public record ClaimResult(Claim claim, Verdict verdict, DeltaLowerBound deltaLowerBound,
        EpsilonLowerBound epsilonLowerBound, ClaimPower power, ClaimEstimate estimate) {

    /**
     * Empirical ε lower bound divided by the claimed ε: near 1 means the attack nearly attains the claim, above 1
     * means the claim is refuted. {@code +inf} for a claimed ε of 0 with a positive lower bound, NaN for 0/0.
     */
    public double tightness() {
        return epsilonLowerBound.epsilon() / claim.epsilon();
    }

    /** The same result with a privacy-loss estimate's verdict. */
    public ClaimResult withEstimate(ClaimEstimate e) {
        return new ClaimResult(claim, verdict, deltaLowerBound, epsilonLowerBound, power, e);
    }
}

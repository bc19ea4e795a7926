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
 * @param epsilonLowerBound empirical ε lower bound at the claim's δ (for tightness; a second statement at the same
 *     confidence, see {@link #epsilonBoundAboveClaim})
 * @param power what the audit could have detected at the claim's ε
 * @param estimate the two-sided privacy-loss estimate's verdict, or null when no estimate was asked for
 */
public record ClaimResult(Claim claim, Verdict verdict, DeltaLowerBound deltaLowerBound,
        EpsilonLowerBound epsilonLowerBound, ClaimPower power, ClaimEstimate estimate) {

    /**
     * Empirical ε lower bound divided by the claimed ε: near 1 means the attack nearly attains the claim; above 1 means
     * the ε lower bound, a statement at the audit's confidence of its own, refutes the claim, whether or not the
     * verdict's test did (see {@link #epsilonBoundAboveClaim}). {@code +inf} for a claimed ε of 0 with a positive lower
     * bound, NaN for 0/0.
     */
    public double tightness() {
        return epsilonLowerBound.epsilon() / claim.epsilon();
    }

    /**
     * Whether the claim was not found violated although its ε lower bound at the claim's δ exceeds the claimed ε.
     *
     * <p>The verdict is decided by one test fixed in advance: the δ lower bound at the claim's ε, chosen to maximise
     * {@code TPR - e^ε FPR} and certified by two Clopper–Pearson limits. The ε lower bound at the claim's δ is a
     * second statement at the same confidence, from a test chosen for ε (often a rarer event) and certified by
     * whichever of its two certifications its selection trials predict larger. Each holds at the audit's confidence on
     * its own; when they disagree the claim is contested: the ε statement refutes it
     * ({@code p - δ > e^ε q} for its test), the verdict's test did not. Reports say so beside the verdict instead of
     * calling such a claim plainly consistent; the verdict itself keeps its stated false-alarm rate.
     */
    public boolean epsilonBoundAboveClaim() {
        return verdict != Verdict.VIOLATED && epsilonLowerBound.epsilon() > claim.epsilon();
    }

    /** The same result with a privacy-loss estimate's verdict. */
    public ClaimResult withEstimate(ClaimEstimate e) {
        return new ClaimResult(claim, verdict, deltaLowerBound, epsilonLowerBound, power, e);
    }
}

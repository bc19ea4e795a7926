package io.dpaudit.core.audit;

import io.dpaudit.core.estimate.DeltaLowerBound;
import io.dpaudit.core.estimate.EpsilonLowerBound;
import java.util.Set;

/**
 * The audit of one (ε, δ) claim: one verdict from every rigorous source the audit has ({@link ClaimJudgement}).
 *
 * @param claim the claim
 * @param verdict {@code VIOLATED} when a source refutes the claim (the attack's δ lower bound at the claim's ε above
 *     its δ, the white-box estimate's lower δ there above it, or a proven lower bound of the mechanism there above it);
 *     otherwise {@code CONSISTENT} when a source powers
 *     it (the attack's {@code power.epsilon} at most 1.5 times the claimed ε, or the white-box estimate's upper ε at
 *     the claim's δ at most that) and nothing certified speaks against it (not {@link #epsilonBoundAboveClaim}),
 *     else {@code INCONCLUSIVE}
 * @param deltaLowerBound empirical δ lower bound at the claim's ε (the black-box evidence)
 * @param epsilonLowerBound empirical ε lower bound at the claim's δ (for tightness; a second statement at the same
 *     confidence, see {@link #epsilonBoundAboveClaim})
 * @param power what the attack's test could have detected at the claim's ε and δ
 * @param estimate the two-sided privacy-loss estimate's view of the claim (the white-box evidence), or null when the
 *     audit has none
 * @param decidedBy the sources that refuted the claim (violated) or powered it (consistent); empty when inconclusive
 * @param analytic the largest proven lower bound on the mechanism's δ at the claim's ε (the analytic evidence), or
 *     null when the audit has none that is positive there
 */
public record ClaimResult(Claim claim, Verdict verdict, DeltaLowerBound deltaLowerBound,
        EpsilonLowerBound epsilonLowerBound, ClaimPower power, ClaimEstimate estimate, Set<Evidence> decidedBy,
        ClaimAnalytic analytic) {

    public ClaimResult {
        decidedBy = decidedBy.isEmpty() ? Set.of() : java.util.Collections.unmodifiableSet(
                java.util.EnumSet.copyOf(decidedBy));
    }

    /**
     * Empirical ε lower bound divided by the claimed ε: near 1 means the attack nearly attains the claim; above 1 means
     * the ε lower bound, a statement at the audit's confidence of its own, refutes the claim, whether or not the
     * verdict's test did (see {@link #epsilonBoundAboveClaim}). {@code +inf} for a claimed ε of 0 with a positive lower
     * bound, NaN for 0/0.
     */
    public double tightness() {
        return epsilonLowerBound.epsilon() / claim.epsilon();
    }

    /** Whether {@code e} refuted the claim. */
    public boolean refutedBy(Evidence e) {
        return verdict == Verdict.VIOLATED && decidedBy.contains(e);
    }

    /**
     * Whether the claim was not found violated although its ε lower bound at the claim's δ exceeds the claimed ε.
     *
     * <p>The black-box verdict is decided by one test fixed in advance: the δ lower bound at the claim's ε, chosen to
     * maximise {@code TPR - e^ε FPR} and certified by two Clopper–Pearson limits. The ε lower bound at the claim's δ is
     * a second statement at the same confidence, from a test chosen for ε (often a rarer event) and certified by
     * whichever of its two certifications its selection trials predict larger. Each holds at its confidence on its
     * own; when they disagree the claim is contested: the ε statement refutes it ({@code p - δ > e^ε q} for its
     * test), the verdict's sources did not. Such a claim is never consistent (it is inconclusive, and reports say why)
     * and never violated by this statement alone, so the verdict keeps its stated false-alarm rate.
     */
    public boolean epsilonBoundAboveClaim() {
        return verdict != Verdict.VIOLATED && epsilonLowerBound.epsilon() > claim.epsilon();
    }
}

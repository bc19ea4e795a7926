package io.dpaudit.core.audit;

/**
 * The power behind an (ε, δ) verdict: what the audit could have detected, in the claim's two units.
 *
 * @param delta the smallest δ at the claim's ε, on the event the audit's test uses ({@code TPR - e^ε FPR} of that
 *     test), that the audit would have flagged with probability at least {@code probability}; {@code +inf} when it
 *     could have flagged none ({@link io.dpaudit.core.estimate.power.DetectionPower}). The pair's own δ can exceed it on
 *     another event and still go unseen.
 * @param epsilon the smallest ε at the claim's δ of a mechanism that the audit would have refuted with probability at
 *     least {@code probability}, over the mechanisms tight on the test's event and the Gaussian-DP ones
 *     ({@link io.dpaudit.core.estimate.power.EpsilonPower}); {@code +inf} when none
 * @param probability the detection probability (0.9)
 * @param trialsFactorToResolve for an inconclusive verdict, the smallest power of two by which the audit's trials
 *     (or scores) would have to grow, counts in proportion, for the same test to power the claim
 *     ({@link io.dpaudit.core.estimate.power.DetectionPower#scaleToResolve}); 0 when none would before 10^13 trials per
 *     world; -1 for a verdict that is not inconclusive, or one inconclusive only because it is contested (its power
 *     suffices: fresh trials settle it)
 */
public record ClaimPower(double delta, double epsilon, double probability, long trialsFactorToResolve) {
    /** Power without a factor of trials (a verdict that is not inconclusive). */
    public ClaimPower(double delta, double epsilon, double probability) {
        this(delta, epsilon, probability, -1);
    }
}

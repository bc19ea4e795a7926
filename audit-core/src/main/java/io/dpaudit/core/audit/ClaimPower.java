package io.dpaudit.core.audit;

/**
 * The power behind an (ε, δ) verdict ({@link io.dpaudit.core.estimate.DetectionPower}).
 *
 * @param delta the smallest δ at the claim's ε, on the event the audit's test uses ({@code TPR - e^ε FPR} of that
 *     test), that the audit would have flagged with probability at least {@code probability}; {@code +inf} when it
 *     could have flagged none. The pair's own δ can exceed it on another event and still go unseen.
 * @param probability the detection probability (0.9)
 * @param trialsFactorToResolve for an inconclusive verdict, the smallest power of two by which the audit's trials
 *     (or scores) would have to grow for a test with the same rates to detect a violation of ten times the claimed δ
 *     with probability {@code probability} ({@link io.dpaudit.core.estimate.DetectionPower#scaleToResolve}); 0 when
 *     none would before 10^13 trials per world; -1 for a verdict that is not inconclusive (not computed)
 */
public record ClaimPower(double delta, double probability, long trialsFactorToResolve) {
    /** Power without a factor of trials (a verdict that is not inconclusive). */
    public ClaimPower(double delta, double probability) {
        this(delta, probability, -1);
    }
}

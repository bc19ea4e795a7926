package io.dpaudit.core.audit;

/**
 * The power behind an (ε, δ) verdict ({@link io.dpaudit.core.estimate.DetectionPower}).
 *
 * @param delta the smallest δ at the claim's ε, on the event the audit's test uses ({@code TPR - e^ε FPR} of that
 *     test), that the audit would have flagged with probability at least {@code probability}; {@code +inf} when it
 *     could have flagged none. The pair's own δ can exceed it on another event and still go unseen.
 * @param probability the detection probability (0.9)
 */
public record ClaimPower(double delta, double probability) {
}

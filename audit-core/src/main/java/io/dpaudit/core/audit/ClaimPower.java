package io.dpaudit.core.audit;

/**
 * The power behind an (ε, δ) verdict ({@link io.dpaudit.core.estimate.DetectionPower}).
 *
 * @param delta the smallest true δ at the claim's ε that the audit's test would have flagged with probability at least
 *     {@code probability}; {@code +inf} when it could have flagged none
 * @param probability the detection probability (0.9)
 */
public record ClaimPower(double delta, double probability) {
}

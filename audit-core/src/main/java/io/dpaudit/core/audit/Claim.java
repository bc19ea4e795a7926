package io.dpaudit.core.audit;

import io.dpaudit.core.Checks;

/**
 * A privacy claim to audit: "the mechanism is {@code (epsilon, delta)}-DP".
 *
 * @param label name shown in reports
 * @param epsilon claimed ε, {@code >= 0}
 * @param delta claimed δ, in [0, 1) (0: pure ε-DP)
 * @param source where the claim comes from: {@code "stated"} for an explicit pair, or the name and source of the
 *     analytic bound that produced it
 */
public record Claim(String label, double epsilon, double delta, String source) {
    public Claim {
        Checks.nonNegative("claims.epsilon", epsilon);
        Checks.deltaOrZero("claims.delta", delta);
    }
}

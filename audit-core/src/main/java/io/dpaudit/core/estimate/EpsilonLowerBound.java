package io.dpaudit.core.estimate;

/**
 * An empirical lower bound on the smallest ε for which the mechanism is {@code (ε, delta)}-DP:
 * {@code epsilon = max(0, log((TPR_lower - delta) / FPR_upper))} of the selected test, rounded down.
 *
 * @param delta the δ at which ε is bounded
 * @param epsilon the lower bound (0 when the test gives nothing)
 * @param test the certifying test
 */
public record EpsilonLowerBound(double delta, double epsilon, SelectedTest test) {
}

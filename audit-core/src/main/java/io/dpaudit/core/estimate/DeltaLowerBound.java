package io.dpaudit.core.estimate;

/**
 * An empirical lower bound on the smallest δ for which the mechanism is {@code (epsilon, δ)}-DP:
 * {@code delta = max(0, TPR_lower - e^epsilon FPR_upper)} of the selected test, rounded down.
 *
 * @param epsilon the ε at which δ is bounded
 * @param delta the lower bound (0 when the test gives nothing)
 * @param test the certifying test
 */
public record DeltaLowerBound(double epsilon, double delta, SelectedTest test) {
}

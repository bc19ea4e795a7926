package io.dpaudit.core.estimate;

/**
 * An empirical lower bound on the smallest δ for which the mechanism is {@code (epsilon, δ)}-DP, from one selected test,
 * rounded down: {@code max(0, TPR_lower - e^epsilon FPR_upper)} with two Clopper–Pearson limits, or the conditional
 * odds-ratio bound of {@link ConditionalEpsilonBound#delta} on the same counts (see
 * {@link EpsilonLowerBound.Certification}).
 *
 * @param epsilon the ε at which δ is bounded
 * @param delta the lower bound (0 when the test gives nothing)
 * @param test the certifying test (its rate limits are the Clopper–Pearson ones at the test's level)
 * @param certification how the test's counts were turned into the bound
 */
public record DeltaLowerBound(double epsilon, double delta, SelectedTest test,
        EpsilonLowerBound.Certification certification) {

    /** A bound from the test's two Clopper–Pearson limits. */
    public DeltaLowerBound(double epsilon, double delta, SelectedTest test) {
        this(epsilon, delta, test, EpsilonLowerBound.Certification.CLOPPER_PEARSON);
    }
}

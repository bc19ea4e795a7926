package io.dpaudit.core.estimate;

/**
 * An empirical lower bound on the smallest δ for which the mechanism is {@code (epsilon, δ)}-DP:
 * {@code delta = max(0, TPR_lower - e^epsilon FPR_upper)} of the selected test, rounded down.
 *
 * From coupled trials, one of the two forms of {@link PairedDeltaBound} instead.
 *
 * @param epsilon the ε at which δ is bounded
 * @param delta the lower bound (0 when the test gives nothing)
 * @param test the certifying test (for a bound from coupled trials, each world's limits from its own counts, shown for
 *     reference)
 * @param certification {@link EpsilonLowerBound.Certification#CLOPPER_PEARSON} for independently sampled worlds,
 *     {@code PAIRED} or {@code MARGINAL} for coupled trials
 * @param paired the coupled trials' joint counts of the test, or null when the worlds were sampled independently
 */
public record DeltaLowerBound(double epsilon, double delta, SelectedTest test,
        EpsilonLowerBound.Certification certification, EpsilonLowerBound.PairedCounts paired) {

    /** A bound from the test's two Clopper–Pearson limits (independently sampled worlds). */
    public DeltaLowerBound(double epsilon, double delta, SelectedTest test) {
        this(epsilon, delta, test, EpsilonLowerBound.Certification.CLOPPER_PEARSON, null);
    }
}

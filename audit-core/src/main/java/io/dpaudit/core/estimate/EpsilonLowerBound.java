package io.dpaudit.core.estimate;

/**
 * An empirical lower bound on the smallest ε for which the mechanism is {@code (ε, delta)}-DP, from one selected test,
 * rounded down: {@code max(0, log((TPR_lower - delta) / FPR_upper))} with two Clopper–Pearson limits, or the conditional
 * odds-ratio bound of {@link ConditionalEpsilonBound} on the same counts (see {@link Certification}).
 *
 * @param delta the δ at which ε is bounded
 * @param epsilon the lower bound (0 when the test gives nothing)
 * @param test the certifying test (its rate limits are the Clopper–Pearson ones at the test's level)
 * @param certification how the test's counts were turned into the bound
 */
public record EpsilonLowerBound(double delta, double epsilon, SelectedTest test, Certification certification) {

    /** A bound from the ratio of the test's two Clopper–Pearson limits. */
    public EpsilonLowerBound(double delta, double epsilon, SelectedTest test) {
        this(delta, epsilon, test, Certification.CLOPPER_PEARSON);
    }

    /** How a test's counts are turned into an ε lower bound. */
    public enum Certification {
        /** {@code log((TPR_lower - delta) / FPR_upper)}, each Clopper–Pearson limit at half the test's error level. */
        CLOPPER_PEARSON("clopper-pearson"),
        /** {@link ConditionalEpsilonBound} at the test's whole error level. */
        CONDITIONAL("conditional");

        private final String label;

        Certification(String label) {
            this.label = label;
        }

        /** The name reports use. */
        public String label() {
            return label;
        }
    }
}

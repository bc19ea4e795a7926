package io.dpaudit.core.estimate;

/**
 * An empirical lower bound on the smallest ε for which the mechanism is {@code (ε, delta)}-DP, from one selected test,
 * rounded down: {@code max(0, log((TPR_lower - delta) / FPR_upper))} with two Clopper–Pearson limits, or the conditional
 * odds-ratio bound of {@link ConditionalEpsilonBound} on the same counts, or, from coupled trials, one of the two forms
 * of {@link PairedEpsilonBound} (see {@link Certification}).
 *
 * @param delta the δ at which ε is bounded
 * @param epsilon the lower bound (0 when the test gives nothing)
 * @param test the certifying test (its rate limits are the Clopper–Pearson ones at the test's level; for a paired
 *     bound, each world's limits from its own counts, shown for reference)
 * @param certification how the test's counts were turned into the bound
 * @param paired the coupled trials' joint counts of the test, or null when the worlds were sampled independently
 */
public record EpsilonLowerBound(double delta, double epsilon, SelectedTest test, Certification certification,
        PairedCounts paired) {

    /** A bound from the ratio of the test's two Clopper–Pearson limits. */
    public EpsilonLowerBound(double delta, double epsilon, SelectedTest test) {
        this(delta, epsilon, test, Certification.CLOPPER_PEARSON, null);
    }

    /** A bound from independently sampled worlds. */
    public EpsilonLowerBound(double delta, double epsilon, SelectedTest test, Certification certification) {
        this(delta, epsilon, test, certification, null);
    }

    /**
     * How the coupled trials fell for the certifying test {@code S}.
     *
     * @param both trials where both worlds' outputs are in {@code S}
     * @param flaggedOnly trials where only the flagged world's output is
     * @param otherOnly trials where only the other world's output is
     * @param errorLevel the error level the test was certified at (its share of {@code 1 - confidence})
     * @param share for {@link Certification#PAIRED}, the share of that level spent on the nuisance limit
     *     {@code kappa_U}; for {@link Certification#MARGINAL}, the share spent on the other world's upper limit (either
     *     chosen on the selection trials, see {@link PairedEpsilonBound})
     */
    public record PairedCounts(long both, long flaggedOnly, long otherOnly, double errorLevel, double share) {
    }

    /** How a test's counts are turned into an ε lower bound. */
    public enum Certification {
        /** {@code log((TPR_lower - delta) / FPR_upper)}, each Clopper–Pearson limit at half the test's error level. */
        CLOPPER_PEARSON("clopper-pearson"),
        /** {@link ConditionalEpsilonBound} at the test's whole error level. */
        CONDITIONAL("conditional"),
        /**
         * {@link PairedEpsilonBound} (for δ: {@link PairedDeltaBound#delta}) on coupled trials (common random numbers)
         * at the test's whole error level.
         */
        PAIRED("paired"),
        /**
         * {@link PairedEpsilonBound#marginalEpsilon} (for δ: {@link PairedDeltaBound#marginalDelta}): from coupled
         * trials, each world's Clopper–Pearson limit from its own count, at shares of the test's error level chosen on
         * the selection trials (valid under any coupling).
         */
        MARGINAL("marginal");

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

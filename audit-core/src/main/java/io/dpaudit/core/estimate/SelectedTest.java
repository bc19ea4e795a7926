package io.dpaudit.core.estimate;

/**
 * The threshold test behind an empirical bound, with the counts and confidence bounds it was certified with.
 *
 * @param direction which tail and which flagged world
 * @param edge threshold index in the histogram binning ({@code 0..bins})
 * @param threshold the threshold value on the attack's score
 * @param truePositives trials of the flagged world in {@code S} (evaluation data)
 * @param falsePositives trials of the other world in {@code S} (evaluation data)
 * @param trials trials of the flagged world in the evaluation data (the true-positive rate's denominator)
 * @param otherTrials trials of the other world in the evaluation data (the false-positive rate's denominator); equal
 *     to {@code trials} for simulated audits, which run both worlds equally often
 * @param truePositiveRateLower one-sided Clopper–Pearson lower bound of the true-positive rate
 * @param falsePositiveRateUpper one-sided Clopper–Pearson upper bound of the false-positive rate
 * @param errorLevelPerRate error level of each of the two Clopper–Pearson bounds
 */
public record SelectedTest(
        TestDirection direction,
        int edge,
        double threshold,
        long truePositives,
        long falsePositives,
        long trials,
        long otherTrials,
        double truePositiveRateLower,
        double falsePositiveRateUpper,
        double errorLevelPerRate) {

    /** A test certified on equally many trials of both worlds. */
    public SelectedTest(TestDirection direction, int edge, double threshold, long truePositives, long falsePositives,
            long trials, double truePositiveRateLower, double falsePositiveRateUpper, double errorLevelPerRate) {
        this(direction, edge, threshold, truePositives, falsePositives, trials, trials, truePositiveRateLower,
                falsePositiveRateUpper, errorLevelPerRate);
    }
}

package io.dpaudit.core.audit;

/**
 * How an audit's confidence is shared between its sources of evidence ({@link Evidence}).
 *
 * <p>A verdict at confidence {@code c} refutes a true claim with probability at most {@code 1 - c}. An audit with one
 * source makes its statements at {@code c}. An audit with a two-sided white-box estimate and (ε, δ) claims judges them
 * by both sources ({@link ClaimJudgement}), so it makes each source's statements at {@code 1 - (1 - c) / 2} (the
 * attack's bounds, its trade-off curve and the estimate's simultaneous intervals alike): by the union bound, the
 * chance that either source refutes a true claim stays at most {@code 1 - c}.
 *
 * <p>A sequential audit ({@link Stopping}) first shares its error level between its looks ({@link StageSchedule}): the
 * split is then that of the look whose numbers the result holds, {@code look} its confidence.
 *
 * @param verdicts the confidence of the verdicts (the audit's, as asked for)
 * @param look the confidence of the look the statements come from: {@code verdicts} for an audit of one look
 * @param blackBox the confidence of each of the attack's statements
 * @param whiteBox the confidence of the estimate's simultaneous intervals, or NaN without an estimate
 */
public record ConfidenceSplit(double verdicts, double look, double blackBox, double whiteBox) {

    /** One source: every statement at the verdicts' confidence. */
    public static ConfidenceSplit single(double confidence) {
        return new ConfidenceSplit(confidence, confidence, confidence, Double.NaN);
    }

    /** Both sources, the error level halved for each (Bonferroni). */
    public static ConfidenceSplit shared(double confidence) {
        double each = 1 - (1 - confidence) / 2;
        return new ConfidenceSplit(confidence, confidence, each, each);
    }

    /** An estimate beside the attack without a claim to judge: both at the audit's confidence, nothing is combined. */
    public static ConfidenceSplit separate(double confidence) {
        return new ConfidenceSplit(confidence, confidence, confidence, confidence);
    }

    /** The split of one of {@code looks} (this split's confidence is the look's), the verdicts at {@code overall}. */
    public ConfidenceSplit ofLookIn(double overall) {
        return new ConfidenceSplit(overall, look, blackBox, whiteBox);
    }

    /** Whether the two sources share the look's error level. */
    public boolean isShared() {
        return blackBox != look;
    }

    /** Whether the verdicts' error level was shared between the looks of a sequential audit. */
    public boolean isSequential() {
        return look != verdicts;
    }
}

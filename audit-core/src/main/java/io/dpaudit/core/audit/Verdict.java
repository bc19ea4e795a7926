package io.dpaudit.core.audit;

/**
 * Outcome of auditing one claim.
 *
 * <p>Only {@link #VIOLATED} is evidence; it holds at the audit's confidence. The other two say how much the absence of
 * evidence means, from the audit's power ({@link io.dpaudit.core.estimate.power.DetectionPower},
 * {@link io.dpaudit.core.estimate.power.TradeOffPower}): {@link #CONSISTENT} when a violation of a size printed beside it
 * would have been flagged with probability at least 0.9, {@link #INCONCLUSIVE} when only a violation many times the
 * claim (ten times its δ when nothing was seen at that δ, a hundred times otherwise; ten times its μ for f-DP), or
 * none at all, could have been.
 */
public enum Verdict {
    /** The empirical evidence refutes the claim at the confidence (δ lower bound above the claim's δ, or a certified
     * trade-off point below the claimed curve). */
    VIOLATED("violated"),
    /** No evidence against the claim, and the audit had the power to see a violation of the size reported with it
     * (which still does not prove the claim). */
    CONSISTENT("consistent"),
    /** No evidence against the claim, but the audit could not have refuted it even if the violation were many times
     * the claim: more trials (or a better attack) are needed before anything can be said. */
    INCONCLUSIVE("inconclusive");

    private final String label;

    Verdict(String label) {
        this.label = label;
    }

    /** The lower-case label used in reports. */
    public String label() {
        return label;
    }
}

package io.dpaudit.core.audit;

/** What the two-sided privacy-loss estimate says about an (ε, δ) claim. */
public enum EstimateVerdict {
    /** The threshold audit refutes the claim, or the estimate's lower δ bound at the claim's ε exceeds its δ. */
    VIOLATED("violated"),
    /** The claim's δ lies inside the estimate's interval at the claim's ε: the claim is what the pair needs. */
    TIGHT("tight"),
    /** The claim's δ exceeds the estimate's upper bound: the pair is more private than claimed. */
    LOOSE("loose");

    private final String label;

    EstimateVerdict(String label) {
        this.label = label;
    }

    /** Name as written in reports. */
    public String label() {
        return label;
    }
}

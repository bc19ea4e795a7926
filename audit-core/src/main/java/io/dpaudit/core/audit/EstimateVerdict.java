package io.dpaudit.core.audit;

/** What the two-sided privacy-loss estimate says about an (ε, δ) claim. */
public enum EstimateVerdict {
    /** The estimate's lower δ bound at the claim's ε exceeds its δ: the white-box evidence refutes the claim. */
    VIOLATED("violated"),
    /** The claim's δ lies inside the estimate's interval at the claim's ε: the claim is what the pair needs. */
    TIGHT("tight"),
    /** The claim's δ exceeds the estimate's upper bound: the pair is more private than claimed. */
    LOOSE("loose"),
    /**
     * The claim's δ lies inside the estimate's interval, but the interval is too wide to call the claim tight: its
     * lower end is 0 or its ends are more than {@link ClaimEstimate#INFORMATIVE_RATIO} times apart (the estimate saw too
     * little at this δ; neither violation nor looseness was ruled out); or the claimed δ is above the interval of a
     * simulated pair that is only a lower-bound pair of the mechanism (another dataset may lose more: looseness is not
     * shown).
     */
    INCONCLUSIVE("inconclusive");

    private final String label;

    EstimateVerdict(String label) {
        this.label = label;
    }

    /** Name as written in reports. */
    public String label() {
        return label;
    }
}

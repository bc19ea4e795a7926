package io.dpaudit.core.audit;

/** Outcome of auditing one claim. */
public enum Verdict {
    /** The empirical δ lower bound at the claim's ε exceeds the claim's δ: the claim is refuted at the confidence. */
    VIOLATED("violated"),
    /** The audit found no evidence against the claim (which does not prove it). */
    CONSISTENT("consistent");

    private final String label;

    Verdict(String label) {
        this.label = label;
    }

    /** The lower-case label used in reports. */
    public String label() {
        return label;
    }
}

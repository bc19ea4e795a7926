package io.dpaudit.core.accounting;

/**
 * The neighbouring relation a guarantee refers to. It is explicit everywhere because the same mechanism has
 * different guarantees under the two relations, and mixing them up is a known accounting bug.
 */
public enum Adjacency {
    /** Add or remove one record (unbounded DP). The l2 sensitivity of a clipped sum is {@code clip}. */
    ADD_REMOVE("add/remove one record"),
    /**
     * Replace one record (bounded DP, substitution). The l2 sensitivity of a sum of contributions clipped to
     * {@code clip} is {@code 2 clip}: one contribution leaves and another arrives, in opposite directions at worst.
     */
    REPLACE_ONE("replace one record");

    private final String description;

    Adjacency(String description) {
        this.description = description;
    }

    /** Human-readable form. */
    public String description() {
        return description;
    }

    /** l2 sensitivity of a sum of per-record contributions clipped to norm {@code clip}. */
    public double sumSensitivity(double clip) {
        return this == REPLACE_ONE ? 2 * clip : clip;
    }
}

package io.dpaudit.core.engine;

/**
 * The two neighbouring inputs of an audit: {@code D} holds the canary record, {@code D'} does not.
 *
 * <p>Under add/remove adjacency these are the two datasets {@code D = D' + {canary}} and {@code D'}; both orders of
 * the pair are tested by the estimator, so the "add" and the "remove" direction are both audited.
 */
public enum World {
    /** The dataset with the canary record, {@code D}. */
    WITH_CANARY("D"),
    /** The neighbouring dataset without the canary record, {@code D'}. */
    WITHOUT_CANARY("D'");

    private final String symbol;

    World(String symbol) {
        this.symbol = symbol;
    }

    /** Short name used in reports: {@code D} or {@code D'}. */
    public String symbol() {
        return symbol;
    }
}

package io.dpaudit.core.bounds;

/** What a privacy curve is, which decides how an audit may treat it. */
public enum BoundKind {
    /** A certified upper bound on the mechanism's privacy profile (a theorem, an accountant). */
    UPPER_BOUND("upper bound"),
    /** An approximation (for example a central-limit one): neither an upper nor a lower bound. */
    APPROXIMATION("approximation, not an upper bound"),
    /**
     * The exact profile of one neighbouring pair (one adversary configuration): a lower bound on the mechanism's
     * worst case, and the truth an audit of that configuration can approach.
     */
    PAIR_PROFILE("exact profile of one neighbouring pair, a lower bound on the worst case"),
    /** A formula known to be wrong (a misprint kept on purpose, so that audits can show it is unsafe). */
    KNOWN_WRONG("known to be wrong, kept as a claim to refute"),
    /**
     * A statement whose printed form was lost and has been reconstructed (its form fixed by the source's prose, its
     * constants not verified): audited as a claim, never trusted as a certificate.
     */
    RECONSTRUCTED("reconstructed from the source's prose, constants unverified: audited as a claim"),
    /** A candidate form of a statement the source does not let us settle: audited as a claim. */
    CANDIDATE("candidate form, not verified against its source: audited as a claim"),
    /**
     * A proven lower bound on the mechanism's profile (one certified test on one pair): what any correct accounting
     * must stay above — not a claim the mechanism satisfies.
     */
    LOWER_BOUND("proven lower bound on the worst case, not an upper bound");

    private final String description;

    BoundKind(String description) {
        this.description = description;
    }

    /** Human-readable form. */
    public String description() {
        return description;
    }
}

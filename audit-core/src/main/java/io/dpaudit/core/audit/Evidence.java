package io.dpaudit.core.audit;

/**
 * A rigorous source of evidence about an (ε, δ) claim. A claim's verdict uses every source the audit has
 * ({@link ClaimJudgement}); the result names the sources that decided it.
 */
public enum Evidence {
    /**
     * The attack's certified bounds: the δ lower bound at the claim's ε of a test chosen on held-out trials (or by
     * Bonferroni) and certified by Clopper–Pearson limits. Needs nothing but samples of the mechanism's outputs.
     */
    BLACK_BOX("black-box"),
    /**
     * The two-sided estimate of the simulated pair's privacy profile from its exact likelihood ratio (plain or
     * importance-sampled), whose intervals hold simultaneously over its ε grid. Needs a simulator with an exact
     * likelihood ratio.
     */
    WHITE_BOX("white-box");

    private final String label;

    Evidence(String label) {
        this.label = label;
    }

    /** The name as written in reports ({@code black-box}, {@code white-box}). */
    public String label() {
        return label;
    }
}

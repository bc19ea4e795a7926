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
    WHITE_BOX("white-box"),
    /**
     * A proven lower bound on the mechanism's worst-case δ(ε) (bound kind {@code lower-bound}: a closed-form test on a
     * dataset the mechanism must protect, such as a max test, or the proven lower end of an exact curve), computed
     * with downward rounding: deterministic, so it refutes a claim whose δ at its ε is below it with no error
     * probability of its own. It only refutes; it never powers a claim.
     */
    ANALYTIC("analytic");

    private final String label;

    Evidence(String label) {
        this.label = label;
    }

    /** The name as written in reports ({@code black-box}, {@code white-box}, {@code analytic}). */
    public String label() {
        return label;
    }
}

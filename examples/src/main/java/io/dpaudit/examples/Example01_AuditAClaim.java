package io.dpaudit.examples;

import io.dpaudit.core.audit.AuditResult;
import io.dpaudit.core.audit.ClaimResult;
import io.dpaudit.core.engine.ProgressListener;
import io.dpaudit.runner.ScenarioAudit;
import io.dpaudit.runner.scenario.Scenario;
import io.dpaudit.runner.scenario.ScenarioReader;
import java.util.Locale;

/**
 * Audit a claim: the Gaussian mechanism with sigma = 1 claimed (epsilon 3, delta 1e-5)-DP — false, its exact epsilon at
 * that delta is 4.38 — and claimed at its exact bound. A scenario is the same JSON that {@code dp-audit run} reads;
 * {@link ScenarioAudit#prepare} validates it and resolves the claims, {@link ScenarioAudit#audit} runs the trials.
 */
public final class Example01_AuditAClaim {
    private Example01_AuditAClaim() {
    }

    /** Audits the two claims and returns the result (printed by {@link #main}). */
    public static AuditResult run(long trials) {
        Scenario s = ScenarioReader.parse("""
                {"mechanism": {"type": "gaussian", "sigma": 1},
                 "claims": [{"label": "an overclaim", "epsilon": 3, "delta": 1e-5},
                            {"bound": "gaussian-exact", "delta": 1e-5}]}
                """, "example-01");
        ScenarioAudit.Prepared p = ScenarioAudit.prepare(s, trials, 1, 2);
        return ScenarioAudit.audit(p, ProgressListener.NONE);
    }

    /** Runs the example and prints what it found. */
    public static void main(String[] args) {
        for (ClaimResult c : run(100_000_000L).claims()) {
            System.out.printf(Locale.ROOT, "%-16s %-12s delta_lb %.3g at epsilon %.4g; would detect delta >= %.3g%n",
                    c.claim().label(), c.verdict().label(), c.deltaLowerBound().delta(), c.claim().epsilon(),
                    c.power().delta());
        }
    }
}

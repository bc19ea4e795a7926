package io.dpaudit.examples;

import io.dpaudit.core.audit.AuditResult;
import io.dpaudit.core.audit.ClaimResult;
import io.dpaudit.core.engine.ProgressListener;
import io.dpaudit.runner.ScenarioAudit;
import io.dpaudit.runner.scenario.Scenario;
import io.dpaudit.runner.scenario.ScenarioReader;
import java.nio.file.Path;
import java.util.Locale;

/**
 * Audit a paper's theorem: seed 000's Theorem 4.1 (random participation in federated learning) claimed at the noise
 * the paper's Section 6 prints, against the exact mechanism. The shipped scenario names the bound; the audit simulates
 * the mechanism and refutes the theorem's epsilon where it is optimistic (see docs/seed-000.md).
 */
public final class Example04_APapersTheorem {
    private Example04_APapersTheorem() {
    }

    /** Audits {@code scenarios/seed-000/sec6-setting1-thm41-paper-sigma.json} under {@code root} at {@code trials}. */
    public static AuditResult run(Path root, long trials) {
        Scenario s = ScenarioReader.read(root.resolve("scenarios/seed-000/sec6-setting1-thm41-paper-sigma.json"));
        return ScenarioAudit.audit(ScenarioAudit.prepare(s, trials, s.seed(), 2), ProgressListener.NONE);
    }

    /** Runs the example and prints what it found. */
    public static void main(String[] args) {
        for (ClaimResult c : run(Path.of(args.length > 0 ? args[0] : "."), 10_000_000L).claims()) {
            System.out.printf(Locale.ROOT, "%s: %s (claimed epsilon %.4g at delta %.3g; empirical epsilon >= %.4g)%n",
                    c.claim().label(), c.verdict().label(), c.claim().epsilon(), c.claim().delta(),
                    c.epsilonLowerBound().epsilon());
        }
    }
}

package io.dpaudit.runner.validation;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.dpaudit.core.audit.ClaimResult;
import io.dpaudit.core.audit.Verdict;
import io.dpaudit.core.engine.ProgressListener;
import io.dpaudit.runner.BoundCache;
import io.dpaudit.runner.ScenarioAudit;
import io.dpaudit.runner.analysis.AuditOutcome;
import io.dpaudit.runner.analysis.Looseness;
import io.dpaudit.runner.scenario.Scenario;
import io.dpaudit.runner.scenario.ScenarioReader;
import java.nio.file.Path;
import java.util.Map;
import io.dpaudit.runner.analysis.AuditRunner;

/** Audits of the shipped scenarios as shipped (their trial counts and seeds, two threads) and checks of verdicts. */
final class ShippedScenarios {
    /**
     * One cache of analytic bounds for every test class of this JVM that audits shipped scenarios, as a directory run
     * shares one: a bug and its fix (the in-the-wild pairs), the zoo's batch-sampler entries and the batching
     * scenarios state the same mechanisms, whose bounds (lattices, compositions) are then built once. The bounds are
     * pure functions of the mechanism's parameters, so no number depends on which test built them.
     */
    private static final BoundCache CACHE = new BoundCache();

    private ShippedScenarios() {
    }

    /** The audit of {@code scenarios/<dir>/<file>}. */
    static AuditOutcome audit(String dir, String file) {
        Scenario s = ScenarioReader.read(Path.of("..", "scenarios", dir).resolve(file));
        return AuditRunner.run(ScenarioAudit.prepare(s, s.trials(), s.seed(), 2, ProgressListener.NONE, CACHE),
                ProgressListener.NONE);
    }

    /**
     * {@code actual} meets {@code expected}: VIOLATED exactly, and CONSISTENT as "not violated" (consistent or
     * inconclusive), which is what these tests asserted before the verdict inconclusive existed; whether an audit had
     * the power to refute is pinned per scenario by {@code PinnedScenarioNumbersTest}.
     */
    static void assertVerdict(Verdict expected, Verdict actual, String message) {
        if (expected == Verdict.CONSISTENT) {
            assertNotEquals(Verdict.VIOLATED, actual, message);
        } else {
            assertEquals(expected, actual, message);
        }
    }

    /**
     * Every claim has its expected verdict (CONSISTENT meaning not violated, {@link #assertVerdict}); a violated one with an empirical delta lower bound above
     * {@code evidence} times its delta; and, when the simulator is correct, the audit's epsilon lower bounds lie at
     * or below the exact curve of the simulated pair.
     */
    static void assertVerdicts(AuditOutcome r, Map<String, Verdict> expected, double evidence,
            boolean simulatorIsCorrect) {
        assertEquals(expected.size(), r.result().claims().size());
        for (ClaimResult c : r.result().claims()) {
            Verdict v = expected.get(c.claim().label());
            assertVerdict(v, c.verdict(), c.claim().label() + ": delta_lb = " + c.deltaLowerBound().delta());
            if (v == Verdict.VIOLATED) {
                assertTrue(c.deltaLowerBound().delta() > evidence * c.claim().delta(), c.claim().label());
            }
        }
        Looseness l = r.findings().looseness();
        if (l != null && simulatorIsCorrect) {
            for (Looseness.Share s : l.empirical()) {
                assertTrue(s.epsilonLowerBound() <= s.referenceEpsilon(), "empirical " + s.epsilonLowerBound()
                        + " above the exact " + s.referenceEpsilon() + " at delta " + s.delta());
            }
        }
    }
}

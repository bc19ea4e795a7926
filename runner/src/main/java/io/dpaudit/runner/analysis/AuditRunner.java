package io.dpaudit.runner.analysis;

import io.dpaudit.core.audit.AuditResult;
import io.dpaudit.core.engine.PhaseEngine;
import io.dpaudit.core.engine.PhaseStore;
import io.dpaudit.core.engine.ProgressListener;
import io.dpaudit.runner.ScenarioAudit;
import io.dpaudit.runner.ScenarioAudit.Prepared;

/**
 * The runner's entry point for a prepared scenario: runs its trials ({@link ScenarioAudit#audit}) and analyses the
 * result ({@link Findings}), returning the complete {@link AuditOutcome} that every report format renders.
 */
public final class AuditRunner {
    /** Runs a prepared audit on the local engine and analyses it. */
    public static AuditOutcome run(Prepared p, ProgressListener progress) {
        return run(p, progress, null, null);
    }

    /**
     * Runs a prepared audit on an engine, keeping phase states in a store (checkpoint and resume), and analyses it.
     *
     * @param engine the engine of the counted phases, or null for the local one
     * @param store phase states to resume from and keep, or null
     */
    public static AuditOutcome run(Prepared p, ProgressListener progress, PhaseEngine engine, PhaseStore store) {
        return analyse(p, ScenarioAudit.audit(p, progress, engine, store), progress);
    }

    /** The outcome of a finished audit: its result and the analytic findings (progress as phase "bounds"). */
    public static AuditOutcome analyse(Prepared p, AuditResult result, ProgressListener progress) {
        return new AuditOutcome(p.scenario(), p.mechanism(), p.scenario().faithful() ? "faithful" : "reduced", result,
                BoundAnalysis.of(p, result, progress), p.pairSearch(), null);
    }

    private AuditRunner() {
    }
}

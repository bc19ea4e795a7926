package io.dpaudit.runner.analysis;

import io.dpaudit.core.audit.AuditResult;
import io.dpaudit.core.estimate.ScoreMetrics;
import io.dpaudit.core.model.AuditableMechanism;
import io.dpaudit.runner.PairSearch;
import io.dpaudit.runner.scenario.Scenario;

/**
 * The complete outcome of one audit, the runner's answer to every caller (command line, JUnit, Spark driver): what
 * was audited, the counts, estimates and verdicts, and the analytic findings. Report writers render it; nothing in
 * it is computed by them.
 *
 * @param scenario the scenario as audited (for a score-file audit, the one describing its files and settings)
 * @param mechanism the mechanism audited
 * @param simulator the simulator kind: {@code reduced}, {@code faithful} or {@code external scores}
 * @param result the counts, bounds, estimates and verdicts
 * @param findings the analytic bounds, looseness, trade-off curves, calibrations and notes
 * @param pairSearch the search that chose the audited pair, or null
 * @param scoreMetrics a score file's AUROC and TPR at fixed FPRs, or null
 */
public record AuditOutcome(Scenario scenario, AuditableMechanism mechanism, String simulator, AuditResult result,
        Findings findings, PairSearch.Result pairSearch, ScoreMetrics.Result scoreMetrics) {
}

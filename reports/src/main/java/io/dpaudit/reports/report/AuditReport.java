package io.dpaudit.reports.report;

import io.dpaudit.core.ToolInfo;
import io.dpaudit.core.audit.AuditResult;
import io.dpaudit.core.estimate.ScoreMetrics;
import io.dpaudit.core.model.AuditableMechanism;
import io.dpaudit.core.rng.RandomStreams;
import io.dpaudit.runner.PairSearch;
import io.dpaudit.runner.analysis.AuditOutcome;
import io.dpaudit.runner.analysis.BoundCurve;
import io.dpaudit.runner.analysis.Looseness;
import io.dpaudit.runner.analysis.NoiseSaving;
import io.dpaudit.runner.analysis.TradeOffCurve;
import io.dpaudit.runner.scenario.Scenario;
import java.util.List;
import java.util.Map;

/**
 * Everything a report shows, immutable: the runner's {@link AuditOutcome} and where and by what it was produced. The
 * JSON, Markdown, HTML and CSV writers all render this one model as plain values; none of them computes.
 *
 * @param toolName tool name
 * @param toolVersion tool version
 * @param outcome the audit's complete outcome (what was audited, the result, the analytic findings)
 * @param rng description of the random source and stream derivation
 * @param environment runtime and library versions
 * @param provenance where the report comes from, or null for a report built in code
 */
public record AuditReport(String toolName, String toolVersion, AuditOutcome outcome, String rng,
        Map<String, String> environment, Provenance provenance) {

    public AuditReport {
        environment = Map.copyOf(environment);
    }

    /** The report of an outcome, by this tool in this environment, without provenance. */
    public static AuditReport of(AuditOutcome outcome) {
        return new AuditReport(ToolInfo.NAME, ToolInfo.version(), outcome, RandomStreams.description(),
                ToolInfo.environment(), null);
    }

    /** The scenario as audited. */
    public Scenario scenario() {
        return outcome.scenario();
    }

    /** The mechanism audited. */
    public AuditableMechanism mechanism() {
        return outcome.mechanism();
    }

    /** The simulator kind ({@code reduced}, {@code faithful} or {@code external scores}). */
    public String simulator() {
        return outcome.simulator();
    }

    /** The counts, bounds, estimates and verdicts. */
    public AuditResult result() {
        return outcome.result();
    }

    /** The analytic bounds' curves. */
    public List<BoundCurve> bounds() {
        return outcome.findings().curves();
    }

    /** Remarks a reader should see (e.g. bounds that do not apply). */
    public List<String> notes() {
        return outcome.findings().notes();
    }

    /** Each bound and the audit against the exact curve of the simulated pair, or null when there is none. */
    public Looseness looseness() {
        return outcome.findings().looseness();
    }

    /** The curves of the trade-off plane. */
    public List<TradeOffCurve> tradeOffCurves() {
        return outcome.findings().tradeOffCurves();
    }

    /** For claims the two-sided estimate finds loose, the noise they need (may be empty). */
    public List<NoiseSaving> noiseSavings() {
        return outcome.findings().noiseSavings();
    }

    /** A score file's AUROC and TPR at fixed FPRs ({@code dp-audit scores}), or null. */
    public ScoreMetrics.Result scoreMetrics() {
        return outcome.scoreMetrics();
    }

    /** The search that chose the audited pair ({@code "pairSearch"}), or null. */
    public PairSearch.Result pairSearch() {
        return outcome.pairSearch();
    }

    /** Rounds the audited mechanism composes per trial, as its family declares them. */
    public long roundsPerTrial() {
        return mechanism().roundsPerTrial();
    }

    /**
     * Simulated rounds per second per core, per world: {@code trialsPerSecond x roundsPerTrial} over the cores the
     * threads could use ({@code min(threads, processors)}, the processors as recorded in the environment).
     */
    public double roundsPerSecondPerCore() {
        int processors;
        try {
            processors = Integer.parseInt(environment.getOrDefault("processors", "1"));
        } catch (NumberFormatException e) {
            processors = 1;
        }
        int cores = Math.max(1, Math.min(result().settings().threads(), processors));
        return result().trialsPerSecond() * roundsPerTrial() / cores;
    }

    /** The same report with its provenance. */
    public AuditReport withProvenance(Provenance p) {
        return new AuditReport(toolName, toolVersion, outcome, rng, environment, p);
    }
}

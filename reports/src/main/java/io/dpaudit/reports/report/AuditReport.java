package io.dpaudit.reports.report;

import io.dpaudit.core.audit.AuditResult;
import io.dpaudit.core.model.AuditableMechanism;
import io.dpaudit.runner.scenario.Scenario;
import java.util.List;
import java.util.Map;

/**
 * Everything a report shows, immutable; the JSON, Markdown and HTML writers all render this one model.
 *
 * @param toolName tool name
 * @param toolVersion tool version
 * @param scenario the scenario as read
 * @param mechanism the mechanism audited
 * @param simulator the simulator kind ({@code reduced} or {@code faithful}) and its description
 * @param result the audit outcome
 * @param bounds the analytic bounds that apply to the mechanism
 * @param rng description of the random source and stream derivation
 * @param environment runtime and library versions
 * @param notes remarks a reader should see (e.g. bounds that do not apply)
 * @param looseness each bound and the audit against the exact curve of the simulated pair, or null when the mechanism
 *     has none
 * @param tradeOffCurves the curves of the trade-off plane: claimed f's, the exact curve of the simulated pair, the
 *     GDP curve of the certified lower bound
 * @param provenance where the report comes from, or null for a report built in code
 * @param noiseSavings for claims the two-sided estimate finds loose, the noise they need (may be empty)
 * @param scoreMetrics a score file's AUROC and TPR at fixed FPRs ({@code dp-audit scores}), or null
 * @param pairSearch the search that chose the audited pair ({@code "pairSearch"}), or null
 */
public record AuditReport(String toolName, String toolVersion, Scenario scenario, AuditableMechanism mechanism,
        String simulator, AuditResult result, List<BoundCurve> bounds, String rng, Map<String, String> environment,
        List<String> notes, Looseness looseness, List<TradeOffCurve> tradeOffCurves, Provenance provenance,
        List<NoiseSaving> noiseSavings, io.dpaudit.core.estimate.ScoreMetrics.Result scoreMetrics,
        io.dpaudit.runner.PairSearch.Result pairSearch) {

    public AuditReport {
        noiseSavings = List.copyOf(noiseSavings);
        bounds = List.copyOf(bounds);
        tradeOffCurves = List.copyOf(tradeOffCurves);
        notes = List.copyOf(notes);
        environment = Map.copyOf(environment);
    }

    /** A report without score metrics (every report but a score file's). */
    public AuditReport(String toolName, String toolVersion, Scenario scenario, AuditableMechanism mechanism,
            String simulator, AuditResult result, List<BoundCurve> bounds, String rng, Map<String, String> environment,
            List<String> notes, Looseness looseness, List<TradeOffCurve> tradeOffCurves, Provenance provenance,
            List<NoiseSaving> noiseSavings) {
        this(toolName, toolVersion, scenario, mechanism, simulator, result, bounds, rng, environment, notes, looseness,
                tradeOffCurves, provenance, noiseSavings, null, null);
    }

    /** A report without provenance (built in code rather than by a command). */
    public AuditReport(String toolName, String toolVersion, Scenario scenario, AuditableMechanism mechanism,
            String simulator, AuditResult result, List<BoundCurve> bounds, String rng, Map<String, String> environment,
            List<String> notes, Looseness looseness, List<TradeOffCurve> tradeOffCurves) {
        this(toolName, toolVersion, scenario, mechanism, simulator, result, bounds, rng, environment, notes, looseness,
                tradeOffCurves, null, List.of());
    }

    /** Rounds the audited mechanism composes per trial, as its family declares them. */
    public long roundsPerTrial() {
        return mechanism.roundsPerTrial();
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
        int cores = Math.max(1, Math.min(result.settings().threads(), processors));
        return result.trialsPerSecond() * roundsPerTrial() / cores;
    }

    /** The same report with the noise its loose claims need. */
    public AuditReport withNoiseSavings(List<NoiseSaving> savings) {
        return new AuditReport(toolName, toolVersion, scenario, mechanism, simulator, result, bounds, rng, environment,
                notes, looseness, tradeOffCurves, provenance, savings, scoreMetrics, pairSearch);
    }

    /** The same report with its provenance. */
    public AuditReport withProvenance(Provenance p) {
        return new AuditReport(toolName, toolVersion, scenario, mechanism, simulator, result, bounds, rng, environment,
                notes, looseness, tradeOffCurves, p, noiseSavings, scoreMetrics, pairSearch);
    }

    /** The same report with a score file's AUROC and TPR at fixed FPRs. */
    public AuditReport withScoreMetrics(io.dpaudit.core.estimate.ScoreMetrics.Result m) {
        return new AuditReport(toolName, toolVersion, scenario, mechanism, simulator, result, bounds, rng, environment,
                notes, looseness, tradeOffCurves, provenance, noiseSavings, m, pairSearch);
    }

    /** The same report with the pair search that chose its pair. */
    public AuditReport withPairSearch(io.dpaudit.runner.PairSearch.Result s) {
        return new AuditReport(toolName, toolVersion, scenario, mechanism, simulator, result, bounds, rng, environment,
                notes, looseness, tradeOffCurves, provenance, noiseSavings, scoreMetrics, s);
    }
}

package io.dpaudit.runner.scores;

import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.dpaudit.core.audit.AuditSettings;
import io.dpaudit.core.audit.Claim;
import io.dpaudit.core.audit.Stopping;
import io.dpaudit.core.model.Parameters;
import io.dpaudit.runner.analysis.AuditOutcome;
import io.dpaudit.runner.analysis.Findings;
import io.dpaudit.runner.analysis.TradeOffCurves;
import io.dpaudit.runner.scenario.AuditSpec;
import io.dpaudit.runner.scenario.ClaimSpec;
import io.dpaudit.runner.scenario.Scenario;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * A score-file audit as an {@link AuditOutcome}, so that its report is written like any other: the scenario that
 * describes the files and settings (its {@code source} is what a scenario file for this audit would hold), the
 * {@link ExternalScores} mechanism whose parameters are the files' facts, and the findings (no analytic bound applies
 * to scores computed outside dp-audit; the trade-off plane shows the certified GDP curve).
 */
public final class ScoreFileOutcome {
    /** The outcome of {@code request}'s audit, {@code name} naming its report (default {@code scores}). */
    public static AuditOutcome of(ScoreFileAudit.Request request, ScoreFileAudit.Outcome o, String name) {
        String direction = request.lowerMeansWith() ? "lower" : "higher";
        Parameters mechanismParameters = mechanismParameters(o, direction);
        ExternalScores mechanism = new ExternalScores(mechanismParameters);
        AuditSettings s = request.settings();
        List<ClaimSpec> specs = new ArrayList<>();
        for (Claim c : request.claims()) {
            specs.add(new ClaimSpec(c.label(), null, c.epsilon(), c.delta(), "--claim"));
        }
        String with = request.with().path().toString();
        String without = request.without().path().toString();
        Scenario scenario = new Scenario(source(request, direction), name != null ? name : "scores",
                "Per-trial scores computed outside dp-audit: " + with + " (with the canary) and " + without
                + " (without).", mechanismParameters, new Parameters("simulator.", Map.of("kind", "external")),
                ExternalScores.TYPE, new AuditSpec(o.with().scores(), s.seed(), s.confidence(), s.selection(),
                s.bins(), s.deltas(), s.epsilons(), AuditSettings.TradeOffSettings.DEFAULT, AuditSpec.EstimateSpec.NONE,
                Stopping.FIXED), specs);
        if (request.stopping().sequential()) {
            scenario = scenario.withStopping(Stopping.SEQUENTIAL, o.result().sequential().maxTrials());
        }
        List<String> notes = new ArrayList<>(mechanism.notes());
        if (o.with().scores() != o.without().scores()) {
            notes.add(String.format(Locale.ROOT, "The files hold %d and %d scores; each rate is bounded on its own "
                    + "world's scores (trialsPerWorld gives the first).", o.with().scores(), o.without().scores()));
        }
        if (o.scoresBetweenValues() > 0) {
            notes.add(String.format(Locale.ROOT, "The histogram has one slot per value the range part showed (%d: the "
                    + "scores repeat their values), but %,d scores are none of them: each counts with the next smaller "
                    + "value, a coarser threshold test (never an invalid one), and the AUROC brackets the pairs "
                    + "within those slots instead of counting them as ties. `histogram.exact` is true for this slot "
                    + "layout, not for these scores.", o.result().binning().bins() + 1, o.scoresBetweenValues()));
        }
        Findings findings = new Findings(List.of(), null, TradeOffCurves.certifiedMuCurve(o.result()), List.of(),
                notes);
        return new AuditOutcome(scenario, mechanism, "external scores", o.result(), findings, null, o.metrics());
    }

    /** The files' facts (name, scores, bytes, SHA-256) and the direction, as the mechanism's parameters. */
    private static Parameters mechanismParameters(ScoreFileAudit.Outcome o, String direction) {
        Map<String, Object> params = new LinkedHashMap<>();
        params.put("type", ExternalScores.TYPE);
        for (var f : List.of(o.with(), o.without())) {
            String p = f == o.with() ? "with" : "without";
            params.put(p, f.name());
            params.put(p + "Scores", (double) f.scores());
            params.put(p + "Bytes", (double) f.bytes());
            params.put(p + "Sha256", f.sha256());
        }
        params.put("direction", direction);
        return new Parameters("", params);
    }

    /** What a scenario file for this audit would hold. */
    private static ObjectNode source(ScoreFileAudit.Request request, String direction) {
        AuditSettings s = request.settings();
        ObjectNode source = JsonNodeFactory.instance.objectNode();
        source.putObject("mechanism").put("type", ExternalScores.TYPE);
        source.put("with", request.with().path().toString());
        source.put("without", request.without().path().toString());
        source.put("direction", direction);
        if (request.with().column() != null) {
            source.put("column", request.with().column());
        }
        if (request.stopping().sequential()) {
            ObjectNode stopping = source.putObject("stopping").put("rule", "sequential");
            if (request.maxScores() > 0) {
                stopping.put("maxTrials", request.maxScores());
            }
        }
        source.put("seed", s.seed());
        source.put("confidence", s.confidence());
        ArrayNode ds = source.putArray("deltas");
        s.deltas().forEach(ds::add);
        ArrayNode es = source.putArray("epsilons");
        s.epsilons().forEach(es::add);
        ArrayNode cs = source.putArray("claims");
        for (Claim c : request.claims()) {
            cs.addObject().put("epsilon", c.epsilon()).put("delta", c.delta());
        }
        return source;
    }

    private ScoreFileOutcome() {
    }
}

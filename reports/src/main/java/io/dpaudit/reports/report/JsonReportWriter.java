package io.dpaudit.reports.report;

import io.dpaudit.runner.analysis.TradeOffCurve;
import io.dpaudit.runner.analysis.NoiseSaving;
import io.dpaudit.runner.analysis.Looseness;
import io.dpaudit.runner.analysis.BoundCurve;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.SerializationFeature;
import com.fasterxml.jackson.databind.json.JsonMapper;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.dpaudit.core.audit.AuditResult;
import io.dpaudit.core.audit.AuditSettings;
import io.dpaudit.core.audit.ClaimEstimate;
import io.dpaudit.core.audit.ClaimResult;
import io.dpaudit.core.audit.TradeOffClaimResult;
import io.dpaudit.core.estimate.tradeoff.CertifiedTradeOff;
import io.dpaudit.core.estimate.DeltaLowerBound;
import io.dpaudit.core.estimate.EpsilonLowerBound;
import io.dpaudit.core.estimate.profile.PrivacyLossEstimate;
import io.dpaudit.core.estimate.SelectedTest;
import io.dpaudit.core.estimate.ThresholdSelection;
import java.util.Map;
import io.dpaudit.runner.json.JsonNumbers;

/**
 * Writes {@code report.json}. The field contract (README, "report.json") is extended by later versions, never
 * broken. Doubles follow {@link JsonNumbers}.
 */
public final class JsonReportWriter {
    private static final ObjectMapper MAPPER = JsonMapper.builder().enable(SerializationFeature.INDENT_OUTPUT)
            .build();

    private JsonReportWriter() {
    }

    /** The report as a JSON tree. */
    public static ObjectNode toJson(AuditReport r) {
        AuditResult res = r.result();
        AuditSettings s = res.settings();
        ObjectNode root = MAPPER.createObjectNode();
        root.put("schemaVersion", Provenance.SCHEMA_VERSION);
        ObjectNode tool = root.putObject("tool");
        tool.put("name", r.toolName());
        tool.put("version", r.toolVersion());
        if (r.provenance() != null) {
            ObjectNode p = root.putObject("provenance");
            p.put("startedAt", r.provenance().startedAt());
            p.put("commandLine", r.provenance().commandLine());
            p.put("scenarioSha256", r.provenance().scenarioSha256());
            p.put("gitCommit", r.provenance().gitCommit());
            p.set("elapsedSeconds", JsonNumbers.encode(r.provenance().elapsedSeconds()));
        } else {
            root.putNull("provenance");
        }
        root.set("scenario", r.scenario().source());
        root.put("scenarioName", r.scenario().name());
        root.put("seed", s.seed());
        root.put("rng", r.rng());
        root.put("trialsPerWorld", s.trialsPerWorld());
        root.put("threads", s.threads());
        root.set("elapsedSeconds", JsonNumbers.encode(res.elapsedSeconds()));
        root.set("trialsPerSecond", JsonNumbers.encode(res.trialsPerSecond()));
        root.put("roundsPerTrial", r.roundsPerTrial());
        root.set("roundsPerSecondPerCore", JsonNumbers.encode(r.roundsPerSecondPerCore()));
        root.set("confidence", JsonNumbers.encode(res.confidence().verdicts()));
        ObjectNode split = root.putObject("confidenceSplit");
        split.set("verdicts", JsonNumbers.encode(res.confidence().verdicts()));
        split.set("blackBox", JsonNumbers.encode(res.confidence().blackBox()));
        split.set("whiteBox", JsonNumbers.encode(res.confidence().whiteBox()));
        split.set("look", JsonNumbers.encode(res.confidence().look()));
        split.put("shared", res.confidence().isShared());
        stopping(root.putObject("stopping"), res);

        mechanismAndTest(root, r);

        empiricalAndBounds(root, r);

        tradeOff(root.putObject("tradeOff"), r);

        looseness(root, r);

        estimate(root, r);
        scoreMetrics(root, r);
        pairSearch(root, r);

        claims(root, r);

        ObjectNode env = root.putObject("environment");
        r.environment().entrySet().stream().sorted(Map.Entry.comparingByKey())
                .forEach(e -> env.put(e.getKey(), e.getValue()));
        ArrayNode notes = root.putArray("notes");
        r.notes().forEach(notes::add);
        return root;
    }

    /** {@code mechanism}, {@code attack}, {@code thresholdSelection} and {@code histogram}: what was audited, how. */
    private static void mechanismAndTest(ObjectNode root, AuditReport r) {
        AuditResult res = r.result();
        AuditSettings s = res.settings();
        ObjectNode mech = root.putObject("mechanism");
        mech.put("type", r.mechanism().type());
        ObjectNode params = mech.putObject("parameters");
        for (Map.Entry<String, Object> e : r.mechanism().parameters().values().entrySet()) {
            if (e.getValue() instanceof Double d) {
                params.set(e.getKey(), JsonNumbers.encode(d));
            } else {
                params.put(e.getKey(), String.valueOf(e.getValue()));
            }
        }
        mech.put("adjacency", r.mechanism().adjacency());
        mech.put("simulator", r.simulator());
        mech.put("simulatorDescription", res.mechanism());
        root.put("attack", res.attack());

        ObjectNode sel = root.putObject("thresholdSelection");
        sel.put("description", s.selection().describe());
        if (s.selection() instanceof ThresholdSelection.HeldOut h) {
            sel.put("method", "held-out");
            sel.set("holdoutFraction", JsonNumbers.encode(h.fraction()));
        } else if (s.selection() instanceof ThresholdSelection.Bonferroni b) {
            sel.put("method", "bonferroni");
            sel.put("grid", b.gridSize());
        }
        sel.put("selectionTrialsPerWorld", res.selectionTrials());
        sel.put("evaluationTrialsPerWorld", res.evaluationTrials());

        ObjectNode hist = root.putObject("histogram");
        hist.set("lo", JsonNumbers.encode(res.binning().lo()));
        hist.set("hi", JsonNumbers.encode(res.binning().hi()));
        hist.put("bins", res.binning().bins());
        hist.put("exact", res.binning().exact());
        hist.put("pilotTrialsPerWorld", s.pilotTrials());
        hist.put("shardTrials", s.shardTrials());
        hist.put("streamsUsed", res.streamsUsed());
    }

    /** {@code empirical} (the certified lower bounds) and {@code bounds} (each analytic bound's curve). */
    private static void empiricalAndBounds(ObjectNode root, AuditReport r) {
        AuditResult res = r.result();
        ObjectNode emp = root.putObject("empirical");
        ArrayNode eps = emp.putArray("epsilonLowerBounds");
        for (EpsilonLowerBound e : res.epsilonLowerBounds()) {
            ObjectNode o = eps.addObject();
            o.set("delta", JsonNumbers.encode(e.delta()));
            o.set("epsilon", JsonNumbers.encode(e.epsilon()));
            o.put("certification", e.certification().label());
            o.set("test", test(e.test()));
            paired(o, "paired", e.certification(), e.paired());
        }
        ArrayNode dels = emp.putArray("deltaLowerBounds");
        for (DeltaLowerBound d : res.deltaLowerBounds()) {
            ObjectNode o = dels.addObject();
            o.set("epsilon", JsonNumbers.encode(d.epsilon()));
            o.set("delta", JsonNumbers.encode(d.delta()));
            o.set("test", test(d.test()));
            if (d.paired() != null) {
                o.put("certification", d.certification().label());
                paired(o, "paired", d.certification(), d.paired());
            }
        }

        ArrayNode bounds = root.putArray("bounds");
        for (BoundCurve c : r.bounds()) {
            ObjectNode o = bounds.addObject();
            o.put("name", c.name());
            o.put("source", c.source());
            o.put("certified", c.certified());
            o.put("kind", c.kind().name().toLowerCase(java.util.Locale.ROOT).replace('_', '-'));
            ArrayNode pts = o.putArray("points");
            for (BoundCurve.Point p : c.points()) {
                ObjectNode po = pts.addObject();
                po.set("epsilon", JsonNumbers.encode(p.epsilon()));
                po.set("delta", JsonNumbers.encode(p.delta()));
            }
            ArrayNode at = o.putArray("epsilonAtDeltas");
            for (BoundCurve.Point p : c.epsilonAtDeltas()) {
                ObjectNode po = at.addObject();
                po.set("delta", JsonNumbers.encode(p.delta()));
                po.set("epsilon", JsonNumbers.encode(p.epsilon()));
            }
        }
    }

    /** {@code looseness}: every bound, empirical lower bound and claim against the exact curve, or null. */
    private static void looseness(ObjectNode root, AuditReport r) {
        if (r.looseness() == null) {
            root.putNull("looseness");
        } else {
            ObjectNode l = root.putObject("looseness");
            l.put("reference", r.looseness().reference());
            ArrayNode rows = l.putArray("bounds");
            for (Looseness.Row row : r.looseness().rows()) {
                againstExact(rows.addObject().put("bound", row.bound()), row.delta(), row.epsilon(),
                        row.referenceEpsilon(), row.ratio()).put("belowExact", row.belowExact())
                        .set("exactEpsilonLowerEnd", JsonNumbers.encode(row.referenceEpsilonLowerEnd()));
            }
            ArrayNode shares = l.putArray("empirical");
            for (Looseness.Share sh : r.looseness().empirical()) {
                ObjectNode o = shares.addObject();
                o.set("delta", JsonNumbers.encode(sh.delta()));
                o.set("exactEpsilon", JsonNumbers.encode(sh.referenceEpsilon()));
                o.set("epsilonLowerBound", JsonNumbers.encode(sh.epsilonLowerBound()));
                o.set("shareOfExact", JsonNumbers.encode(sh.share()));
            }
            ArrayNode claimRows = l.putArray("claims");
            for (Looseness.ClaimRow c : r.looseness().claims()) {
                againstExact(claimRows.addObject().put("label", c.label()), c.delta(), c.epsilon(),
                        c.referenceEpsilon(), c.ratio()).put("belowExact", c.belowExact())
                        .set("exactEpsilonLowerEnd", JsonNumbers.encode(c.referenceEpsilonLowerEnd()));
            }
        }
    }

    /** {@code claims}: each claim's verdict, its evidence, power and, with the estimate, its calibration. */
    private static void claims(ObjectNode root, AuditReport r) {
        AuditResult res = r.result();
        ArrayNode claims = root.putArray("claims");
        for (ClaimResult c : res.claims()) {
            ObjectNode o = claims.addObject();
            o.put("label", c.claim().label());
            o.set("epsilon", JsonNumbers.encode(c.claim().epsilon()));
            o.set("delta", JsonNumbers.encode(c.claim().delta()));
            o.put("verdict", c.verdict().label());
            if (res.sequential() != null) {
                o.put("look", res.sequential().claimLooks().get(res.claims().indexOf(c)));
            }
            ArrayNode decided = o.putArray("decidedBy");
            c.decidedBy().forEach(ev -> decided.add(ev.label()));
            if (c.analytic() != null) {
                o.putObject("analytic").put("bound", c.analytic().bound()).set("deltaLowerBound",
                        JsonNumbers.encode(c.analytic().delta()));
            }
            o.set("empiricalDeltaLowerBound", JsonNumbers.encode(c.deltaLowerBound().delta()));
            o.set("empiricalEpsilonLowerBound", JsonNumbers.encode(c.epsilonLowerBound().epsilon()));
            o.set("tightness", JsonNumbers.encode(c.tightness()));
            o.put("epsilonBoundAboveClaim", c.epsilonBoundAboveClaim());
            o.put("source", c.claim().source());
            o.set("deltaTest", test(c.deltaLowerBound().test()));
            if (c.deltaLowerBound().paired() != null) {
                o.put("deltaCertification", c.deltaLowerBound().certification().label());
                paired(o, "deltaPaired", c.deltaLowerBound().certification(),
                        c.deltaLowerBound().paired());
            }
            ObjectNode power = o.putObject("power");
            power.set("delta", JsonNumbers.encode(c.power().delta()));
            power.set("epsilon", JsonNumbers.encode(c.power().epsilon()));
            power.set("probability", JsonNumbers.encode(c.power().probability()));
            long factor = c.power().trialsFactorToResolve();
            if (factor >= 0) { // inconclusive verdicts only
                power.put("trialsFactorToResolve", factor);
            }
            ClaimEstimate ce = c.estimate();
            if (ce != null) {
                o.put("estimateVerdict", ce.verdict().label());
                ObjectNode req = o.putObject("requiredEpsilon");
                req.set("lower", JsonNumbers.encode(ce.requiredEpsilon().lower()));
                req.set("upper", JsonNumbers.encode(ce.requiredEpsilon().upper()));
                ObjectNode del = o.putObject("estimatedDelta");
                del.set("lower", JsonNumbers.encode(ce.deltaAtClaim().lower()));
                del.set("upper", JsonNumbers.encode(ce.deltaAtClaim().upper()));
                o.set("loosenessFactor", JsonNumbers.encode(ce.loosenessFactor(c.claim())));
                NoiseSaving saving = r.noiseSavings().stream().filter(n -> n.claim().equals(c.claim().label()))
                        .findFirst().orElse(null);
                if (saving == null) {
                    o.putNull("noiseForClaim");
                } else {
                    ObjectNode n = o.putObject("noiseForClaim");
                    n.put("bound", saving.bound());
                    n.put("parameter", saving.parameter());
                    n.set("current", JsonNumbers.encode(saving.current()));
                    n.set("needed", JsonNumbers.encode(saving.needed()));
                }
            }
        }
    }

    /**
     * {@code stopping}: {@code {rule: "fixed"}}, or for a sequential audit {@code {rule: "sequential",
     * firstStageTrials, maxTrials, trialsUsed, stop: "resolved" | "budget", looks: [{look, trialsPerWorld,
     * selectionTrials, evaluationTrials, confidence, elapsedSeconds, claims: [verdict], tradeOffClaims: [verdict]}]}}.
     */
    private static void stopping(ObjectNode o, io.dpaudit.core.audit.AuditResult res) {
        io.dpaudit.core.audit.SequentialRun seq = res.sequential();
        if (seq == null) {
            o.put("rule", "fixed");
            return;
        }
        o.put("rule", "sequential");
        o.put("firstStageTrials", seq.firstStageTrials());
        o.put("maxTrials", seq.maxTrials());
        o.put("trialsUsed", seq.last().trialsPerWorld());
        o.put("stop", seq.stop().id());
        ArrayNode looks = o.putArray("looks");
        for (io.dpaudit.core.audit.SequentialRun.Look l : seq.looks()) {
            ObjectNode lo = looks.addObject();
            lo.put("look", l.look());
            lo.put("trialsPerWorld", l.trialsPerWorld());
            lo.put("selectionTrials", l.selectionTrials());
            lo.put("evaluationTrials", l.evaluationTrials());
            lo.set("confidence", JsonNumbers.encode(l.confidence()));
            lo.set("elapsedSeconds", JsonNumbers.encode(l.elapsedSeconds()));
            ArrayNode cv = lo.putArray("claims");
            l.claims().forEach(v -> cv.add(v.label()));
            ArrayNode tv = lo.putArray("tradeOffClaims");
            l.tradeOffClaims().forEach(v -> tv.add(v.label()));
        }
    }

    /**
     * {@code estimate}: null when none was asked for; else {@code method, source, confidence, trials, lossBracket,
     * tailTrials, gridPoints, deltaAtEpsilon [{epsilon, lower, upper, estimate}]} (thinned, see {@link EstimateTables}),
     * {@code epsilonAtDelta [{delta, lower, upper}]} and {@code tightness [{bound, kind, delta, epsilon, lower, upper,
     * verdict, factor}]}.
     */
    /**
     * Score reports only ({@code dp-audit scores}): {@code auroc {estimate, lower, upper, bracketLow, bracketHigh,
     * method, confidence}} and {@code tprAtFpr [{targetFpr, threshold, fpr, fprLower, fprUpper, tpr, tprLower,
     * tprUpper}]} with its {@code tprAtFprConfidence} (see {@link io.dpaudit.core.estimate.ScoreMetrics}).
     */
    private static void scoreMetrics(ObjectNode root, AuditReport r) {
        io.dpaudit.core.estimate.ScoreMetrics.Result m = r.scoreMetrics();
        if (m == null) {
            return;
        }
        ObjectNode a = root.putObject("auroc");
        a.set("estimate", JsonNumbers.encode(m.auroc().estimate()));
        a.set("lower", JsonNumbers.encode(m.auroc().lower()));
        a.set("upper", JsonNumbers.encode(m.auroc().upper()));
        a.set("bracketLow", JsonNumbers.encode(m.auroc().bracketLow()));
        a.set("bracketHigh", JsonNumbers.encode(m.auroc().bracketHigh()));
        a.put("method", m.auroc().method());
        a.set("confidence", JsonNumbers.encode(m.confidence()));
        root.set("tprAtFprConfidence", JsonNumbers.encode(m.confidence()));
        ArrayNode rows = root.putArray("tprAtFpr");
        for (io.dpaudit.core.estimate.ScoreMetrics.TprAtFpr t : m.tprAtFpr()) {
            ObjectNode o = rows.addObject();
            o.set("targetFpr", JsonNumbers.encode(t.targetFpr()));
            o.set("threshold", JsonNumbers.encode(t.threshold()));
            o.set("fpr", JsonNumbers.encode(t.fpr()));
            o.set("fprLower", JsonNumbers.encode(t.fprLower()));
            o.set("fprUpper", JsonNumbers.encode(t.fprUpper()));
            o.set("tpr", JsonNumbers.encode(t.tpr()));
            o.set("tprLower", JsonNumbers.encode(t.tprLower()));
            o.set("tprUpper", JsonNumbers.encode(t.tprUpper()));
        }
    }

    /**
     * Only when the scenario searched its pair: {@code pairSearch {screen, criterionDelta, screenTrials (screen
     * attack), chosen, audited, candidates [{label, overrides, screenEpsilon}]}}; screened by a short audit, the
     * screening numbers choose the pair and are not evidence (the audit above ran on the chosen pair with fresh
     * trials); screened by the candidates' proven lower bounds, each number is such a bound.
     */
    private static void pairSearch(ObjectNode root, AuditReport r) {
        io.dpaudit.runner.PairSearch.Result s = r.pairSearch();
        if (s == null) {
            return;
        }
        ObjectNode o = root.putObject("pairSearch");
        o.put("screen", s.screen());
        o.set("criterionDelta", JsonNumbers.encode(s.criterionDelta()));
        if (s.screen().equals(io.dpaudit.runner.PairSearch.SCREEN_ATTACK)) {
            o.put("screenTrials", s.screenTrials());
        }
        o.put("chosen", s.chosen());
        o.put("audited", s.audited().label());
        ArrayNode cands = o.putArray("candidates");
        for (io.dpaudit.runner.PairSearch.Candidate c : s.candidates()) {
            ObjectNode n = cands.addObject();
            n.put("label", c.label());
            ObjectNode ov = n.putObject("overrides");
            c.overrides().forEach((k, v) -> {
                if (v instanceof Double d) {
                    ov.set(k, JsonNumbers.encode(d));
                } else {
                    ov.put(k, String.valueOf(v));
                }
            });
            n.set("screenEpsilon", JsonNumbers.encode(c.screenEpsilon()));
        }
    }

    private static void estimate(ObjectNode root, AuditReport r) {
        PrivacyLossEstimate e = r.result().estimate();
        if (e == null) {
            root.putNull("estimate");
            return;
        }
        ObjectNode o = root.putObject("estimate");
        o.put("method", e.method());
        o.put("source", e.source());
        o.put("evidence", e.whiteBox()
                ? "white-box: computed from the simulator's exact densities, not from trials of the mechanism"
                : "trials of the simulated mechanism, scored by the exact log-likelihood ratio");
        o.set("confidence", JsonNumbers.encode(e.confidence()));
        o.put("trials", e.trials());
        o.put("lossBracket", e.bracket());
        o.put("tailTrials", e.tailTrials());
        o.put("gridPoints", e.grid().size());
        ArrayNode pts = o.putArray("deltaAtEpsilon");
        for (PrivacyLossEstimate.DeltaInterval d : EstimateTables.shownPoints(r)) {
            ObjectNode p = pts.addObject();
            p.set("epsilon", JsonNumbers.encode(d.epsilon()));
            p.set("lower", JsonNumbers.encode(d.lower()));
            p.set("upper", JsonNumbers.encode(d.upper()));
            p.set("estimate", JsonNumbers.encode(d.estimate()));
            int i = e.indexOf(d.epsilon());
            if (i >= 0) {
                p.set("effectiveSampleSize", JsonNumbers.encode(e.effectiveSampleSize()[i]));
                p.set("plainTrialsEquivalent", JsonNumbers.encode(e.plainTrialsEquivalent()[i]));
            }
        }
        ArrayNode eps = o.putArray("epsilonAtDelta");
        for (PrivacyLossEstimate.EpsilonInterval d : EstimateTables.epsilonAtDeltas(r)) {
            ObjectNode p = eps.addObject();
            p.set("delta", JsonNumbers.encode(d.delta()));
            p.set("lower", JsonNumbers.encode(d.lower()));
            p.set("upper", JsonNumbers.encode(d.upper()));
        }
        ArrayNode rows = o.putArray("tightness");
        for (EstimateTables.Row t : EstimateTables.tightness(r)) {
            ObjectNode p = rows.addObject();
            p.put("bound", t.bound());
            p.put("kind", t.kind().name().toLowerCase(java.util.Locale.ROOT).replace('_', '-'));
            p.set("delta", JsonNumbers.encode(t.delta()));
            p.set("epsilon", JsonNumbers.encode(t.epsilon()));
            p.set("lower", JsonNumbers.encode(t.lower()));
            p.set("upper", JsonNumbers.encode(t.upper()));
            p.put("verdict", t.verdict());
            p.set("factor", JsonNumbers.encode(t.factor()));
        }
    }

    /**
     * Coupled trials: how they fell for the certifying test, and the share of the level its second limit took
     * ({@code kappa_U}'s for the paired form, the other world's limit's for the marginal one). Nothing when the worlds
     * were sampled independently.
     */
    private static void paired(ObjectNode o, String key, EpsilonLowerBound.Certification certification,
            EpsilonLowerBound.PairedCounts counts) {
        if (counts == null) {
            return;
        }
        ObjectNode p = o.putObject(key);
        p.put("both", counts.both());
        p.put("flaggedOnly", counts.flaggedOnly());
        p.put("otherOnly", counts.otherOnly());
        p.set("errorLevel", JsonNumbers.encode(counts.errorLevel()));
        p.set(certification == EpsilonLowerBound.Certification.MARGINAL ? "otherShare" : "kappaShare",
                JsonNumbers.encode(counts.share()));
    }

    private static ObjectNode test(SelectedTest t) {
        ObjectNode o = MAPPER.createObjectNode();
        o.put("direction", t.direction().describe());
        o.set("threshold", JsonNumbers.encode(t.threshold()));
        o.put("truePositives", t.truePositives());
        o.put("falsePositives", t.falsePositives());
        o.put("trials", t.trials());
        if (t.otherTrials() != t.trials()) {
            o.put("otherTrials", t.otherTrials()); // external scores with different numbers per world
        }
        o.set("truePositiveRateLower", JsonNumbers.encode(t.truePositiveRateLower()));
        o.set("falsePositiveRateUpper", JsonNumbers.encode(t.falsePositiveRateUpper()));
        o.set("errorLevelPerRate", JsonNumbers.encode(t.errorLevelPerRate()));
        return o;
    }

    /** The report as indented JSON text, ending with a newline. */
    public static String write(AuditReport r) {
        try {
            return MAPPER.writeValueAsString(toJson(r)) + "\n";
        } catch (com.fasterxml.jackson.core.JsonProcessingException e) {
            throw new IllegalStateException(e);
        }
    }

    /**
     * {@code tradeOff}: the certified points (all of them when at most 1000, else the envelope's vertices), the lower
     * convex envelope, the GDP lower bound with the point that gives it, the ε lower bounds read off the curve at the
     * scenario's δ values, the f-DP claims and the curves of the trade-off plane.
     */
    private static void tradeOff(ObjectNode o, AuditReport r) {
        CertifiedTradeOff t = r.result().tradeOff();
        o.put("method", t.method());
        o.set("confidence", JsonNumbers.encode(t.confidence()));
        boolean all = t.points().size() <= 1000;
        o.put("pointsShown", all ? "all certified points" : "the envelope's vertices (of " + t.points().size()
                + " certified points)");
        ArrayNode pts = o.putArray("points");
        for (CertifiedTradeOff.Point p : all ? t.points() : t.envelope()) {
            point(pts.addObject(), p);
        }
        ArrayNode env = o.putArray("envelope");
        for (CertifiedTradeOff.Point p : t.envelope()) {
            point(env.addObject(), p);
        }
        o.set("gdpMuLowerBound", JsonNumbers.encode(t.gdpMuLowerBound()));
        if (t.gdpMuPoint() != null) {
            point(o.putObject("gdpMuPoint"), t.gdpMuPoint());
        } else {
            o.putNull("gdpMuPoint");
        }
        ArrayNode eps = o.putArray("epsilonLowerBounds");
        for (double d : r.result().settings().deltas()) {
            ObjectNode e = eps.addObject();
            e.set("delta", JsonNumbers.encode(d));
            e.set("epsilon", JsonNumbers.encode(t.epsilonLowerBound(d)));
        }
        ArrayNode claims = o.putArray("claims");
        for (TradeOffClaimResult c : r.result().tradeOffClaims()) {
            ObjectNode co = claims.addObject();
            co.put("label", c.claim().label());
            co.put("kind", Double.isNaN(c.claim().gdpMu()) ? "trade-off" : "gdp");
            boolean gdp = !Double.isNaN(c.claim().gdpMu());
            co.set("gdpMu", gdp ? JsonNumbers.encode(c.claim().gdpMu()) : null); // not applicable: null
            co.put("verdict", c.verdict().label());
            if (r.result().sequential() != null) {
                co.put("look", r.result().sequential().tradeOffClaimLooks().get(r.result().tradeOffClaims()
                        .indexOf(c)));
            }
            co.set("gdpMuLowerBound", JsonNumbers.encode(c.gdpMuLowerBound()));
            co.set("tightness", gdp ? JsonNumbers.encode(c.tightness()) : null);
            if (c.refutation() != null) {
                ObjectNode ro = co.putObject("refutingPoint");
                point(ro, c.refutation().point());
                ro.set("margin", JsonNumbers.encode(c.refutation().margin()));
                ro.put("reversePair", c.refutation().reversePair());
                ro.set("claimedBeta", JsonNumbers.encode(c.refutation().reversePair()
                        ? c.claim().reverse().beta(c.refutation().point().beta())
                        : c.claim().f().beta(c.refutation().point().alpha())));
            } else {
                co.putNull("refutingPoint");
            }
            co.put("source", c.claim().source());
            co.put("orderedPair", c.claim().orderedPair());
            ObjectNode power = co.putObject("power");
            power.set("mu", JsonNumbers.encode(c.power().mu()));
            power.set("claimMu", JsonNumbers.encode(c.power().claimMu()));
            power.set("muGap", JsonNumbers.encode(c.power().muGap()));
            power.set("probability", JsonNumbers.encode(c.power().probability()));
        }
        ArrayNode curves = o.putArray("curves");
        for (TradeOffCurve c : r.tradeOffCurves()) {
            ObjectNode co = curves.addObject();
            co.put("name", c.name());
            co.put("role", c.role());
            ArrayNode cp = co.putArray("points");
            for (int i = 0; i < c.alpha().size(); i++) {
                ObjectNode po = cp.addObject();
                po.set("alpha", JsonNumbers.encode(c.alpha().get(i)));
                po.set("beta", JsonNumbers.encode(c.beta().get(i)));
            }
        }
    }

    private static void point(ObjectNode o, CertifiedTradeOff.Point p) {
        o.set("alpha", JsonNumbers.encode(p.alpha()));
        o.set("beta", JsonNumbers.encode(p.beta()));
        o.put("test", p.test());
    }

    /** One ε against the exact curve's at the same δ: {@code delta, epsilon, exactEpsilon, ratioToExact}. */
    private static ObjectNode againstExact(ObjectNode o, double delta, double epsilon, double exact, double ratio) {
        o.set("delta", JsonNumbers.encode(delta));
        o.set("epsilon", JsonNumbers.encode(epsilon));
        o.set("exactEpsilon", JsonNumbers.encode(exact));
        o.set("ratioToExact", JsonNumbers.encode(ratio));
        return o;
    }
}

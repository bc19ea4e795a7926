package io.dpaudit.reports.report;

import io.dpaudit.runner.text.Format;
import io.dpaudit.runner.analysis.NoiseSaving;
import io.dpaudit.runner.analysis.Looseness;
import io.dpaudit.runner.analysis.BoundCurve;
import io.dpaudit.core.audit.AuditResult;
import io.dpaudit.core.audit.AuditSettings;
import io.dpaudit.core.audit.ClaimEstimate;
import io.dpaudit.core.audit.ClaimResult;
import io.dpaudit.core.audit.EstimateVerdict;
import io.dpaudit.core.bounds.BoundKind;
import io.dpaudit.core.estimate.tradeoff.CertifiedTradeOff;
import io.dpaudit.core.estimate.DeltaLowerBound;
import io.dpaudit.core.estimate.EpsilonLowerBound;
import io.dpaudit.core.estimate.profile.PrivacyLossEstimate;
import io.dpaudit.core.engine.World;
import io.dpaudit.core.estimate.SelectedTest;
import java.util.List;
import java.util.Map;

/** Writes {@code report.md}: the same content as the JSON report, as tables for people. */
public final class MarkdownReportWriter {
    private MarkdownReportWriter() {
    }

    /** The report as Markdown. */
    public static String write(AuditReport r) {
        return title(r) + claims(r) + SequentialSection.markdown(r) + setUp(r) + details(r);
    }

    /** The title line. */
    static String title(AuditReport r) {
        return "# dp-audit report: " + r.scenario().name() + "\n\n";
    }

    /** The scenario's description and how the audit ran. */
    static String setUp(AuditReport r) {
        AuditResult res = r.result();
        AuditSettings s = res.settings();
        StringBuilder b = new StringBuilder("## Set-up\n\n");
        if (!r.scenario().description().isEmpty()) {
            b.append(r.scenario().description()).append("\n\n");
        }
        b.append("- **Mechanism:** `").append(r.mechanism().type()).append("` ")
                .append(parameters(r.mechanism().parameters().values())).append("; adjacency: ")
                .append(r.mechanism().adjacency()).append("\n");
        b.append("- **Simulator:** ").append(res.mechanism()).append("\n");
        b.append("- **Attack:** ").append(res.attack()).append("\n");
        if (WorldTrials.unbalanced(res)) {
            AuditResult.Counts c = res.counts();
            b.append("- **Trials:** ").append(WorldTrials.text(res)).append(c.selection() == null
                    ? " (all certify the test; a pilot part that only fixed the histogram is not counted)\n"
                    : " (evaluation " + Format.count(c.evaluation().trials(World.WITH_CANARY)) + " and "
                            + Format.count(c.evaluation().trials(World.WITHOUT_CANARY)) + ", the rest selection)\n");
        } else if (res.sequential() != null) {
            b.append("- **Trials per world:** ").append(Format.count(s.trialsPerWorld())).append(" of a budget of ")
                    .append(Format.count(res.sequential().maxTrials())).append(", sequentially (")
                    .append(res.sequential().looks().size()).append(" look(s); the last chose its tests on ")
                    .append(Format.count(res.selectionTrials())).append(" and certified them on ")
                    .append(Format.count(res.evaluationTrials())).append(")\n");
        } else {
            b.append("- **Trials per world:** ").append(Format.count(s.trialsPerWorld())).append(" (selection ")
                    .append(Format.count(res.selectionTrials())).append(", evaluation ")
                    .append(Format.count(res.evaluationTrials())).append(")\n");
        }
        String look = res.confidence().isSequential() ? " over all looks of the sequential audit; the last look's "
                + "statements at " + Format.percent(res.confidence().look()) : "";
        b.append("- **Confidence:** ").append(res.confidence().isShared() ? Format.percent(res.confidence()
                .verdicts()) + " for each verdict" + look + ", from two sources at " + Format.percent(s.confidence())
                + " each (the attack's bounds and the white-box estimate; union bound)"
                : res.confidence().isSequential() ? Format.percent(res.confidence().verdicts()) + " for each verdict"
                        + look + " (each bound below at that)"
                : Format.percent(s.confidence()) + " for each bound and verdict separately")
                .append("; threshold selection: ")
                .append(s.selection().describe()).append("\n");
        b.append("- **Seed:** ").append(s.seed()).append("; **RNG:** ").append(r.rng()).append("\n");
        b.append("- **Run:** ").append(s.threads()).append(" thread(s), ").append(Format.g(res.elapsedSeconds()))
                .append(" s, ").append(Format.perSecond(res.trialsPerSecond(), "trials")).append(" per world")
                .append(r.roundsPerTrial() > 1 ? ", " + Format.perSecond(r.roundsPerSecondPerCore(), "rounds")
                        + " per world per core (" + r.roundsPerTrial() + " rounds per trial)" : "")
                .append("\n\n");
        return b.toString();
    }

    /** Everything after the set-up: empirical bounds, estimate, trade-off curve, analytic bounds, notes. */
    static String details(AuditReport r) {
        AuditResult res = r.result();
        StringBuilder b = new StringBuilder();
        b.append("## Empirical lower bounds\n");
        if (res.epsilonLowerBounds().isEmpty() && res.deltaLowerBounds().isEmpty()) {
            b.append("\nNone asked for (the scenario's `deltas` and `epsilons` are empty); each claim's evidence is in "
                    + "the claims table.\n");
        }
        if (!res.epsilonLowerBounds().isEmpty()) { // ε lower bounds at the asked δ
            b.append("\n| δ | ε lower bound | test |\n|--:|--:|---|\n");
        }
        for (EpsilonLowerBound e : res.epsilonLowerBounds()) {
            b.append("| ").append(Format.g(e.delta())).append(" | ").append(Format.g(e.epsilon())).append(" | ")
                    .append(test(e.test()))
                    .append(e.certification() == EpsilonLowerBound.Certification.CONDITIONAL
                            ? "; certified by the conditional odds-ratio test" : "")
                    .append(coupled(e.certification(), e.paired()))
                    .append(" |\n");
        }
        if (!res.deltaLowerBounds().isEmpty()) { // δ lower bounds at the asked ε (the claims' are with the claims)
            b.append("\n| ε | δ lower bound | test |\n|--:|--:|---|\n");
        }
        for (DeltaLowerBound d : res.deltaLowerBounds()) {
            b.append("| ").append(Format.g(d.epsilon())).append(" | ").append(Format.g(d.delta())).append(" | ")
                    .append(test(d.test())).append(coupled(d.certification(), d.paired())).append(" |\n");
        }

        if (res.estimate() != null) {
            estimate(b, r);
        }
        scoreMetrics(b, r);
        pairSearch(b, r);
        tradeOff(b, r);

        b.append("\n## Analytic bounds\n\n");
        if (r.bounds().isEmpty()) {
            b.append("None applies.\n");
        } else {
            b.append("| bound | ε at δ | source |\n|---|---|---|\n");
            for (BoundCurve c : r.bounds()) {
                StringBuilder at = new StringBuilder();
                for (BoundCurve.Point p : c.epsilonAtDeltas()) {
                    at.append(at.length() > 0 ? "; " : "").append(Format.epsilonAt(p.epsilon())).append(" at ")
                            .append(Format.g(p.delta()));
                }
                b.append("| `").append(c.name()).append("`").append(c.kindLabel())
                        .append(" | ").append(at).append(" | ").append(cell(c.source())).append(" |\n");
            }
        }
        if (r.looseness() != null) {
            looseness(b, r.looseness());
        }
        if (!r.notes().isEmpty()) {
            b.append("\n## Notes\n\n");
            r.notes().forEach(n -> b.append("- ").append(n).append("\n"));
        }
        b.append("\n## Provenance\n\n- ").append(r.toolName()).append(" ").append(r.toolVersion()).append("\n");
        r.environment().entrySet().stream().sorted(Map.Entry.comparingByKey())
                .forEach(e -> b.append("- ").append(e.getKey()).append(": ").append(e.getValue()).append("\n"));
        return b.toString();
    }

    /** The summary sentence and the one claims table ((ε, δ) and f-DP claims together), then the claims' sources. */
    static String claims(AuditReport r) {
        List<ClaimRows.Row> rows = ClaimRows.of(r);
        StringBuilder b = new StringBuilder("## Claims\n\n");
        if (rows.isEmpty()) {
            return b.append("No claims: empirical lower bounds only.\n\n").toString();
        }
        b.append("**").append(cell(ClaimRows.summary(r))).append("** (").append(cell(ClaimRows.confidenceText(
                r.result()))).append(").");
        String estimate = ClaimRows.estimateSentence(r.result(), EstimateTables.pairFromBelow(r));
        if (!estimate.isEmpty()) {
            b.append(" ").append(cell(estimate)).append(".");
        }
        b.append("\n\n");
        b.append(claimsTable(rows));
        String below = Looseness.claimsBelow(r.looseness(), true);
        if (!below.isEmpty()) {
            b.append("\n**").append(cell(below)).append("**\n");
        }
        b.append("\n").append(claimsLegend(r)).append("\n\nSources:\n\n");
        for (ClaimRows.Row row : rows) {
            b.append("- ").append(cell(row.label())).append(": ").append(cell(row.source())).append("\n");
        }
        return b.append("\n").toString();
    }

    /** The claims table alone (Markdown). */
    static String claimsTable(List<ClaimRows.Row> rows) {
        boolean estimates = rows.stream().anyMatch(row -> row.estimate() != null);
        StringBuilder b = new StringBuilder("| claim | kind | claimed | verdict | evidence (certified) | would "
                + "detect (90%) | tightness |" + (estimates ? " estimate |" : "") + "\n|---|---|---|---|---|---|--:|"
                + (estimates ? "---|" : "") + "\n");
        for (ClaimRows.Row row : rows) {
            String v = row.verdict() == io.dpaudit.core.audit.Verdict.VIOLATED ? "**" + row.verdictText() + "**"
                    : row.verdictText();
            b.append("| ").append(cell(row.label())).append(" | ").append(row.kind()).append(" | ")
                    .append(cell(row.claimed())).append(" | ").append(v).append(" | ").append(cell(row.evidence()))
                    .append(" | ").append(cell(row.detectable())).append(" | ").append(row.tightness()).append(" |")
                    .append(estimates ? " " + row.estimateText(true) + " |" : "").append("\n");
        }
        return b.toString();
    }

    /** What the verdicts and columns of the claims table mean. */
    static String claimsLegend(AuditReport r) {
        boolean whiteBox = r.result().estimate() != null && !r.result().claims().isEmpty();
        boolean analytic = r.result().claims().stream().anyMatch(c -> c.analytic() != null);
        return "*Violated*: the evidence refutes the claim — the attack's empirical δ lower bound at the claim's ε "
                + "exceeds its δ (black-box)" + (whiteBox ? ", or the white-box estimate's lower δ there does" : "")
                + (analytic ? ", or a proven lower bound of the mechanism's δ there does (analytic: a closed-form "
                        + "bound, no error probability)" : "")
                + ", or a certified trade-off point lies below the claimed curve; for a correct claim this happens "
                + "with probability at most " + Format.percent(1 - r.result().confidence().verdicts())
                + (r.result().confidence().isShared() ? " (each source at half that, union bound)" : "") + ". "
                + "*Consistent*: no evidence against it, and the audit had the power to see a violation: its test "
                + "would have refuted, with probability at least 90%, a mechanism with 1.5 times the claimed ε at its "
                + "δ (\"would detect\": the smallest such ε over Laplace and, for δ > 0, Gaussian mechanisms, with the "
                + "δ its certified test would detect at the claim's ε beside it; for f-DP: a Gaussian pair with that μ)"
                + (whiteBox ? ", or the white-box estimate proves the simulated pair needs at most 1.5 times the "
                        + "claimed ε" : "") + ". "
                + "*Inconclusive*: no evidence, but the audit could not have refuted the claim even if its ε were "
                + "1.5 times the claim (a claim of ε = 0: ten times its δ; f-DP: ten times its μ), or at all: it says "
                + "nothing either way; more " + ClaimRows.unit(r) + " are needed. The verdict names the evidence that "
                + "decided it (black-box, white-box" + (analytic ? ", analytic" : "") + "). "
                + "Tightness: the empirical ε lower bound over the claimed ε (μ_lb / μ for a GDP claim)."
                + (whiteBox ? " Estimate: the white-box estimate's own verdict on the simulated pair (violated, "
                        + "tight, loose or inconclusive; it relies on the simulator's exact likelihood ratio)." : "")
                + (ClaimRows.contested(ClaimRows.of(r)) > 0 ? " "
                        + ClaimRows.contestedLegend(r.result().settings().confidence()) : "");
    }

    private static void tradeOff(StringBuilder b, AuditReport r) {
        CertifiedTradeOff t = r.result().tradeOff();
        b.append("\n## Trade-off curve (f-DP)\n\n");
        b.append("Certified GDP lower bound: **μ ≥ ").append(Format.g(t.gdpMuLowerBound())).append("**");
        if (t.gdpMuPoint() != null) {
            b.append(" (at α ≤ ").append(Format.g(t.gdpMuPoint().alpha())).append(", β ≤ ")
                    .append(Format.g(t.gdpMuPoint().beta())).append(": ").append(t.gdpMuPoint().test()).append(')');
        }
        b.append(". ε lower bounds read off the certified curve:");
        for (double d : r.result().settings().deltas()) {
            b.append(" ").append(Format.g(t.epsilonLowerBound(d))).append(" at δ = ").append(Format.g(d)).append(';');
        }
        b.setLength(b.length() - 1);
        b.append(".\n\nEvery point below holds simultaneously with ").append(Format.percent(t.confidence()))
                .append(" confidence (").append(t.method()).append("): some test has type I error at most α and "
                        + "type II error at most β, so the true trade-off curve T(M(D), M(D')) lies on or below "
                        + "each point and below their lower convex envelope.\n\n");
        if (!r.result().tradeOffClaims().isEmpty()) {
            b.append("The f-DP claims are judged in the claims table at the top: a claim about one ordered pair (an "
                    + "exact pair curve) holds the reversed tests, read as tests of D' against D, to its inverse "
                    + "curve; a claim about the mechanism holds both orders to f.\n\n");
        }
        List<CertifiedTradeOff.Point> env = t.envelope();
        b.append("Lower convex envelope (").append(env.size()).append(" vertices):\n\n| α ≤ | β ≤ | test |\n"
                + "|---|---|---|\n");
        int step = Math.max(1, (env.size() + 19) / 20);
        for (int i = 0; i < env.size(); i++) {
            if (i % step == 0 || i == env.size() - 1) {
                CertifiedTradeOff.Point p = env.get(i);
                b.append("| ").append(Format.g(p.alpha())).append(" | ").append(Format.g(p.beta())).append(" | ")
                        .append(cell(p.test())).append(" |\n");
            }
        }
    }

    private static void pairSearch(StringBuilder b, AuditReport r) {
        io.dpaudit.runner.PairSearch.Result s = r.pairSearch();
        if (s == null) {
            return;
        }
        if (s.screen().equals(io.dpaudit.runner.PairSearch.SCREEN_LOWER_BOUND)) {
            b.append("\n## Pair search\n\nThe audit above ran on **").append(cell(s.audited().label()))
                    .append("**, the candidate with the highest proven lower bound on ε at δ = ")
                    .append(Format.g(s.criterionDelta())).append(" (the largest ε among its bounds of kind ")
                    .append("lower-bound; no trials). Where the candidates differ only in the dataset the mechanism ")
                    .append("must protect, each is a proven lower bound on the mechanism's ε, and so is the highest.")
                    .append("\n\n| candidate | proven ε lower bound |\n|---|---|\n");
            for (io.dpaudit.runner.PairSearch.Candidate c : s.candidates()) {
                b.append("| ").append(cell(c.label())).append(" | ").append(Format.g(c.screenEpsilon()))
                        .append(" |\n");
            }
            return;
        }
        b.append("\n## Pair search\n\nThe audit above ran on **").append(cell(s.audited().label()))
                .append("**, the candidate pair with the largest ε lower bound at δ = ")
                .append(Format.g(s.criterionDelta())).append(" in a screening audit of ")
                .append(Format.count(s.screenTrials())).append(" trials per world each. The screening drew from ")
                .append("streams of its own, so the audit's fresh trials certify the chosen pair with their stated ")
                .append("confidence; the screening numbers chose it and are not evidence.\n\n")
                .append("| candidate | screened ε lower bound |\n|---|---|\n");
        for (io.dpaudit.runner.PairSearch.Candidate c : s.candidates()) {
            b.append("| ").append(cell(c.label())).append(" | ").append(Format.g(c.screenEpsilon())).append(" |\n");
        }
    }

    private static void scoreMetrics(StringBuilder b, AuditReport r) {
        io.dpaudit.core.estimate.ScoreMetrics.Result m = r.scoreMetrics();
        if (m == null) {
            return;
        }
        b.append("\n## Membership inference: AUROC and TPR at fixed FPR\n\n")
                .append("AUROC ").append(Format.g(m.auroc().estimate())).append(", in ")
                .append(interval(m.auroc().lower(), m.auroc().upper())).append(" with ")
                .append(Format.percent(m.confidence())).append(" confidence (").append(m.auroc().method())
                .append("; evaluation scores).\n\n")
                .append("Each threshold is chosen on the scores that fixed the histogram (the lowest edge whose false-")
                .append("positive rate there is at most the target) and its rates are certified on the evaluation ")
                .append("scores (Clopper–Pearson, all together with ").append(Format.percent(m.confidence()))
                .append(" confidence).\n\n| target FPR | threshold | FPR | TPR |\n|---|---|---|---|\n");
        for (io.dpaudit.core.estimate.ScoreMetrics.TprAtFpr t : m.tprAtFpr()) {
            b.append("| ").append(Format.g(t.targetFpr())).append(" | ").append(Format.g(t.threshold())).append(" | ")
                    .append(Format.g(t.fpr())).append(" ").append(interval(t.fprLower(), t.fprUpper())).append(" | ")
                    .append(Format.g(t.tpr())).append(" ").append(interval(t.tprLower(), t.tprUpper()))
                    .append(" |\n");
        }
    }

    private static void estimate(StringBuilder b, AuditReport r) {
        PrivacyLossEstimate e = r.result().estimate();
        b.append(EstimateTables.pairFromBelow(r) ? "\n## Two-sided estimate of the lower-bound pair's curve\n\n"
                + "The simulated pair is not proven to be the mechanism's worst case: its curve, estimated here, is a "
                + "lower bound on the mechanism's (the \"true ε(δ)\" columns below are the pair's).\n\n"
                : "\n## Two-sided estimate of the true curve\n\n");
        b.append("The privacy profile of the simulated pair is an average: δ(ε) = E_D[(1 − e^{ε − L})₊] with L the "
                + "exact log-likelihood ratio (and the same with the worlds swapped; the profile is the larger). ");
        if (e.whiteBox()) {
            b.append("Method **importance**: ").append(Format.count(e.trials())).append(" samples per direction ")
                    .append("drawn from the exact law of the output tilted toward large losses, each reweighted by ")
                    .append("its exact likelihood ratio; every weighted term is bounded by the tail's Chernoff bound, ")
                    .append("so the intervals hold simultaneously over ").append(Format.count(e.grid().size()))
                    .append(" values of ε with ").append(Format.percent(e.confidence())).append(" confidence (")
                    .append(e.source()).append("; ").append(e.bracket()).append("). This reaches δ far below ")
                    .append("1/N, where plain trials see nothing. **This is white-box evidence**: it relies on the ")
                    .append("simulator's exact densities, not on trials of the mechanism; the lower bounds above ")
                    .append("are the black-box evidence, which a wrong simulator could not fake.\n\n");
            claimTable(b, r);
            return;
        }
        b.append("Method **plain**: ").append(Format.count(e.trials()))
                .append(" more trials per world of L give intervals that hold ")
                .append("simultaneously over ").append(Format.count(e.grid().size())).append(" values of ε with ")
                .append(Format.percent(e.confidence())).append(" confidence (")
                .append(e.source()).append(", Bonferroni over the grid; binned L bracketed: ").append(e.bracket())
                .append("; ").append(Format.count(e.tailTrials())).append(" trials beyond the histogram's range, ")
                .append("counted at their safe extremes). **Unlike the lower bounds above, this relies on the ")
                .append("simulator's exact likelihood ratio**: it is what the mechanism needs on this pair, not a ")
                .append("bound a wrong simulator could not fake.\n\n");
        claimTable(b, r);
    }

    private static void claimTable(StringBuilder b, AuditReport r) {
        if (!r.result().claims().isEmpty()) {
            b.append("| claim | ε | δ | audit | estimate | true δ at ε | ε needed at δ | claimed ε / needed |\n"
                    + "|---|---|---|---|---|---|---|---|\n");
            for (ClaimResult c : r.result().claims()) {
                ClaimEstimate ce = c.estimate();
                b.append("| ").append(cell(c.claim().label())).append(" | ").append(Format.g(c.claim().epsilon()))
                        .append(" | ").append(Format.g(c.claim().delta())).append(" | ").append(c.verdict().label())
                        .append(" | **").append(ce.verdict().label()).append("** | ")
                        .append(interval(ce.deltaAtClaim().lower(), ce.deltaAtClaim().upper())).append(" | ")
                        .append(interval(ce.requiredEpsilon().lower(), ce.requiredEpsilon().upper())).append(" | ")
                        .append(ce.verdict() == EstimateVerdict.LOOSE
                                ? "≥ " + Format.g(ce.loosenessFactor(c.claim())) : "").append(" |\n");
            }
            for (NoiseSaving n : r.noiseSavings()) {
                b.append("\nClaim '").append(cell(n.claim())).append("' is loose: under `").append(n.bound())
                        .append("`, which the estimate finds tight at the claim's δ, the claim needs ")
                        .append(n.parameter()).append(" = ").append(Format.g(n.needed())).append(" instead of ")
                        .append(Format.g(n.current()));
                if (n.parameter().equals("sigma")) {
                    b.append(" (").append(Format.percent(n.saving())).append(" less noise)");
                }
                b.append(".\n");
            }
            b.append("\n*Violated*: the audit refutes the claim, or the estimate's δ at the claim's ε is above the "
                    + "claimed δ. *Tight*: the claimed δ lies inside the interval, whose ends are at most 10 times apart. "
                    + "*Loose*: the claimed δ is above it; the mechanism needs at most the upper end of \"ε needed\" "
                    + "at the claimed δ. *Inconclusive*: the claimed δ lies inside an interval too wide to judge (lower "
                    + "end 0, or ends more than 10 times apart), or above the interval of a lower-bound pair (the simulated pair is not the "
                    + "mechanism's worst case: looseness is not shown).\n\n");
        }
        b.append("| δ | audit's ε lower bound | true ε(δ) |\n|---|---|---|\n");
        for (PrivacyLossEstimate.EpsilonInterval at : EstimateTables.epsilonAtDeltas(r)) {
            String audit = "";
            for (EpsilonLowerBound lb : r.result().epsilonLowerBounds()) {
                if (lb.delta() == at.delta()) {
                    audit = Format.g(lb.epsilon());
                }
            }
            b.append("| ").append(Format.g(at.delta())).append(" | ").append(audit).append(" | ")
                    .append(interval(at.lower(), at.upper())).append(" |\n");
        }
        List<EstimateTables.Row> rows = EstimateTables.tightness(r);
        if (!rows.isEmpty()) {
            b.append("\n### Tightness of each bound\n\n| bound | δ | bound's ε | true ε(δ) | verdict |\n"
                    + "|---|---|---|---|---|\n");
            for (EstimateTables.Row t : rows) {
                String kind = t.kind() == BoundKind.UPPER_BOUND ? "" : " (" + t.kind().description() + ")";
                String verdict = switch (t.verdict()) {
                    case "loose" -> "loose by ≥ " + Format.g(t.factor()) + "×";
                    case "violated" -> "**VIOLATED: below the true curve**";
                    case "below" -> "below the true curve";
                    case "above" -> "above the simulated pair's curve (a lower bound: wrong, or another pair)";
                    case "inconclusive" -> "inside an interval too wide to judge (inconclusive)";
                    case "above-lower-pair" -> "above the lower-bound pair's curve: not refuted, looseness not shown";
                    default -> "tight";
                };
                b.append("| `").append(t.bound()).append("`").append(kind).append(" | ").append(Format.g(t.delta()))
                        .append(" | ").append(Format.g(t.epsilon())).append(" | ")
                        .append(interval(t.lower(), t.upper())).append(" | ").append(verdict).append(" |\n");
            }
        }
    }

    private static String interval(double lower, double upper) {
        return "[" + Format.g(lower) + ", " + (Double.isFinite(upper) ? Format.g(upper) : "∞") + "]";
    }

    private static void looseness(StringBuilder b, Looseness l) {
        b.append("\n## How loose, against `").append(l.reference()).append("`\n\n");
        b.append("Each bound's ε divided by the exact ε of the simulated pair at the same δ: above 1 the bound is "
                + "loose by that factor; below 1 it is false on this pair, marked **(below the exact curve)** where it "
                + "lies below the curve's numerical bracket too. Within " + Format.g(Looseness.EQUAL_WITHIN)
                + " of 1 the two count as equal (they come from different numerical methods). An exact curve composed "
                + "over rounds or steps by an accountant is rounded up by its discretisation (T steps on a grid of "
                + "spacing h: at most T h in ε); a ratio below 1 but within that is marked (within the exact curve's "
                + "numerical error: its ε lies in [a, b]): the exact ε is proven to lie in [a, b], so the computation "
                + "cannot say whether the bound is below it. Where the accountant could not compute the exact curve "
                + "(\"not computed\"), nothing is compared.\n\n"
                + "| bound | δ | ε | ε / exact |\n|---|---|---|---|\n");
        for (Looseness.Row row : l.rows()) {
            b.append("| `").append(row.bound()).append("` | ").append(Format.g(row.delta())).append(" | ")
                    .append(Format.g(row.epsilon())).append(" | ").append(ratioCell(row.ratio(), row.belowExact(),
                    row.referenceEpsilonLowerEnd(), row.referenceEpsilon()))
                    .append(" |\n");
        }
        if (!l.claims().isEmpty()) {
            b.append("\n| claim | δ | claimed ε | exact ε | ε / exact |\n|---|---|---|---|---|\n");
            for (Looseness.ClaimRow c : l.claims()) {
                b.append("| ").append(cell(c.label())).append(" | ").append(Format.g(c.delta())).append(" | ")
                        .append(Format.g(c.epsilon())).append(" | ").append(exactCell(c.referenceEpsilon()))
                        .append(" | ").append(ratioCell(c.ratio(), c.belowExact(), c.referenceEpsilonLowerEnd(),
                                c.referenceEpsilon())).append(" |\n");
            }
        }
        if (!l.empirical().isEmpty()) {
            b.append("\n| δ | exact ε | audit's ε lower bound | share of exact |\n|---|---|---|---|\n");
            for (Looseness.Share s : l.empirical()) {
                b.append("| ").append(Format.g(s.delta())).append(" | ").append(exactCell(s.referenceEpsilon()))
                        .append(" | ").append(Format.g(s.epsilonLowerBound())).append(" | ")
                        .append(Double.isNaN(s.share()) ? "—" : Format.percent(s.share())).append(" |\n");
            }
        }
    }

    /** The exact curve's ε, or "not computed" where its accountant refused. */
    private static String exactCell(double exact) {
        return Double.isNaN(exact) ? "not computed" : Format.g(exact);
    }

    /**
     * A ratio to the exact curve, flagged below it (in bold) or within its numerical error; "—" where there is
     * nothing to compare.
     */
    private static String ratioCell(double ratio, boolean belowExact, double exactLow, double exact) {
        if (Double.isNaN(ratio)) {
            return "—";
        }
        String mark = Looseness.mark(ratio, belowExact, exactLow, exact);
        return Format.g(ratio) + (mark.isEmpty() ? "" : belowExact ? " **(" + mark + ")**" : " (" + mark + ")");
    }


    /** How a bound from coupled trials was certified, with the test's joint counts; empty for independent worlds. */
    private static String coupled(EpsilonLowerBound.Certification certification,
            EpsilonLowerBound.PairedCounts counts) {
        if (counts == null) {
            return "";
        }
        return String.format(java.util.Locale.ROOT, "; certified by the %s on coupled trials (in S: both worlds %d, "
                + "only the flagged one %d, only the other %d)", certification
                == EpsilonLowerBound.Certification.MARGINAL ? "two worlds' own Clopper–Pearson limits" : "paired bound",
                counts.both(), counts.flaggedOnly(), counts.otherOnly());
    }

    static String test(SelectedTest t) {
        return t.direction().describe() + ", t = " + Format.g(t.threshold()) + ": TP " + Format.count(t.truePositives())
                + (t.otherTrials() == t.trials() ? ", FP " + Format.count(t.falsePositives()) + " of "
                        + Format.count(t.trials()) : " of " + Format.count(t.trials()) + ", FP "
                        + Format.count(t.falsePositives()) + " of " + Format.count(t.otherTrials()))
                + "; TPR ≥ " + Format.g(t.truePositiveRateLower()) + ", FPR ≤ " + Format.g(t.falsePositiveRateUpper());
    }

    static String parameters(Map<String, Object> values) {
        StringBuilder b = new StringBuilder();
        for (Map.Entry<String, Object> e : values.entrySet()) {
            if (e.getKey().equals("type")) {
                continue;
            }
            b.append(b.length() > 0 ? ", " : "").append(e.getKey()).append(" = ")
                    .append(e.getValue() instanceof Double d ? Format.parameter(d) : String.valueOf(e.getValue()));
        }
        return b.toString();
    }

    private static String cell(String s) {
        return s.replace("|", "\\|").replace("\n", " ");
    }
}

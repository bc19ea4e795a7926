package io.dpaudit.reports.cli;

import io.dpaudit.core.audit.AuditResult;
import io.dpaudit.core.audit.ClaimEstimate;
import io.dpaudit.core.audit.ClaimResult;
import io.dpaudit.core.audit.EstimateVerdict;
import io.dpaudit.core.estimate.DeltaLowerBound;
import io.dpaudit.core.estimate.EpsilonLowerBound;
import io.dpaudit.core.estimate.profile.PrivacyLossEstimate;
import io.dpaudit.reports.report.AuditReport;
import io.dpaudit.runner.analysis.BoundCurve;
import io.dpaudit.reports.report.EstimateTables;
import io.dpaudit.runner.text.Format;
import io.dpaudit.reports.report.WorldTrials;
import io.dpaudit.reports.report.ClaimRows;
import io.dpaudit.runner.analysis.Looseness;
import java.util.List;
import java.util.Locale;

/** The summary printed on standard output after a run. */
final class SummaryTable {
    private SummaryTable() {
    }

    static String format(AuditReport r) {
        AuditResult res = r.result();
        StringBuilder b = new StringBuilder();
        b.append(String.format(Locale.ROOT, "%s %s: scenario %s%n", r.toolName(), r.toolVersion(),
                r.scenario().name()));
        b.append(String.format(Locale.ROOT, "  mechanism  %s (%s), %s simulator%n", r.mechanism().type(),
                paramText(r), r.simulator()));
        b.append(String.format(Locale.ROOT, "  attack     %s%n", res.attack()));
        b.append(String.format(Locale.ROOT, "  trials     %s, seed %d, %d thread(s), %.2f s, %s%n",
                WorldTrials.text(res), res.settings().seed(), res.settings().threads(),
                res.elapsedSeconds(), Format.perSecond(res.trialsPerSecond(), "trials")));
        if (res.sequential() != null) {
            io.dpaudit.core.audit.SequentialRun seq = res.sequential();
            b.append(String.format(Locale.ROOT, "  sequential stopped after look %d at %s of %s trials per world: %s%n",
                    seq.last().look(), Format.count(seq.last().trialsPerWorld()), Format.count(seq.maxTrials()),
                    seq.stop().description()));
        }
        b.append(String.format(Locale.ROOT, "Empirical lower bounds (%s confidence each%s):%n",
                Format.percent(res.settings().confidence()), res.sequential() != null ? ", the last look's" : ""));
        if (res.epsilonLowerBounds().isEmpty() && res.deltaLowerBounds().isEmpty()) {
            b.append("  none asked (deltas and epsilons are empty): each claim's evidence is below\n");
        }
        for (EpsilonLowerBound e : res.epsilonLowerBounds()) {
            b.append(String.format(Locale.ROOT, "  at delta = %-10s epsilon >= %s%n", Format.g(e.delta()),
                    Format.g(e.epsilon())));
        }
        for (DeltaLowerBound d : res.deltaLowerBounds()) {
            b.append(String.format(Locale.ROOT, "  at epsilon = %-8s delta >= %s%n", Format.g(d.epsilon()),
                    Format.g(d.delta())));
        }
        if (!r.bounds().isEmpty()) {
            b.append("Analytic bounds:\n");
            for (BoundCurve c : r.bounds()) {
                StringBuilder at = new StringBuilder();
                for (BoundCurve.Point p : c.epsilonAtDeltas()) {
                    at.append(String.format(Locale.ROOT, "  epsilon = %s at delta = %s", Format.epsilonAt(p.epsilon()),
                            Format.g(p.delta())));
                }
                if (at.length() == 0) { // "deltas": [] asks for no δ; the curve is still in the reports
                    at.append("  (no delta asked: its curve is in curves.csv)");
                }
                b.append(String.format(Locale.ROOT, "  %-48s%s%s%n", c.name(), at, c.kindLabel()));
            }
        }
        if (res.estimate() != null) {
            boolean below = EstimateTables.pairFromBelow(r);
            b.append(String.format(Locale.ROOT, "Two-sided estimate of the %s (%s%s simultaneous, %s):%n",
                    below ? "lower-bound pair's curve" : "true curve", below ? "a lower bound on the mechanism's; "
                    : "", Format.percent(res.estimate().confidence()), res.estimate().method()));
            for (PrivacyLossEstimate.EpsilonInterval e : EstimateTables.epsilonAtDeltas(r)) {
                b.append(String.format(Locale.ROOT, "  at delta = %-10s epsilon in [%s, %s]%n", Format.g(e.delta()),
                        Format.g(e.lower()), Double.isFinite(e.upper()) ? Format.g(e.upper()) : "inf"));
            }
            for (ClaimResult c : res.claims()) {
                ClaimEstimate ce = c.estimate();
                b.append(String.format(Locale.ROOT, "  %-9s claim %s needs epsilon in [%s, %s] at its delta%s%n",
                        ce.verdict().label().toUpperCase(Locale.ROOT), c.claim().label(),
                        Format.g(ce.requiredEpsilon().lower()), Double.isFinite(ce.requiredEpsilon().upper())
                                ? Format.g(ce.requiredEpsilon().upper()) : "inf",
                        ce.verdict() == EstimateVerdict.LOOSE ? String.format(Locale.ROOT,
                                " (claimed epsilon >= %sx that)", Format.g(ce.loosenessFactor(c.claim()))) : ""));
            }
        }
        b.append(String.format(Locale.ROOT, "Trade-off curve: certified mu >= %s (GDP lower bound), %d certified "
                + "points%n", Format.g(res.tradeOff().gdpMuLowerBound()), res.tradeOff().points().size()));
        scoreMetrics(b, r);
        claims(b, r);
        return b.toString();
    }

    /**
     * A score audit's membership-inference view: the AUROC and the TPR at FPR 1e-3, 1e-2 and 1e-1 (and any other
     * target the report has), each with its interval (all together at the stated confidence).
     */
    private static void scoreMetrics(StringBuilder b, AuditReport r) {
        io.dpaudit.core.estimate.ScoreMetrics.Result m = r.scoreMetrics();
        if (m == null) {
            return;
        }
        b.append(String.format(Locale.ROOT, "Membership inference (%s confidence, thresholds chosen on the range part, "
                + "rates certified on the evaluation part):%n", Format.percent(m.confidence())));
        b.append(String.format(Locale.ROOT, "  AUROC            %s in [%s, %s]%n", Format.g(m.auroc().estimate()),
                Format.g(m.auroc().lower()), Format.g(m.auroc().upper())));
        for (io.dpaudit.core.estimate.ScoreMetrics.TprAtFpr t : m.tprAtFpr()) {
            b.append(String.format(Locale.ROOT, "  TPR at FPR %-7s%s in [%s, %s] (its FPR %s in [%s, %s])%n",
                    new java.math.BigDecimal(Double.toString(t.targetFpr())).stripTrailingZeros().toPlainString(),
                    Format.g(t.tpr()), Format.g(t.tprLower()), Format.g(t.tprUpper()),
                    Format.g(t.fpr()), Format.g(t.fprLower()), Format.g(t.fprUpper())));
        }
    }

    /**
     * The claims, (ε, δ) and f-DP together, last so that they are what stays on screen: one block per claim (its
     * label whole, then verdict, evidence and what the audit could have detected), then the summary line.
     */
    private static void claims(StringBuilder b, AuditReport r) {
        List<ClaimRows.Row> rows = ClaimRows.of(r);
        if (rows.isEmpty()) {
            return;
        }
        b.append(String.format(Locale.ROOT, "Claims (%s):%n", ClaimRows.confidenceText(r.result())));
        for (ClaimRows.Row row : rows) {
            b.append(String.format(Locale.ROOT, "  %-12s %s [%s: %s]%s%n", row.verdict().label().toUpperCase(
                    Locale.ROOT), row.label(), row.kind(), row.claimed(), row.decidedBy().isEmpty() ? ""
                            : " (" + (row.verdict() == io.dpaudit.core.audit.Verdict.VIOLATED ? "refuted" : "powered")
                                    + " by " + row.decidedBy() + " evidence)"));
            b.append(String.format(Locale.ROOT, "  %-12s evidence: %s%n", "", row.evidence()));
            b.append(String.format(Locale.ROOT, "  %-12s would detect (90%%): %s%s%n", "", row.detectable(),
                    row.tightness().isEmpty() ? "" : "; tightness " + row.tightness()));
            if (row.epsilonBoundAboveClaim()) {
                b.append(String.format(Locale.ROOT, "  %-12s contested: the ε lower bound at its δ (a separate "
                        + "statement at the same confidence) exceeds the claimed ε; audit it again on fresh trials%n",
                        ""));
            }
        }
        b.append(ClaimRows.summary(r)).append('\n');
        String estimate = ClaimRows.estimateSentence(r.result(), EstimateTables.pairFromBelow(r));
        if (!estimate.isEmpty()) {
            b.append(estimate).append('\n');
        }
        String below = Looseness.claimsBelow(r.looseness(), false);
        if (!below.isEmpty()) {
            b.append(below).append('\n');
        }
    }

    private static String paramText(AuditReport r) {
        StringBuilder b = new StringBuilder();
        r.mechanism().parameters().values().forEach((k, v) -> {
            if (!k.equals("type")) {
                b.append(b.length() > 0 ? ", " : "").append(k).append('=')
                        .append(v instanceof Double d ? Format.parameter(d) : v);
            }
        });
        return b.toString();
    }
}

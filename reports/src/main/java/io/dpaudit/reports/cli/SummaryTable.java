package io.dpaudit.reports.cli;

import io.dpaudit.core.audit.AuditResult;
import io.dpaudit.core.audit.ClaimEstimate;
import io.dpaudit.core.audit.ClaimResult;
import io.dpaudit.core.audit.EstimateVerdict;
import io.dpaudit.core.audit.TradeOffClaimResult;
import io.dpaudit.core.estimate.DeltaLowerBound;
import io.dpaudit.core.estimate.EpsilonLowerBound;
import io.dpaudit.core.estimate.PrivacyLossEstimate;
import io.dpaudit.reports.report.AuditReport;
import io.dpaudit.reports.report.BoundCurve;
import io.dpaudit.reports.report.EstimateTables;
import io.dpaudit.reports.report.Format;
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
        b.append(String.format(Locale.ROOT, "  trials     %s per world, seed %d, %d thread(s), %.2f s, %s%n",
                Format.count(res.settings().trialsPerWorld()), res.settings().seed(), res.settings().threads(),
                res.elapsedSeconds(), Format.perSecond(res.trialsPerSecond())));
        b.append(String.format(Locale.ROOT, "Empirical lower bounds (%s confidence each):%n",
                Format.percent(res.settings().confidence())));
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
                    at.append(String.format(Locale.ROOT, "  epsilon = %s at delta = %s", Format.g(p.epsilon()),
                            Format.g(p.delta())));
                }
                b.append(String.format(Locale.ROOT, "  %-48s%s%s%n", c.name(), at, c.kindLabel()));
            }
        }
        if (!res.claims().isEmpty()) {
            b.append(String.format(Locale.ROOT, "Claims:%n  %-40s %-10s %-10s %-11s %-12s %-12s %s%n", "claim",
                    "epsilon", "delta", "verdict", "delta_lb", "epsilon_lb", "tightness"));
            for (ClaimResult c : res.claims()) {
                b.append(String.format(Locale.ROOT, "  %-40s %-10s %-10s %-11s %-12s %-12s %s%n",
                        truncate(c.claim().label(), 40), Format.g(c.claim().epsilon()), Format.g(c.claim().delta()),
                        c.verdict().label().toUpperCase(Locale.ROOT), Format.g(c.deltaLowerBound().delta()),
                        Format.g(c.epsilonLowerBound().epsilon()), Format.g(c.tightness())));
            }
        }
        if (res.estimate() != null) {
            b.append(String.format(Locale.ROOT, "Two-sided estimate of the true curve (%s simultaneous, %s):%n",
                    Format.percent(res.estimate().confidence()), res.estimate().method()));
            for (PrivacyLossEstimate.EpsilonInterval e : EstimateTables.epsilonAtDeltas(r)) {
                b.append(String.format(Locale.ROOT, "  at delta = %-10s epsilon in [%s, %s]%n", Format.g(e.delta()),
                        Format.g(e.lower()), Double.isFinite(e.upper()) ? Format.g(e.upper()) : "inf"));
            }
            for (ClaimResult c : res.claims()) {
                ClaimEstimate ce = c.estimate();
                b.append(String.format(Locale.ROOT, "  claim %-40s %-9s needs epsilon in [%s, %s] at its delta%s%n",
                        truncate(c.claim().label(), 40), ce.verdict().label().toUpperCase(Locale.ROOT),
                        Format.g(ce.requiredEpsilon().lower()), Double.isFinite(ce.requiredEpsilon().upper())
                                ? Format.g(ce.requiredEpsilon().upper()) : "inf",
                        ce.verdict() == EstimateVerdict.LOOSE ? String.format(Locale.ROOT,
                                " (claimed epsilon >= %sx that)", Format.g(ce.loosenessFactor(c.claim()))) : ""));
            }
        }
        b.append(String.format(Locale.ROOT, "Trade-off curve: certified mu >= %s (GDP lower bound), %d certified "
                + "points%n", Format.g(res.tradeOff().gdpMuLowerBound()), res.tradeOff().points().size()));
        if (!res.tradeOffClaims().isEmpty()) {
            b.append(String.format(Locale.ROOT, "f-DP claims:%n  %-40s %-11s %-12s %s%n", "claim", "verdict", "mu_lb",
                    "refuting point (alpha, beta) against f"));
            for (TradeOffClaimResult c : res.tradeOffClaims()) {
                String at = "";
                if (c.refutation() != null) {
                    var p = c.refutation().point();
                    boolean rev = c.refutation().reversePair();
                    double x = rev ? p.beta() : p.alpha();
                    at = String.format(Locale.ROOT, "(%s, %s) against %s", Format.g(x), Format.g(rev ? p.alpha()
                            : p.beta()), Format.g(c.claim().f().beta(x)));
                }
                b.append(String.format(Locale.ROOT, "  %-40s %-11s %-12s %s%n", truncate(c.claim().label(), 40),
                        c.verdict().label().toUpperCase(Locale.ROOT), Format.g(c.gdpMuLowerBound()), at));
            }
        }
        return b.toString();
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

    private static String truncate(String s, int n) {
        return s.length() <= n ? s : s.substring(0, n - 1) + "…";
    }
}

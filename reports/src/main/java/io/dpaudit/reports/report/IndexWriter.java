package io.dpaudit.reports.report;

import io.dpaudit.runner.analysis.Looseness;
import io.dpaudit.core.audit.ClaimResult;
import io.dpaudit.core.audit.TradeOffClaimResult;
import io.dpaudit.core.audit.Verdict;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.util.List;
import io.dpaudit.runner.json.JsonNumbers;

/**
 * Writes {@code index.md}, {@code index.html}, {@code index.csv} and {@code index.json} for a run over several
 * scenarios: one row per claim ((ε, δ) and f-DP together: scenario, claim, kind, verdict, the certifying evidence,
 * what the audit could have detected, tightness, the estimate's verdict when there is one, and a link to the
 * scenario's report), and a row for a scenario without claims.
 */
public final class IndexWriter {
    private IndexWriter() {
    }

    /**
     * One audited scenario.
     *
     * @param file the scenario file as given
     * @param folder the report folder, relative to the index
     * @param report the report
     */
    public record Entry(String file, String folder, AuditReport report) {
    }

    /** Claims violated over all entries. */
    public static int violated(List<Entry> entries) {
        int v = 0;
        for (Entry e : entries) {
            v += (int) e.report().result().claims().stream().filter(c -> c.verdict() == Verdict.VIOLATED).count();
            v += (int) e.report().result().tradeOffClaims().stream().filter(c -> c.verdict() == Verdict.VIOLATED)
                    .count();
        }
        return v;
    }

    /** Claims over all entries. */
    public static int claims(List<Entry> entries) {
        int n = 0;
        for (Entry e : entries) {
            n += e.report().result().claims().size() + e.report().result().tradeOffClaims().size();
        }
        return n;
    }

    /** What the index's verdicts mean (below its table, in Markdown). */
    private static final String LEGEND = "Verdicts as in each report: *violated* is evidence at its report's "
                + "confidence (over many claims "
                + "some false alarms are to be expected at that rate), from the attack's certified bounds (black-box) "
                + "or the exact-likelihood-ratio estimate (white-box), as the verdict says; *consistent* means the "
                + "audit would have refuted, with probability at least 90%, a Laplace or Gaussian mechanism with 1.5 "
                + "times the claimed ε at its δ (\"would detect\"), or the white-box estimate proves the pair needs at "
                + "most that; *inconclusive* means neither; *contested* means no source refuted the claim but the ε "
                + "lower bound at its δ, a separate statement at the same confidence, exceeds the claimed ε (such a "
                + "claim is inconclusive; audit it again on fresh trials). "
                + "Tightness: the empirical ε lower bound divided by the claimed ε (for a GDP claim, μ_lb/μ). The "
                + "same table is in index.csv and index.json.";

    /** The index as Markdown. */
    public static String markdown(List<Entry> entries) {
        StringBuilder b = new StringBuilder("# dp-audit index\n\n");
        b.append("**").append(summary(entries)).append("**\n\n");
        boolean estimates = entries.stream().anyMatch(e -> e.report().result().estimate() != null);
        b.append("| scenario | claim | kind | claimed | verdict | evidence (certified) | would detect (90%) | "
                + "tightness |").append(estimates ? " estimate |" : "").append(" report |\n|---|---|---|---|---|---|---|"
                + "--:|").append(estimates ? "---|" : "").append("---|\n");
        for (Entry e : entries) {
            String name = cell(e.report().scenario().name());
            String link = "[" + e.folder() + "](" + e.folder().replace(" ", "%20") + "/report.html)";
            var res = e.report().result();
            List<ClaimRows.Row> rows = ClaimRows.of(e.report());
            if (rows.isEmpty()) {
                b.append("| ").append(name).append(" | (no claims) |  |  |  |  |  |  |").append(estimates ? "  |" : "")
                        .append(" ").append(link).append(" |\n");
            }
            for (int i = 0; i < rows.size(); i++) {
                ClaimRows.Row row = rows.get(i);
                String estimate = "";
                if (estimates && i < res.claims().size() && res.claims().get(i).estimate() != null) {
                    estimate = res.claims().get(i).estimate().verdict().label();
                }
                b.append("| ").append(name).append(" | ").append(cell(row.label())).append(" | ").append(row.kind())
                        .append(" | ").append(cell(row.claimed())).append(" | ").append(verdict(row))
                        .append(" | ").append(cell(row.evidence())).append(" | ").append(cell(row.detectable()))
                        .append(" | ").append(row.tightness()).append(" |").append(estimates ? " " + estimate + " |"
                                : "").append(" ").append(link).append(" |\n");
            }
        }
        b.append("\n").append(LEGEND).append("\n");
        return b.toString();
    }

    /** The index as CSV: one row per claim, RFC 4180 quoting, numbers as in report.json. */
    public static String csv(List<Entry> entries) {
        StringBuilder b = new StringBuilder("scenario,folder,claim,kind,epsilon,delta,gdpMu,verdict,"
                + "empiricalDeltaLowerBound,empiricalEpsilonLowerBound,gdpMuLowerBound,powerDelta,powerMu,tightness,"
                + "estimateVerdict,epsilonBoundAboveClaim,exactEpsilon,ratioToExact,trialsFactorToResolve,powerEpsilon,"
                + "decidedBy\n");
        for (Entry e : entries) {
            for (ObjectNode row : jsonRows(e)) {
                b.append(csvCell(row.path("scenario").asText())).append(',').append(csvCell(e.folder())).append(',')
                        .append(csvCell(row.path("claim").asText())).append(',').append(row.path("kind").asText());
                for (String f : new String[] {"epsilon", "delta", "gdpMu", "verdict", "empiricalDeltaLowerBound",
                    "empiricalEpsilonLowerBound", "gdpMuLowerBound", "powerDelta", "powerMu", "tightness",
                    "estimateVerdict", "epsilonBoundAboveClaim", "exactEpsilon", "ratioToExact",
                    "trialsFactorToResolve", "powerEpsilon", "decidedBy"}) {
                    JsonNode v = row.get(f);
                    b.append(',').append(v == null || v.isNull() ? "" : v.isTextual() ? csvCell(v.asText())
                            : v.toString());
                }
                b.append('\n');
            }
        }
        return b.toString();
    }

    /** The index as JSON: {@code {scenarios, claims, violated, inconclusive, consistent, rows: [...]}}. */
    public static String json(List<Entry> entries) {
        ObjectNode root = JsonNodeFactory.instance.objectNode();
        root.put("scenarios", entries.size());
        root.put("claims", claims(entries));
        root.put("violated", count(entries, Verdict.VIOLATED));
        root.put("inconclusive", count(entries, Verdict.INCONCLUSIVE));
        root.put("consistent", count(entries, Verdict.CONSISTENT));
        ArrayNode rows = root.putArray("rows");
        for (Entry e : entries) {
            for (ObjectNode row : jsonRows(e)) {
                row.put("folder", e.folder());
                row.put("file", e.file());
                row.put("report", e.folder() + "/report.json");
                rows.add(row);
            }
        }
        try {
            return new ObjectMapper().writerWithDefaultPrettyPrinter().writeValueAsString(root) + "\n";
        } catch (com.fasterxml.jackson.core.JsonProcessingException ex) {
            throw new IllegalStateException(ex);
        }
    }

    private static List<ObjectNode> jsonRows(Entry e) {
        List<ObjectNode> out = new java.util.ArrayList<>();
        var res = e.report().result();
        String name = e.report().scenario().name();
        Looseness looseness = e.report().looseness();
        for (int i = 0; i < res.claims().size(); i++) {
            ClaimResult c = res.claims().get(i);
            ObjectNode o = JsonNodeFactory.instance.objectNode();
            o.put("scenario", name);
            o.put("claim", c.claim().label());
            o.put("kind", "epsilon-delta");
            o.set("epsilon", JsonNumbers.encode(c.claim().epsilon()));
            o.set("delta", JsonNumbers.encode(c.claim().delta()));
            o.putNull("gdpMu");
            o.put("verdict", c.verdict().label());
            o.set("empiricalDeltaLowerBound", JsonNumbers.encode(c.deltaLowerBound().delta()));
            o.set("empiricalEpsilonLowerBound", JsonNumbers.encode(c.epsilonLowerBound().epsilon()));
            o.putNull("gdpMuLowerBound");
            o.set("powerDelta", JsonNumbers.encode(c.power().delta()));
            o.putNull("powerMu");
            o.set("powerEpsilon", JsonNumbers.encode(c.power().epsilon()));
            o.put("decidedBy", ClaimRows.sources(c.decidedBy()));
            o.set("tightness", JsonNumbers.encode(c.tightness()));
            if (c.estimate() != null) {
                o.put("estimateVerdict", c.estimate().verdict().label());
            } else {
                o.putNull("estimateVerdict");
            }
            o.put("epsilonBoundAboveClaim", c.epsilonBoundAboveClaim());
            if (looseness != null && i < looseness.claims().size()) {
                o.set("exactEpsilon", JsonNumbers.encode(looseness.claims().get(i).referenceEpsilon()));
                o.set("ratioToExact", JsonNumbers.encode(looseness.claims().get(i).ratio()));
            } else {
                o.putNull("exactEpsilon");
                o.putNull("ratioToExact");
            }
            long factor = c.power().trialsFactorToResolve();
            if (factor >= 0) { // inconclusive claims only
                o.put("trialsFactorToResolve", factor);
            } else {
                o.putNull("trialsFactorToResolve");
            }
            out.add(o);
        }
        for (TradeOffClaimResult c : res.tradeOffClaims()) {
            boolean gdp = !Double.isNaN(c.claim().gdpMu());
            ObjectNode o = JsonNodeFactory.instance.objectNode();
            o.put("scenario", name);
            o.put("claim", c.claim().label());
            o.put("kind", gdp ? "gdp" : "trade-off");
            o.putNull("epsilon");
            o.putNull("delta");
            o.set("gdpMu", gdp ? JsonNumbers.encode(c.claim().gdpMu()) : null);
            o.put("verdict", c.verdict().label());
            o.putNull("empiricalDeltaLowerBound");
            o.putNull("empiricalEpsilonLowerBound");
            o.set("gdpMuLowerBound", JsonNumbers.encode(c.gdpMuLowerBound()));
            o.putNull("powerDelta");
            o.set("powerMu", JsonNumbers.encode(c.power().mu()));
            o.putNull("powerEpsilon");
            o.put("decidedBy", c.verdict() == Verdict.INCONCLUSIVE ? "" : "black-box");
            o.set("tightness", gdp ? JsonNumbers.encode(c.tightness()) : null);
            o.putNull("estimateVerdict");
            o.put("epsilonBoundAboveClaim", false);
            o.putNull("exactEpsilon");
            o.putNull("ratioToExact");
            o.putNull("trialsFactorToResolve");
            out.add(o);
        }
        return out;
    }

    private static String csvCell(String s) {
        return s.contains(",") || s.contains("\"") || s.contains("\n") ? "\"" + s.replace("\"", "\"\"") + "\"" : s;
    }

    /**
     * The index as one self-contained HTML page: the banner, then one table of every claim with its verdict first and
     * its row coloured by it, the violated claims first, then the contested and inconclusive, then the consistent (each
     * group in the scenarios' order); the legend below.
     */
    public static String html(List<Entry> entries) {
        int v = violated(entries);
        String css = claims(entries) == 0 ? "none" : v > 0 ? "violated"
                : count(entries, Verdict.INCONCLUSIVE) > 0 ? "inconclusive" : "consistent";
        StringBuilder t = new StringBuilder("<table class=\"claims\">\n<thead><tr><th>verdict</th><th>scenario</th>"
                + "<th>claim</th><th>claimed</th><th>evidence (certified)</th><th>would detect (90%)</th>"
                + "<th class=\"num\">tightness</th><th>report</th></tr></thead>\n<tbody>\n");
        for (int group = 0; group < 3; group++) {
            for (Entry e : entries) {
                String name = HtmlReportWriter.escape(e.report().scenario().name());
                String link = "<a href=\"" + HtmlReportWriter.escape(e.folder().replace(" ", "%20"))
                        + "/report.html\">" + HtmlReportWriter.escape(e.folder()) + "</a>";
                List<ClaimRows.Row> rows = ClaimRows.of(e.report());
                if (rows.isEmpty() && group == 2) {
                    t.append("<tr><td>no claims</td><td>").append(name).append("</td><td></td><td></td><td></td>"
                            + "<td></td><td></td><td>").append(link).append("</td></tr>\n");
                }
                for (ClaimRows.Row row : rows) {
                    boolean contested = row.verdict() != Verdict.VIOLATED && row.epsilonBoundAboveClaim();
                    int rank = row.verdict() == Verdict.VIOLATED ? 0 : contested || row.verdict()
                            == Verdict.INCONCLUSIVE ? 1 : 2;
                    if (rank != group) {
                        continue;
                    }
                    t.append("<tr class=\"").append(contested ? "contested" : row.verdict().label())
                            .append("\"><td><strong>").append(HtmlReportWriter.escape(row.verdictText()))
                            .append("</strong></td><td>").append(name).append("</td><td>")
                            .append(HtmlReportWriter.escape(row.label())).append("</td><td>")
                            .append(HtmlReportWriter.escape(row.claimed())).append("</td><td>")
                            .append(HtmlReportWriter.escape(row.evidence())).append("</td><td>")
                            .append(HtmlReportWriter.escape(row.detectable())).append("</td><td class=\"num\">")
                            .append(HtmlReportWriter.escape(row.tightness())).append("</td><td>").append(link)
                            .append("</td></tr>\n");
                }
            }
        }
        t.append("</tbody>\n</table>\n");
        return HtmlReportWriter.page("dp-audit index", "<div class=\"banner " + css + "\" id=\"verdict\">"
                + HtmlReportWriter.escape(summary(entries)) + "</div>\n<h1>dp-audit index</h1>\n" + t,
                LEGEND);
    }

    /** Claims with verdict {@code v} over all entries. */
    public static int count(List<Entry> entries, Verdict v) {
        int n = 0;
        for (Entry e : entries) {
            n += ClaimRows.count(ClaimRows.of(e.report()), v);
        }
        return n;
    }

    /**
     * One line: scenarios, claims, and how many are violated (named), inconclusive and consistent, and the contested
     * ones among those not violated (named).
     */
    public static String summary(List<Entry> entries) {
        int v = violated(entries);
        int n = claims(entries);
        StringBuilder b = new StringBuilder();
        if (v > 0) { // the violated claims' names come first: nothing a reader sees first can pass for a pass
            b.append("VIOLATED: ");
            boolean first = true;
            for (Entry e : entries) {
                for (ClaimRows.Row r : ClaimRows.of(e.report())) {
                    if (r.verdict() == Verdict.VIOLATED) {
                        b.append(first ? "" : "; ").append(e.report().scenario().name()).append(": ").append(r.label());
                        if (!r.decidedBy().isEmpty()) {
                            b.append(" (").append(r.decidedBy()).append(")");
                        }
                        first = false;
                    }
                }
            }
            b.append(". ");
        }
        b.append(entries.size()).append(" scenario").append(entries.size() == 1 ? "" : "s").append(", ").append(n)
                .append(" claim").append(n == 1 ? "" : "s").append(": ");
        b.append(v > 0 ? v + " violated" : "none violated");
        b.append(", ").append(count(entries, Verdict.INCONCLUSIVE)).append(" inconclusive, ")
                .append(count(entries, Verdict.CONSISTENT)).append(" consistent");
        int contested = 0;
        StringBuilder named = new StringBuilder();
        for (Entry e : entries) {
            for (ClaimRows.Row r : ClaimRows.of(e.report())) {
                if (r.epsilonBoundAboveClaim()) {
                    named.append(contested == 0 ? "" : "; ").append(e.report().scenario().name()).append(": ")
                            .append(r.label());
                    contested++;
                }
            }
        }
        if (contested > 0) {
            b.append("; ").append(contested).append(" of them contested, the ε lower bound above the claimed ε (")
                    .append(named).append(')');
        }
        int belowExact = 0;
        StringBuilder belowNamed = new StringBuilder();
        for (Entry e : entries) {
            Looseness l = e.report().looseness();
            if (l == null) {
                continue;
            }
            for (Looseness.ClaimRow c : l.claims()) {
                if (c.belowExact() && c.ratio() <= Looseness.CLEARLY_BELOW) {
                    belowNamed.append(belowExact == 0 ? "" : "; ").append(e.report().scenario().name()).append(": ")
                            .append(c.label());
                    belowExact++;
                }
            }
        }
        if (belowExact > 0) {
            b.append("; ").append(belowExact).append(" more than 10% below the exact curve of their simulated pair, "
                    + "false on it whatever the verdict (").append(belowNamed).append(')');
        }
        return b.toString();
    }

    private static String verdict(ClaimRows.Row row) {
        return row.verdict() == Verdict.VIOLATED ? "**" + cell(row.verdictText()) + "**" : cell(row.verdictText());
    }

    private static String cell(String s) {
        return s.replace("|", "\\|").replace("\n", " ");
    }
}

package io.dpaudit.reports.report;

import io.dpaudit.core.audit.ClaimResult;
import io.dpaudit.core.audit.TradeOffClaimResult;
import io.dpaudit.core.audit.Verdict;
import java.util.List;

/**
 * Writes {@code index.md} and {@code index.html} for a run over several scenarios: one row per claim (scenario,
 * claim, verdict, tightness, the estimate's verdict when there is one, and a link to the scenario's report), and a
 * row for a scenario without claims.
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

    /** The index as Markdown. */
    public static String markdown(List<Entry> entries) {
        StringBuilder b = new StringBuilder("# dp-audit index\n\n");
        b.append(summary(entries)).append("\n\n");
        boolean estimates = entries.stream().anyMatch(e -> e.report().result().estimate() != null);
        b.append("| scenario | claim | ε | δ | verdict | tightness |").append(estimates ? " estimate |" : "")
                .append(" report |\n|---|---|---|---|---|---|").append(estimates ? "---|" : "").append("---|\n");
        String gap = estimates ? "  |" : "";
        for (Entry e : entries) {
            String name = cell(e.report().scenario().name());
            String link = "[" + e.folder() + "](" + e.folder().replace(" ", "%20") + "/report.html)";
            var res = e.report().result();
            if (res.claims().isEmpty() && res.tradeOffClaims().isEmpty()) {
                b.append("| ").append(name).append(" | (no claims) |  |  |  |  |").append(gap).append(" ")
                        .append(link).append(" |\n");
            }
            for (ClaimResult c : res.claims()) {
                b.append("| ").append(name).append(" | ").append(cell(c.claim().label())).append(" | ")
                        .append(Format.g(c.claim().epsilon())).append(" | ").append(Format.g(c.claim().delta()))
                        .append(" | ").append(verdict(c.verdict())).append(" | ").append(Format.g(c.tightness()))
                        .append(" |").append(estimates ? " " + (c.estimate() == null ? ""
                                : c.estimate().verdict().label()) + " |" : "").append(" ").append(link)
                        .append(" |\n");
            }
            for (TradeOffClaimResult c : res.tradeOffClaims()) {
                b.append("| ").append(name).append(" | ").append(cell(c.claim().label())).append(" (f-DP) |  |  | ")
                        .append(verdict(c.verdict())).append(" | ").append(Format.g(c.tightness())).append(" |")
                        .append(gap).append(" ").append(link).append(" |\n");
            }
        }
        b.append("\nTightness: the empirical ε lower bound divided by the claimed ε (for a GDP claim, μ_lb/μ). Each "
                + "verdict is at its report's confidence; over many claims some false alarms are to be expected at "
                + "that rate.\n");
        return b.toString();
    }

    /** The index as one self-contained HTML page with a banner. */
    public static String html(List<Entry> entries) {
        int v = violated(entries);
        String css = claims(entries) == 0 ? "none" : v > 0 ? "violated" : "consistent";
        return HtmlReportWriter.page("dp-audit index", "<div class=\"banner " + css + "\" id=\"verdict\">"
                + HtmlReportWriter.escape(summary(entries)) + "</div>\n", markdown(entries));
    }

    private static String summary(List<Entry> entries) {
        int v = violated(entries);
        int n = claims(entries);
        return entries.size() + " scenario" + (entries.size() == 1 ? "" : "s") + ", " + n + " claim"
                + (n == 1 ? "" : "s") + ": " + (v > 0 ? v + " VIOLATED" : "none violated");
    }

    private static String verdict(Verdict v) {
        return v == Verdict.VIOLATED ? "**violated**" : v.label();
    }

    private static String cell(String s) {
        return s.replace("|", "\\|").replace("\n", " ");
    }
}

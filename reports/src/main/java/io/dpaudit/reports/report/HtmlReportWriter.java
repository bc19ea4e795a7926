package io.dpaudit.reports.report;

import io.dpaudit.runner.text.Format;
import io.dpaudit.runner.analysis.Looseness;
import io.dpaudit.core.audit.Verdict;
import java.util.List;
import org.commonmark.Extension;
import org.commonmark.ext.gfm.tables.TablesExtension;
import org.commonmark.parser.Parser;
import org.commonmark.renderer.html.HtmlRenderer;

/**
 * Writes {@code report.html}, one self-contained page (no external resources): a verdict banner first, then the
 * Markdown report rendered to HTML (its tables as tables) with the two plots after the claims.
 *
 * <p>The Markdown is rendered by commonmark-java with its GFM tables extension rather than by hand: the report's
 * tables, emphasis and code spans then read exactly as in {@code report.md}, and raw HTML in user text (a
 * scenario's description) is escaped, not passed through.
 */
public final class HtmlReportWriter {
    private static final List<Extension> EXTENSIONS = List.of(TablesExtension.create());
    private static final Parser PARSER = Parser.builder().extensions(EXTENSIONS).build();
    private static final HtmlRenderer RENDERER = HtmlRenderer.builder().extensions(EXTENSIONS).escapeHtml(true)
            .build();
    private static final String STYLE = "body{font-family:sans-serif;max-width:1100px;margin:2em auto;padding:0 1em;"
            + "line-height:1.4}table{border-collapse:collapse;margin:0.5em 0 1em;font-size:0.92em}"
            + "th,td{border:1px solid #ccc;padding:0.25em 0.5em;text-align:left;vertical-align:top}"
            + "th{background:#f0f0f0}code{background:#f4f4f4;padding:0 0.2em}"
            + ".banner{padding:0.8em 1em;border-radius:6px;font-size:1.25em;font-weight:bold;margin:1em 0}"
            + ".banner.violated{background:#fde2e1;color:#8a1010;border:2px solid #c62828}"
            + ".banner.consistent{background:#e3f4e4;color:#1b5e20;border:2px solid #2e7d32}"
            + ".banner.none{background:#eef1f5;color:#263238;border:2px solid #90a4ae}"
            + ".banner.inconclusive{background:#fff4d6;color:#6d4c00;border:2px solid #c99700}"
            + "table.claims tr.violated td{background:#fde2e1}table.claims tr.consistent td{background:#e9f6ea}"
            + "table.claims tr.inconclusive td,table.claims tr.contested td{background:#fff4d6}"
            + "td.num,th.num{text-align:right}"
            + "td[style*=right],th[style*=right]{font-variant-numeric:tabular-nums}"
            + "figure{margin:1em 0}svg{max-width:100%;height:auto}";

    private HtmlReportWriter() {
    }

    /** The report as an HTML page. */
    public static String write(AuditReport r) {
        String details = MarkdownReportWriter.details(r);
        String confidence = Format.percent(r.result().settings().confidence());
        StringBuilder b = new StringBuilder();
        b.append("<!DOCTYPE html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\">\n")
                .append("<meta name=\"viewport\" content=\"width=device-width, initial-scale=1\">\n<title>dp-audit: ")
                .append(escape(r.scenario().name())).append("</title>\n<style>").append(STYLE)
                .append("</style>\n</head>\n<body>\n");
        b.append(banner(r, confidence));
        b.append(render(MarkdownReportWriter.title(r)));
        b.append(claims(r));
        b.append(render(SequentialSection.markdown(r)));
        b.append(render(MarkdownReportWriter.setUp(r)));
        b.append("<figure>\n").append(SvgPlot.render(r))
                .append("<figcaption>δ against ε: analytic bounds (curves), empirical lower bounds at ")
                .append(confidence).append(" confidence each (triangles), claims (circles).")
                .append(SvgPlot.flatCurves(r).isEmpty() ? "" : " Not drawn, because they are δ = 1 over the whole "
                        + "range (they certify nothing there): " + escape(String.join(", ", SvgPlot.flatCurves(r)))
                        + ".")
                .append(SvgPlot.zeroDelta(r).isEmpty() ? "" : " " + escape(SvgPlot.zeroDelta(r)))
                .append(" The data of both plots is in curves.csv and tradeoff.csv next to this file.</figcaption>\n")
                .append("</figure>\n<figure>\n").append(TradeOffPlot.render(r))
                .append("<figcaption>The trade-off plane: certified points hold simultaneously at ").append(confidence)
                .append("; the true curve T(M(D), M(D')) lies on or below each of them.</figcaption>\n</figure>\n");
        String corner = TradeOffPlot.renderCorner(r);
        if (!corner.isEmpty()) {
            b.append("<figure>\n").append(corner).append("<figcaption>The same on log axes, α across and the power "
                    + "1 − β up: the corner of small α where violations of a claimed curve are found, which the plane "
                    + "above squeezes into its top-left corner (curves drawn from α = 1e-4).</figcaption>\n"
                    + "</figure>\n");
        }
        String roc = RocPlot.render(r);
        if (!roc.isEmpty()) {
            b.append("<figure>\n").append(roc).append("<figcaption>ROC curve of the evaluation scores on log axes "
                    + "(blue), the guess TPR = FPR (grey), and the TPR at each target FPR with both rates' intervals "
                    + "at ").append(confidence).append(" confidence (red; thresholds chosen on the range part).")
                    .append("</figcaption>\n</figure>\n");
        }
        b.append(render(details));
        b.append("</body>\n</html>\n");
        return b.toString();
    }

    /**
     * The claims table as HTML: one row per claim, (ε, δ) and f-DP together, coloured by verdict, numbers
     * right-aligned; then what the verdicts mean and where each claim comes from.
     */
    static String claims(AuditReport r) {
        List<ClaimRows.Row> rows = ClaimRows.of(r);
        StringBuilder b = new StringBuilder("<h2 id=\"claims\">Claims</h2>\n");
        if (rows.isEmpty()) {
            return b.append("<p>No claims: empirical lower bounds only.</p>\n").toString();
        }
        boolean estimates = rows.stream().anyMatch(row -> row.estimate() != null);
        b.append("<table class=\"claims\">\n<thead><tr><th>claim</th><th>kind</th><th>claimed</th><th>verdict</th>"
                + "<th>evidence (certified)</th><th>would detect (90%)</th><th class=\"num\">tightness</th>"
                + (estimates ? "<th>estimate</th>" : "") + "</tr></thead>\n<tbody>\n");
        for (ClaimRows.Row row : rows) {
            String css = row.verdict() != Verdict.VIOLATED && row.epsilonBoundAboveClaim() ? "contested"
                    : row.verdict().label();
            b.append("<tr class=\"").append(css)
                    .append("\"><td>").append(escape(row.label()))
                    .append("</td><td>").append(escape(row.kind())).append("</td><td>").append(escape(row.claimed()))
                    .append("</td><td><strong>").append(escape(row.verdictText())).append("</strong></td><td>")
                    .append(escape(row.evidence()))
                    .append("</td><td>").append(escape(row.detectable())).append("</td><td class=\"num\">")
                    .append(escape(row.tightness())).append("</td>").append(estimates ? "<td>"
                            + escape(row.estimateText(false)) + "</td>" : "")
                    .append("</tr>\n");
        }
        b.append("</tbody>\n</table>\n");
        String below = Looseness.claimsBelow(r.looseness(), true);
        StringBuilder md = new StringBuilder(below.isEmpty() ? "" : "**" + below + "**\n\n")
                .append(MarkdownReportWriter.claimsLegend(r)).append("\n\nSources:\n\n");
        for (ClaimRows.Row row : rows) {
            md.append("- ").append(row.label().replace("\n", " ")).append(": ").append(row.source().replace("\n",
                    " ")).append("\n");
        }
        return b.append(render(md.toString())).toString();
    }

    /**
     * The verdict banner: the verdicts counted and the violated claims named, at what confidence; red when a claim is
     * violated, amber when none is but some are inconclusive or contested, green when all are consistent, neutral
     * without claims.
     */
    static String banner(AuditReport r, String confidence) {
        List<ClaimRows.Row> rows = ClaimRows.of(r);
        String css;
        String text;
        if (rows.isEmpty()) {
            css = "none";
            text = "No claims audited: empirical lower bounds only (" + confidence + " confidence each)";
        } else {
            int violated = ClaimRows.count(rows, Verdict.VIOLATED);
            int inconclusive = ClaimRows.count(rows, Verdict.INCONCLUSIVE);
            int contested = ClaimRows.contested(rows);
            css = violated > 0 ? "violated" : inconclusive > 0 || contested > 0 ? "inconclusive" : "consistent";
            text = ClaimRows.summary(r) + " (" + ClaimRows.confidenceText(r.result())
                    + (violated == 0 && inconclusive == 0 && contested == 0 ? "; no evidence against "
                            + (rows.size() == 1 ? "it, which does not prove it)" : "them, which does not prove them)")
                            : ")");
        }
        String estimate = ClaimRows.estimateSentence(r.result(), EstimateTables.pairFromBelow(r));
        if (!estimate.isEmpty()) {
            text += ". " + estimate;
        }
        return "<div class=\"banner " + css + "\" id=\"verdict\">" + escape(text) + "</div>\n";
    }

    /** A self-contained page: the given banner (HTML) then the Markdown rendered, with the reports' style. */
    static String page(String title, String bannerHtml, String markdown) {
        return "<!DOCTYPE html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\">\n"
                + "<meta name=\"viewport\" content=\"width=device-width, initial-scale=1\">\n<title>" + escape(title)
                + "</title>\n<style>" + STYLE + "</style>\n</head>\n<body>\n" + bannerHtml + render(markdown)
                + "</body>\n</html>\n";
    }

    /** Markdown as HTML (CommonMark with tables). */
    static String render(String markdown) {
        return RENDERER.render(PARSER.parse(markdown));
    }

    /** Escapes text for HTML element content and attribute values. */
    static String escape(String s) {
        StringBuilder b = new StringBuilder(s.length());
        for (char c : s.toCharArray()) {
            switch (c) {
                case '<' -> b.append("&lt;");
                case '>' -> b.append("&gt;");
                case '&' -> b.append("&amp;");
                case '"' -> b.append("&quot;");
                default -> b.append(c);
            }
        }
        return b.toString();
    }
}

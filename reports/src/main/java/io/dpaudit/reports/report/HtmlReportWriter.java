package io.dpaudit.reports.report;

import io.dpaudit.core.audit.ClaimResult;
import io.dpaudit.core.audit.TradeOffClaimResult;
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
    /** Where the plots go: before the first section after the claims. */
    private static final String AFTER_CLAIMS = "\n## Empirical lower bounds";
    private static final String STYLE = "body{font-family:sans-serif;max-width:1100px;margin:2em auto;padding:0 1em;"
            + "line-height:1.4}table{border-collapse:collapse;margin:0.5em 0 1em;font-size:0.92em}"
            + "th,td{border:1px solid #ccc;padding:0.25em 0.5em;text-align:left;vertical-align:top}"
            + "th{background:#f0f0f0}code{background:#f4f4f4;padding:0 0.2em}"
            + ".banner{padding:0.8em 1em;border-radius:6px;font-size:1.25em;font-weight:bold;margin:1em 0}"
            + ".violated{background:#fde2e1;color:#8a1010;border:2px solid #c62828}"
            + ".consistent{background:#e3f4e4;color:#1b5e20;border:2px solid #2e7d32}"
            + ".none{background:#eef1f5;color:#263238;border:2px solid #90a4ae}"
            + "figure{margin:1em 0}svg{max-width:100%;height:auto}";

    private HtmlReportWriter() {
    }

    /** The report as an HTML page. */
    public static String write(AuditReport r) {
        String markdown = MarkdownReportWriter.write(r);
        int split = markdown.indexOf(AFTER_CLAIMS);
        String head = split < 0 ? markdown : markdown.substring(0, split);
        String rest = split < 0 ? "" : markdown.substring(split + 1);
        String confidence = Format.percent(r.result().settings().confidence());
        StringBuilder b = new StringBuilder();
        b.append("<!DOCTYPE html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\">\n")
                .append("<meta name=\"viewport\" content=\"width=device-width, initial-scale=1\">\n<title>dp-audit: ")
                .append(escape(r.scenario().name())).append("</title>\n<style>").append(STYLE)
                .append("</style>\n</head>\n<body>\n");
        b.append(banner(r, confidence));
        b.append(render(head));
        b.append("<figure>\n").append(SvgPlot.render(r))
                .append("<figcaption>δ against ε: analytic bounds (curves), empirical lower bounds at ")
                .append(confidence).append(" confidence each (triangles), claims (circles).")
                .append(SvgPlot.flatCurves(r).isEmpty() ? "" : " Not drawn, because they are δ = 1 over the whole "
                        + "range (they certify nothing there): " + escape(String.join(", ", SvgPlot.flatCurves(r)))
                        + ".")
                .append(" The data of both plots is in curves.csv and tradeoff.csv next to this file.</figcaption>\n")
                .append("</figure>\n<figure>\n").append(TradeOffPlot.render(r))
                .append("<figcaption>The trade-off plane: certified points hold simultaneously at ").append(confidence)
                .append("; the true curve T(M(D), M(D')) lies on or below each of them.</figcaption>\n</figure>\n");
        b.append(render(rest));
        b.append("</body>\n</html>\n");
        return b.toString();
    }

    /** The verdict banner: how many claims are violated, at what confidence; red, green, or neutral. */
    static String banner(AuditReport r, String confidence) {
        int total = 0;
        int violated = 0;
        for (ClaimResult c : r.result().claims()) {
            total++;
            violated += c.verdict() == Verdict.VIOLATED ? 1 : 0;
        }
        for (TradeOffClaimResult c : r.result().tradeOffClaims()) {
            total++;
            violated += c.verdict() == Verdict.VIOLATED ? 1 : 0;
        }
        String css;
        String text;
        if (total == 0) {
            css = "none";
            text = "No claims audited: empirical lower bounds only (" + confidence + " confidence each)";
        } else if (violated > 0) {
            css = "violated";
            text = violated + " of " + total + " claim" + (total == 1 ? "" : "s") + " VIOLATED at " + confidence
                    + " confidence each";
        } else {
            css = "consistent";
            text = total == 1
                    ? "The claim is consistent with the audit at " + confidence + " confidence (no evidence against it; "
                            + "this does not prove it)"
                    : "All " + total + " claims are consistent with the audit at " + confidence + " confidence each "
                            + "(no evidence against them; this does not prove them)";
        }
        if (r.result().estimate() != null && !r.result().claims().isEmpty()) {
            int tight = 0;
            int loose = 0;
            int refuted = 0;
            for (ClaimResult c : r.result().claims()) {
                switch (c.estimate().verdict()) {
                    case TIGHT -> tight++;
                    case LOOSE -> loose++;
                    default -> refuted++;
                }
            }
            text += String.format(java.util.Locale.ROOT, ". Two-sided estimate (%s simultaneous, relies on the "
                    + "exact likelihood ratio): %d violated, %d tight, %d loose", Format.percent(
                            r.result().estimate().confidence()), refuted, tight, loose);
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

    private static String render(String markdown) {
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

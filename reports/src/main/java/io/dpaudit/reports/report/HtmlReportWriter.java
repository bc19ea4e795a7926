package io.dpaudit.reports.report;

/**
 * Writes {@code report.html}: a self-contained page (no external resources) with the plot of δ against ε, the
 * trade-off plane and the Markdown report's tables rendered as preformatted text.
 */
public final class HtmlReportWriter {
    private HtmlReportWriter() {
    }

    /** The report as an HTML page. */
    public static String write(AuditReport r) {
        StringBuilder b = new StringBuilder();
        b.append("<!DOCTYPE html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\">\n<title>dp-audit: ")
                .append(escape(r.scenario().name())).append("</title>\n<style>body{font-family:sans-serif;"
                        + "max-width:1100px;margin:2em auto;padding:0 1em}pre{white-space:pre-wrap;background:#f6f6f6;"
                        + "padding:1em}</style>\n</head>\n<body>\n<h1>dp-audit report: ")
                .append(escape(r.scenario().name())).append("</h1>\n<figure>\n").append(SvgPlot.render(r))
                .append("<figcaption>δ against ε: analytic bounds (curves), empirical lower bounds at ")
                .append(Format.percent(r.result().settings().confidence()))
                .append(" confidence each (triangles), claims (circles).</figcaption>\n</figure>\n<figure>\n")
                .append(TradeOffPlot.render(r)).append("<figcaption>The trade-off plane: certified points hold "
                        + "simultaneously at ").append(Format.percent(r.result().settings().confidence()))
                .append("; the true curve T(M(D), M(D')) lies on or below each of them.</figcaption>\n</figure>\n<pre>")
                .append(escape(MarkdownReportWriter.write(r))).append("</pre>\n</body>\n</html>\n");
        return b.toString();
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

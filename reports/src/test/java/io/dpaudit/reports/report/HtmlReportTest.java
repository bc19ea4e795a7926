package io.dpaudit.reports.report;

import io.dpaudit.runner.text.Format;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.dpaudit.core.engine.ProgressListener;
import io.dpaudit.runner.ScenarioAudit;
import io.dpaudit.runner.scenario.Scenario;
import io.dpaudit.runner.scenario.ScenarioReader;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;
import io.dpaudit.reports.TestReports;

/**
 * report.html reads as a page, not as Markdown source: the verdict banner comes first, tables are HTML tables
 * whose cells hold the claims, and user text cannot inject markup. (How it looks in a browser:
 * {@code scripts/screenshot-report.sh}, see the README.)
 */
class HtmlReportTest {
    private static AuditReport audit(String claims, String description) {
        Scenario s = ScenarioReader.parse("{\"name\": \"html\", \"description\": \"" + description + "\", "
                + "\"mechanism\": {\"type\": \"gaussian\", \"sigma\": 1, \"rounds\": 10}, \"trials\": 200000, "
                + "\"seed\": 5, \"claims\": [" + claims + "]}", "html");
        return TestReports.run(ScenarioAudit.prepare(s, s.trials(), s.seed(), 1), ProgressListener.NONE);
    }

    @Test
    void bannerFirstTablesRenderedUserTextEscaped() {
        String html = HtmlReportWriter.write(audit("{\"label\": \"far too strong\", \"epsilon\": 0.1, \"delta\": "
                + "1e-5}, {\"bound\": \"gaussian-exact\", \"delta\": 1e-5}", "a <script>alert(1)</script> test"));
        int body = html.indexOf("<body>");
        int banner = html.indexOf("<div class=\"banner violated\" id=\"verdict\">far too strong (black-box): "
                + "VIOLATED (1 of 2 claims);");
        assertTrue(banner > body, "banner missing: " + html.substring(body, body + 400));
        assertTrue(banner < html.indexOf("<h1>") && banner < html.indexOf("<table"), "the banner comes first");
        // The one claims table comes right after the title, before the set-up, as HTML cells coloured by verdict.
        int claims = html.indexOf("<table class=\"claims\">");
        assertTrue(claims > html.indexOf("<h1>") && claims < html.indexOf("Set-up"), "claims table first");
        assertTrue(html.contains("<th>claim</th><th>kind</th>"), "claims table header");
        Matcher row = Pattern.compile("<tr class=\"violated\"><td>far too strong</td><td>\\(ε, δ\\)</td><td>ε = "
                + "0\\.1000, δ = 1\\.000e-05</td><td><strong>VIOLATED \\(black-box\\)</strong></td><td>δ ≥ [0-9.e-]+ at ε = 0\\.1000")
                .matcher(html);
        assertTrue(row.find(), "claim row as cells, with its evidence");
        assertFalse(html.contains("|---"), "Markdown table source left in the page");
        assertFalse(html.contains("<pre>"), "no preformatted Markdown");
        assertFalse(html.contains("<script>"), "user text must be escaped");
        assertTrue(html.contains("&lt;script&gt;"));
        assertEquals(3, html.split("<svg", -1).length - 1, "the three plots inline (delta-epsilon, trade-off, its corner)");
    }

    /** A claim of ε = 0 whose ε lower bound is 0 has no tightness (0/0): the cell is empty, never "nan". */
    @Test
    void anUndefinedTightnessIsAnEmptyCell() {
        AuditReport r = audit("{\"label\": \"zero\", \"epsilon\": 0, \"delta\": 0.999}", "zero");
        java.util.List<ClaimRows.Row> rows = ClaimRows.of(r);
        assertEquals("", rows.get(0).tightness());
        Pattern nan = Pattern.compile("\\bnan\\b", Pattern.CASE_INSENSITIVE);
        assertFalse(nan.matcher(MarkdownReportWriter.write(r)).find(), "report.md");
        assertFalse(nan.matcher(HtmlReportWriter.write(r)).find(), "report.html");
    }

    @Test
    void consistentInconclusiveAndNoClaimBanners() {
        // mu = sqrt(10): delta(2) = 0.729, so (2, 0.8) is true and well within what 2 10^5 trials resolve.
        String ok = HtmlReportWriter.write(audit("{\"epsilon\": 2, \"delta\": 0.8}", "ok"));
        assertTrue(ok.contains("<div class=\"banner consistent\" id=\"verdict\">The claim is not violated; 1 "
                + "consistent (95.00% confidence each; no evidence against it"), ok.substring(0, 2000));
        assertTrue(ok.contains("<tr class=\"consistent\">"), "row coloured");
        String weak = HtmlReportWriter.write(audit("{\"bound\": \"gaussian-exact\", \"delta\": 1e-9}", "weak"));
        assertTrue(weak.contains("<div class=\"banner inconclusive\" id=\"verdict\">The claim is not violated; 1 "
                + "inconclusive"), weak.substring(0, 2000));
        assertTrue(weak.contains("<tr class=\"inconclusive\">"), "row coloured");
        String none = HtmlReportWriter.write(audit("", "none"));
        assertTrue(none.contains("<div class=\"banner none\" id=\"verdict\">No claims audited"));
    }

    /**
     * An inconclusive claim says how many times the trials would resolve it, in every output; a consistent one does
     * not. The factor is a power of two at which the audit would refute a mechanism with 1.5 times the claimed ε.
     */
    @Test
    void anInconclusiveClaimSaysWhatWouldResolveIt() {
        AuditReport r = audit("{\"label\": \"weak\", \"epsilon\": 7, \"delta\": 1e-5}, "
                + "{\"label\": \"ok\", \"epsilon\": 2, \"delta\": 0.8}", "resolve");
        com.fasterxml.jackson.databind.JsonNode claims = JsonReportWriter.toJson(r).path("claims");
        assertEquals("inconclusive", claims.get(0).path("verdict").asText());
        long factor = claims.get(0).path("power").path("trialsFactorToResolve").asLong();
        assertTrue(factor >= 2 && Long.bitCount(factor) == 1, "factor " + factor);
        assertEquals("consistent", claims.get(1).path("verdict").asText());
        assertFalse(claims.get(1).path("power").has("trialsFactorToResolve"));
        String times = factor < 1_000_000 ? Long.toString(factor) : "2^" + Long.numberOfTrailingZeros(factor);
        String phrase = times + "× the trials (" + Format.g(factor * 200_000.0) + " per world) would let this test "
                + "detect 1.5× the claimed ε";
        assertTrue(ClaimRows.of(r).get(0).detectable().contains(phrase));
        assertTrue(MarkdownReportWriter.write(r).contains(phrase), "report.md");
        assertTrue(HtmlReportWriter.write(r).contains(phrase), "report.html");
    }
}

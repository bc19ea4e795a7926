package io.dpaudit.reports.report;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.dpaudit.core.engine.ProgressListener;
import io.dpaudit.reports.ScenarioAudit;
import io.dpaudit.reports.scenario.Scenario;
import io.dpaudit.reports.scenario.ScenarioReader;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;

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
        return ScenarioAudit.run(ScenarioAudit.prepare(s, s.trials(), s.seed(), 1), ProgressListener.NONE);
    }

    @Test
    void bannerFirstTablesRenderedUserTextEscaped() {
        String html = HtmlReportWriter.write(audit("{\"label\": \"far too strong\", \"epsilon\": 0.1, \"delta\": "
                + "1e-5}, {\"bound\": \"gaussian-exact\", \"delta\": 1e-5}", "a <script>alert(1)</script> test"));
        int body = html.indexOf("<body>");
        int banner = html.indexOf("<div class=\"banner violated\" id=\"verdict\">1 of 2 claims VIOLATED at 95.00% "
                + "confidence each</div>");
        assertTrue(banner > body, "banner missing");
        assertTrue(banner < html.indexOf("<h1>") && banner < html.indexOf("<table>"), "the banner comes first");
        // The claims table is a table, its rows cells: no Markdown pipes or delimiter rows in the page.
        assertTrue(html.contains("<th>claim</th>"), "claims table header");
        Matcher row = Pattern.compile("<tr>\\s*<td>far too strong</td>\\s*<td>0\\.1000</td>").matcher(html);
        assertTrue(row.find(), "claim row as cells");
        assertFalse(html.contains("|---"), "Markdown table source left in the page");
        assertFalse(html.contains("<pre>"), "no preformatted Markdown");
        assertFalse(html.contains("<script>"), "user text must be escaped");
        assertTrue(html.contains("&lt;script&gt;"));
        assertEquals(2, html.split("<svg", -1).length - 1, "both plots inline");
    }

    @Test
    void consistentAndNoClaimBanners() {
        String ok = HtmlReportWriter.write(audit("{\"bound\": \"gaussian-exact\", \"delta\": 1e-5}", "ok"));
        assertTrue(ok.contains("<div class=\"banner consistent\" id=\"verdict\">The claim is consistent with the "
                + "audit at 95.00% confidence (no evidence against it"), ok.substring(0, 600));
        String none = HtmlReportWriter.write(audit("", "none"));
        assertTrue(none.contains("<div class=\"banner none\" id=\"verdict\">No claims audited"));
    }
}

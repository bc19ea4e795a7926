package io.dpaudit.reports.report;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.dpaudit.core.engine.ProgressListener;
import io.dpaudit.runner.ScenarioAudit;
import io.dpaudit.runner.scenario.Scenario;
import io.dpaudit.runner.scenario.ScenarioReader;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.api.Tag;
import io.dpaudit.reports.TestReports;

/**
 * report.html as a real browser renders it: headless Chromium (Debian package {@code chromium}; or
 * {@code $DPAUDIT_CHROMIUM}) loads the page, and the test reads the text it renders — the verdict banner is its first
 * line, the claims are table cells (tab-separated in {@code innerText}), no line is Markdown table source — checks
 * that the plots are drawn at the page's width, and saves a screenshot as
 * {@code reports/target/report-screenshot.png}. Without Chromium the test is skipped (reported as such by surefire);
 * {@link HtmlReportTest} checks the same structure in the HTML source on every machine.
 */
@Tag("integration")
class BrowserRenderingTest {
    @TempDir
    Path dir;

    @Test
    void chromiumRendersTheBannerTheTablesAndThePlots() throws Exception {
        Path chromium = HeadlessChromium.find();
        Assumptions.assumeTrue(chromium != null, "no Chromium on this machine (apt-get install chromium)");
        Scenario s = ScenarioReader.parse("{\"name\": \"browser\", \"description\": \"Gaussian mechanism over 10 "
                + "rounds\", \"mechanism\": {\"type\": \"gaussian\", \"sigma\": 1, \"rounds\": 10}, \"trials\": "
                + "200000, \"seed\": 5, \"claims\": [{\"label\": \"far too strong\", \"epsilon\": 0.1, \"delta\": "
                + "1e-5}, {\"bound\": \"gaussian-exact\", \"delta\": 1e-5}]}", "browser");
        AuditReport report = TestReports.run(ScenarioAudit.prepare(s, s.trials(), s.seed(), 1),
                ProgressListener.NONE);
        Path html = dir.resolve("report.html");
        Files.writeString(html, HtmlReportWriter.write(report));
        try (HeadlessChromium browser = new HeadlessChromium(chromium)) {
            browser.viewport(1000, 1400);
            browser.load(html);
            String text = browser.renderedText();
            List<String> lines = text.lines().map(String::strip).filter(l -> !l.isEmpty()).toList();
            assertTrue(lines.get(0).startsWith("far too strong (black-box): VIOLATED (1 of 2 claims)"),
                    "the banner comes first, naming the violated claim: " + lines.get(0));
            assertTrue(lines.get(1).startsWith("dp-audit report: browser"), lines.get(1));
            assertEquals("Claims", lines.get(2), "the claims table right under the title");
            assertTrue(lines.get(3).startsWith("claim\tkind\tclaimed\tverdict\tevidence"), "the header row: "
                    + lines.get(3));
            assertTrue(lines.get(4).startsWith("far too strong\t(ε, δ)\tε = 0.1000, δ = 1.000e-05\tVIOLATED (black-box)\tδ ≥ "),
                    "the claim row as table cells: " + lines.get(4));
            assertFalse(lines.stream().anyMatch(l -> l.startsWith("|") || l.contains("|---")), "Markdown source");
            // The banner is red, the violated row tinted, numbers right-aligned, and both plots are drawn across the
            // content's width (responsive SVG).
            assertEquals("rgb(138, 16, 16)", browser.evaluate(
                    "getComputedStyle(document.getElementById('verdict')).color").asText());
            assertEquals("rgb(253, 226, 225)", browser.evaluate("getComputedStyle(document.querySelector("
                    + "'table.claims tr.violated td')).backgroundColor").asText());
            assertEquals("right", browser.evaluate("getComputedStyle(document.querySelector("
                    + "'table.claims td.num')).textAlign").asText());
            assertEquals(3, browser.evaluate("document.querySelectorAll('svg').length").asInt(),
                    "the delta-epsilon plot, the trade-off plane and its corner on log axes");
            double svgWidth = browser.evaluate("document.querySelector('svg').getBoundingClientRect().width")
                    .asDouble();
            assertTrue(svgWidth > 600, "plot width " + svgWidth);
            assertTrue(browser.evaluate("document.querySelectorAll('svg polyline').length").asInt() >= 1);
            Path png = Path.of("target", "report-screenshot.png");
            Files.createDirectories(png.getParent());
            browser.screenshot(png);
            assertTrue(Files.size(png) > 10_000, "screenshot written");
        }
    }
}

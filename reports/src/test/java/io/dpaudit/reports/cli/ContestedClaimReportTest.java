package io.dpaudit.reports.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.dpaudit.core.audit.ClaimResult;
import io.dpaudit.core.audit.Verdict;
import io.dpaudit.core.engine.ProgressListener;
import io.dpaudit.reports.TestReports;
import io.dpaudit.reports.report.AuditReport;
import io.dpaudit.reports.report.HtmlReportWriter;
import io.dpaudit.reports.report.IndexWriter;
import io.dpaudit.reports.report.JsonReportWriter;
import io.dpaudit.reports.report.MarkdownReportWriter;
import io.dpaudit.runner.ScenarioAudit;
import io.dpaudit.runner.scenario.Scenario;
import io.dpaudit.runner.scenario.ScenarioReader;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * A claim the verdict's test does not refute while the ε lower bound at its δ does is reported as contested in every
 * output, not as plainly consistent. The case is real and deterministic: the zoo's report noisy max returning the
 * value with Laplace noise (true ε 0.25, claimed 0.1-DP) at 10^5 trials per world and its shipped seed 2026 — the
 * δ test at ε = 0.1 finds δ ≥ 0, while the ε lower bound at δ = 0 is 0.1618 (the pinned report of that scenario).
 * A second claim, ε = 1, lies above that bound and is not contested. The wrong claim is inconclusive, not consistent:
 * 10^5 trials could not have refuted a mechanism with 1.5 times its ε (issue 57: a 2.5×-wrong ε read "consistent").
 */
class ContestedClaimReportTest {
    private static AuditReport audit() {
        Scenario s = ScenarioReader.read(Path.of("..", "scenarios", "zoo", "noisy-max-laplace-value.json"));
        Scenario both = ScenarioReader.parse("{\"name\": \"contested\", \"mechanism\": "
                + new ObjectMapper().valueToTree(s.mechanism().values()) + ", \"attack\": \"learned\", "
                + "\"seed\": 2026, \"deltas\": [0], \"claims\": [{\"label\": \"claimed 0.1-DP\", \"epsilon\": 0.1, "
                + "\"delta\": 0}, {\"label\": \"claimed 1-DP\", \"epsilon\": 1, \"delta\": 0}]}", "contested");
        return TestReports.run(ScenarioAudit.prepare(both, 100_000, 2026, 1), ProgressListener.NONE);
    }

    @Test
    void theVerdictKeepsItsTestAndEveryOutputSaysTheClaimIsContested() throws Exception {
        AuditReport r = audit();
        List<ClaimResult> claims = r.result().claims();
        ClaimResult wrong = claims.get(0);
        assertEquals(Verdict.INCONCLUSIVE, wrong.verdict(), "the verdict's δ test at ε = 0.1 has no evidence here, "
                + "and not the power to see 1.5 times its ε: " + wrong.power());
        assertTrue(wrong.epsilonLowerBound().epsilon() > 0.1, "ε lower bound " + wrong.epsilonLowerBound());
        assertTrue(wrong.epsilonBoundAboveClaim());
        assertFalse(claims.get(1).epsilonBoundAboveClaim(), "ε = 1 lies above the bound");

        String console = SummaryTable.format(r);
        assertTrue(console.contains("contested: the ε lower bound at its δ"), console);
        assertTrue(console.contains("; 1 contested, the ε lower bound above the claimed ε (claimed 0.1-DP)"), console);

        String md = MarkdownReportWriter.write(r);
        assertTrue(md.contains("| claimed 0.1-DP | (ε, δ) | ε = 0.1000, δ = 0 | inconclusive (contested: ε bound "
                + "above the claim) |"), md);
        assertTrue(md.contains("| claimed 1-DP | (ε, δ) | ε = 1.000, δ = 0 | consistent (black-box) |"), md);
        assertTrue(md.contains("*Contested*: the verdict's sources did not refute"), "legend");

        String html = HtmlReportWriter.write(r);
        assertTrue(html.contains("<div class=\"banner inconclusive\" id=\"verdict\">"), "amber banner, not green");
        assertFalse(html.contains("no evidence against them"), "the banner must not say there is no evidence");
        assertTrue(html.contains("<tr class=\"contested\"><td>claimed 0.1-DP</td>"), "row coloured as contested");
        assertTrue(html.contains("stroke=\"#ff7f0e\" stroke-width=\"2.5\"><title>claimed 0.1-DP: contested"),
                "drawn orange in the plot, not green");
        assertTrue(html.contains("stroke=\"#2ca02c\" stroke-width=\"2.5\"><title>claimed 1-DP: consistent"), html);

        JsonNode json = new ObjectMapper().readTree(JsonReportWriter.write(r));
        assertTrue(json.get("claims").get(0).get("epsilonBoundAboveClaim").asBoolean());
        assertFalse(json.get("claims").get(1).get("epsilonBoundAboveClaim").asBoolean());

        List<IndexWriter.Entry> index = List.of(new IndexWriter.Entry("contested.json", "contested", r));
        assertTrue(IndexWriter.markdown(index).contains("inconclusive (contested: ε bound above the claim)"));
        String[] csv = IndexWriter.csv(index).split("\n");
        int column = List.of(csv[0].split(",")).indexOf("epsilonBoundAboveClaim");
        assertTrue(column > 0, csv[0]);
        assertEquals("true", csv[1].split(",", -1)[column], String.join("\n", csv));
        assertEquals("false", csv[2].split(",", -1)[column], String.join("\n", csv));
        assertTrue(IndexWriter.summary(index).endsWith("; 1 of them contested, the ε lower bound above the claimed ε "
                + "(contested: claimed 0.1-DP)"), IndexWriter.summary(index));
        JsonNode rows = new ObjectMapper().readTree(IndexWriter.json(index));
        assertTrue(rows.toString().contains("\"epsilonBoundAboveClaim\":true"), rows.toString());
    }
}

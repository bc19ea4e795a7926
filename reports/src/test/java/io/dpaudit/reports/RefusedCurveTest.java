package io.dpaudit.reports;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import io.dpaudit.core.engine.ProgressListener;
import io.dpaudit.reports.report.AuditReport;
import io.dpaudit.reports.report.JsonReportWriter;
import io.dpaudit.reports.report.MarkdownReportWriter;
import io.dpaudit.runner.ScenarioAudit;
import io.dpaudit.runner.scenario.ScenarioReader;
import org.junit.jupiter.api.Test;

/**
 * A curve that is a lower bound on the worst case and cannot be computed at a δ is "not computed" there, never "inf":
 * random participation with p = q = 1 at σ = 0.0077 is a Gaussian pair whose ε(1e-6) is 9049, beyond the exact
 * profile's search (8192). Its exact curves refuse; a certified bound that gives no finite ε keeps "inf".
 */
class RefusedCurveTest {
    @Test
    void anExactCurveThatRefusesIsNotComputedInEveryReport() {
        AuditReport r = TestReports.run(ScenarioAudit.prepare(ScenarioReader.parse("{\"mechanism\": {\"type\": "
                + "\"random-participation\", \"p\": 1, \"q\": 1, \"d\": 0, \"sigma\": 0.0077}, \"trials\": 2000, "
                + "\"seed\": 3, \"deltas\": [1e-6], \"claims\": [{\"epsilon\": 5000, \"delta\": 1e-6}]}", "t"), 2000, 3,
                1), ProgressListener.NONE);
        JsonNode bounds = JsonReportWriter.toJson(r).get("bounds");
        int seen = 0;
        for (JsonNode b : bounds) {
            String epsilon = b.get("epsilonAtDeltas").get(0).get("epsilon").asText();
            if (b.get("name").asText().equals("exact(aligned)")) {
                assertEquals("nan", epsilon);
                seen++;
            }
            if (b.get("name").asText().equals("thm-4.1")) {
                assertEquals("inf", epsilon, "a certified bound that certifies nothing finite");
                seen++;
            }
        }
        assertEquals(2, seen, bounds.toString());
        String md = MarkdownReportWriter.write(r);
        assertTrue(md.contains("| `exact(aligned)` (exact profile of one neighbouring pair, a lower bound on the worst "
                + "case) | not computed at 1.000e-06 |"), md);
        assertTrue(md.contains("exact(aligned) gives no finite epsilon at delta = 1.0E-6: delta = 1.0E-6: the exact "
                + "profile of the pair is above it"), md);
    }
}

package io.dpaudit.reports.report;

import io.dpaudit.runner.text.Format;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.dpaudit.core.engine.ProgressListener;
import io.dpaudit.runner.ScenarioAudit;
import io.dpaudit.runner.scenario.Scenario;
import io.dpaudit.runner.scenario.ScenarioReader;
import java.util.Locale;
import org.junit.jupiter.api.Test;
import io.dpaudit.runner.json.JsonNumbers;
import io.dpaudit.reports.TestReports;

@org.junit.jupiter.api.parallel.Isolated("changes the default locale")
class ReportFormatTest {
    private static final ObjectMapper MAPPER = new ObjectMapper();

    private static AuditReport smallReport() {
        Scenario s = ScenarioReader.parse("{\"mechanism\": {\"type\": \"gaussian\", \"sigma\": 2.5}, \"trials\": 20000, "
                + "\"seed\": 3, \"deltas\": [1e-3], \"epsilons\": [0, 40], "
                + "\"claims\": [{\"label\": \"zero epsilon\", \"epsilon\": 0, \"delta\": 0.5}, "
                + "{\"label\": \"zero epsilon, small delta\", \"epsilon\": 0, \"delta\": 1e-3}]}", "small");
        return TestReports.run(ScenarioAudit.prepare(s, s.trials(), s.seed(), 1), ProgressListener.NONE);
    }

    @Test
    void nonFiniteNumbersAreEncodedAsStrings() {
        assertEquals("\"inf\"", JsonNumbers.encode(Double.POSITIVE_INFINITY).toString());
        assertEquals("\"-inf\"", JsonNumbers.encode(Double.NEGATIVE_INFINITY).toString());
        assertEquals("\"nan\"", JsonNumbers.encode(Double.NaN).toString());
        assertEquals("0.1", JsonNumbers.encode(0.1).toString());
        for (double v : new double[] {Double.POSITIVE_INFINITY, Double.NEGATIVE_INFINITY, 1e-300, -2.5}) {
            assertEquals(v, JsonNumbers.decode(JsonNumbers.encode(v)));
        }
        assertTrue(Double.isNaN(JsonNumbers.decode(JsonNumbers.encode(Double.NaN))));
    }

    /**
     * Tightness is the empirical epsilon lower bound over the claimed epsilon: for a claimed epsilon of 0 it is 0/0 =
     * "nan" when the audit found no epsilon above 0 (delta = 0.5 is more than this mechanism's total variation), and
     * x/0 = "inf" when it did (delta = 1e-3).
     */
    @Test
    void aClaimOfZeroEpsilonHasAnEncodedNonFiniteTightness() throws Exception {
        JsonNode json = MAPPER.readTree(JsonReportWriter.write(smallReport()));
        JsonNode loose = json.get("claims").get(0);
        assertEquals(0.0, loose.get("empiricalEpsilonLowerBound").asDouble());
        assertEquals("nan", loose.get("tightness").asText());
        assertEquals("consistent", loose.get("verdict").asText());
        JsonNode tight = json.get("claims").get(1);
        assertTrue(tight.get("empiricalEpsilonLowerBound").asDouble() > 0, tight.toString());
        assertEquals("inf", tight.get("tightness").asText());
        assertEquals("violated", tight.get("verdict").asText());
    }

    @Test
    void ratesUseTheUnitThatSuitsThem() {
        assertEquals("82.0 M/s", Format.perSecond(8.2e7));
        assertEquals("1.00 M/s", Format.perSecond(1e6));
        assertEquals("100 k/s", Format.perSecond(1e5));
        assertEquals("3.41 k/s", Format.perSecond(3412));
        assertEquals("12.5/s", Format.perSecond(12.5));
        assertEquals("1.00 M/s", Format.perSecond(999_960));
        assertEquals("1.00 k/s", Format.perSecond(999.96));
        assertEquals("291 k trials/s", Format.perSecond(291_000, "trials"));
        assertEquals("789 trials/s", Format.perSecond(789, "trials"));
        assertEquals("n/a", Format.perSecond(Double.NaN));
        assertEquals("0.00/s", Format.perSecond(0));
    }

    @Test
    void writersDoNotDependOnTheDefaultLocale() {
        AuditReport r = smallReport();
        Locale saved = Locale.getDefault();
        try {
            Locale.setDefault(Locale.ROOT);
            String json = JsonReportWriter.write(r);
            String md = MarkdownReportWriter.write(r);
            String html = HtmlReportWriter.write(r);
            for (Locale l : new Locale[] {Locale.GERMANY, Locale.forLanguageTag("ar-EG"),
                Locale.forLanguageTag("th-TH-u-nu-thai"), Locale.FRANCE}) {
                Locale.setDefault(l);
                assertEquals(json, JsonReportWriter.write(r), l.toString());
                assertEquals(md, MarkdownReportWriter.write(r), l.toString());
                assertEquals(html, HtmlReportWriter.write(r), l.toString());
            }
        } finally {
            Locale.setDefault(saved);
        }
    }

    @Test
    void jsonCarriesTheContractFields() throws Exception {
        ObjectNode json = (ObjectNode) MAPPER.readTree(JsonReportWriter.write(smallReport()));
        for (String f : new String[] {"tool", "scenario", "seed", "rng", "trialsPerWorld", "threads", "elapsedSeconds",
            "trialsPerSecond", "empirical", "bounds", "claims"}) {
            assertTrue(json.has(f), f);
        }
        JsonNode emp = json.get("empirical");
        assertTrue(emp.get("epsilonLowerBounds").get(0).has("delta") && emp.get("epsilonLowerBounds").get(0).has("epsilon"));
        assertTrue(emp.get("deltaLowerBounds").get(0).has("epsilon") && emp.get("deltaLowerBounds").get(0).has("delta"));
        JsonNode b = json.get("bounds").get(0);
        assertEquals("gaussian-exact", b.get("name").asText());
        assertTrue(b.get("points").size() > 10 && b.get("points").get(0).has("epsilon"));
        JsonNode c = json.get("claims").get(0);
        for (String f : new String[] {"label", "epsilon", "delta", "verdict", "empiricalDeltaLowerBound",
            "empiricalEpsilonLowerBound"}) {
            assertTrue(c.has(f), f);
        }
    }

    /** Confidence levels print to four digits, except one below 1 that four would round to "100%". */
    @org.junit.jupiter.api.Test
    void aConfidenceBelowOneNeverPrintsAsOneHundredPercent() {
        assertEquals("95.00%", Format.percent(0.95));
        assertEquals("99.90%", Format.percent(0.999));
        assertEquals("100.0%", Format.percent(1.0));
        assertEquals("99.99999%", Format.percent(1 - 1e-7));
        assertEquals("99.9999999999999%", Format.percent(0.999999999999999));
    }
}

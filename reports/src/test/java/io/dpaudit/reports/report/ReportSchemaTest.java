package io.dpaudit.reports.report;

import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import com.networknt.schema.Error;
import com.networknt.schema.Schema;
import com.networknt.schema.SchemaRegistry;
import com.networknt.schema.SpecificationVersion;
import io.dpaudit.core.engine.ProgressListener;
import io.dpaudit.runner.ScenarioAudit;
import io.dpaudit.runner.scenario.Scenario;
import io.dpaudit.runner.scenario.ScenarioReader;
import java.io.InputStream;
import java.time.Instant;
import java.util.List;
import org.junit.jupiter.api.Test;
import io.dpaudit.reports.TestReports;

/**
 * report.json against its JSON Schema ({@code io/dpaudit/reports/report.schema.json}, shipped in the jar): reports of
 * several kinds validate (continuous and exact binnings, held-out and Bonferroni selection, f-DP claims, an
 * estimate, provenance), and documents that break the contract do not.
 */
class ReportSchemaTest {
    private static final ObjectMapper MAPPER = new ObjectMapper();

    private static Schema schema() throws Exception {
        try (InputStream in = ReportSchemaTest.class.getResourceAsStream("/io/dpaudit/reports/report.schema.json")) {
            JsonNode node = MAPPER.readTree(in);
            return SchemaRegistry.withDefaultDialect(SpecificationVersion.DRAFT_2020_12).getSchema(node);
        }
    }

    private static JsonNode report(String scenario, boolean provenance) throws Exception {
        Scenario s = ScenarioReader.parse(scenario, "t");
        AuditReport r = TestReports.run(ScenarioAudit.prepare(s, s.trials(), s.seed(), 2), ProgressListener.NONE);
        if (provenance) {
            r = r.withProvenance(Provenance.of(Instant.now(), List.of("run", "t.json"), new byte[] {1, 2}));
        }
        return MAPPER.readTree(JsonReportWriter.write(r));
    }

    /** The schema's verdict on a report (for other tests' reports too, e.g. those of {@code dp-audit scores}). */
    static List<Error> errors(JsonNode json) throws Exception {
        return schema().validate(json);
    }

    @Test
    void reportsOfEveryKindValidate() throws Exception {
        String[] scenarios = {
            "{\"mechanism\": {\"type\": \"gaussian\", \"sigma\": 1}, \"trials\": 100000, \"deltas\": [1e-3], "
                + "\"claims\": [{\"bound\": \"gaussian-exact\", \"delta\": 1e-3}, {\"epsilon\": 0.5, \"delta\": 1e-3},"
                + " {\"gdpMu\": 0.9}], \"estimate\": true}",
            "{\"mechanism\": {\"type\": \"shuffled-randomizer\", \"clients\": 50, \"randomizer\": \"rr\", \"eps0\": 2},"
                + " \"trials\": 100000, \"thresholdSelection\": {\"method\": \"bonferroni\", \"grid\": 32}, "
                + "\"claims\": [{\"epsilon\": 1, \"delta\": 1e-3}]}",
            "{\"mechanism\": {\"type\": \"poisson-subsampled-gaussian\", \"q\": 0.1, \"sigma\": 1e-12}, "
                + "\"trials\": 10000, \"claims\": [{\"epsilon\": 1e300, \"delta\": 1e-5}]}",
            "{\"mechanism\": {\"type\": \"sparse-vector\", \"variant\": 4, \"epsilon\": 0.1, \"d\": \"1,1,1\", "
                + "\"dPrime\": \"2,0,0\"}, \"attack\": \"learned\", \"trials\": 100000, \"deltas\": [0], "
                + "\"claims\": [{\"epsilon\": 0.1, \"delta\": 0}]}"};
        for (int i = 0; i < scenarios.length; i++) {
            List<Error> e = errors(report(scenarios[i], i == 0));
            assertTrue(e.isEmpty(), "scenario " + i + ": " + e);
        }
    }

    @Test
    void contractBreachesAreCaught() throws Exception {
        JsonNode good = report("{\"mechanism\": {\"type\": \"gaussian\", \"sigma\": 1}, \"trials\": 20000, "
                + "\"claims\": [{\"epsilon\": 1, \"delta\": 1e-3}]}", true);
        ObjectNode missing = good.deepCopy();
        missing.remove("claims");
        assertFalse(errors(missing).isEmpty(), "a removed field");
        ObjectNode badVerdict = good.deepCopy();
        ((ObjectNode) badVerdict.get("claims").get(0)).put("verdict", "maybe");
        assertFalse(errors(badVerdict).isEmpty(), "an unknown verdict");
        ObjectNode badNumber = good.deepCopy();
        ((ObjectNode) badNumber.get("claims").get(0)).put("epsilon", "infinity");
        assertFalse(errors(badNumber).isEmpty(), "a non-finite number not written as inf");
        ObjectNode badVersion = good.deepCopy();
        badVersion.put("schemaVersion", 3);
        assertFalse(errors(badVersion).isEmpty(), "another schema version");
    }
}

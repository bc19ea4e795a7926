package io.dpaudit.reports.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.IOException;
import org.junit.jupiter.api.Test;

class BoundCommandTest {
    private static final ObjectMapper MAPPER = new ObjectMapper();

    @Test
    void boundPrintsEveryApplicableBoundAsJson() throws IOException {
        CliRunner.Result r = CliRunner.run("bound", "poisson-subsampled-gaussian", "q=0.01", "sigma=1", "rounds=1",
                "--delta", "1e-5", "--json");
        assertEquals(0, r.exit(), r.err());
        JsonNode bounds = MAPPER.readTree(r.out()).get("bounds");
        assertTrue(bounds.size() >= 2);
        for (JsonNode b : bounds) {
            assertTrue(b.has("name") && b.has("source") && b.has("epsilon") && b.has("delta"), b.toString());
            assertEquals(1e-5, b.get("delta").doubleValue());
        }
        // dp_accounting's PLD (pessimistic, 1e-4 grid) gives 0.19945047347; the exact one-round value is just below.
        assertEquals(0.19945, bounds.get(0).get("epsilon").doubleValue(), 1e-5);
    }

    @Test
    void calibratePrintsSigmaPerBound() throws IOException {
        CliRunner.Result r = CliRunner.run("calibrate", "gaussian", "--epsilon", "1", "--delta", "1e-5", "--json");
        assertEquals(0, r.exit(), r.err());
        JsonNode c = MAPPER.readTree(r.out()).get("calibrations").get(0);
        assertEquals("gaussian-exact", c.get("name").asText());
        assertEquals(3.7306316348159418, c.get("sigma").doubleValue(), 1e-8);
    }

    @Test
    void listAndHelpAndVersion() {
        CliRunner.Result l = CliRunner.run("list");
        assertEquals(0, l.exit());
        assertTrue(l.out().contains("poisson-subsampled-gaussian") && l.out().contains("likelihood-ratio"));
        assertEquals(0, CliRunner.run("--help").exit());
        assertTrue(CliRunner.run("--version").out().startsWith("dp-audit "));
    }
}

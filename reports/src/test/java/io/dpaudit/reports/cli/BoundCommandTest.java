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

    /**
     * calibrate ends with one value to use: the least noise among the certified upper bounds, rounded to 5 significant
     * digits on the safe side (the σ up, an ε0 down); an approximation (gdp-clt's smaller σ) never decides it.
     */
    @Test
    void calibrateRecommendsTheLeastNoiseACertifiedBoundAllowsRoundedSafely() throws IOException {
        CliRunner.Result r = CliRunner.run("calibrate", "poisson-subsampled-gaussian", "q=0.01", "rounds=100",
                "--epsilon", "1", "--delta", "1e-5", "--json");
        assertEquals(0, r.exit(), r.err());
        JsonNode root = MAPPER.readTree(r.out());
        double smallest = Double.POSITIVE_INFINITY;
        String by = null;
        for (JsonNode c : root.get("calibrations")) {
            if (c.get("certified").asBoolean() && c.get("sigma").doubleValue() < smallest) {
                smallest = c.get("sigma").doubleValue();
                by = c.get("name").asText();
            }
        }
        JsonNode rec = root.get("recommended");
        assertEquals(by, rec.get("bound").asText());
        assertEquals("sigma", rec.get("parameter").asText());
        double value = rec.get("value").doubleValue();
        assertTrue(value >= smallest && value <= smallest * (1 + 1e-4), value + " against " + smallest);
        assertEquals(value, Double.parseDouble(String.format(java.util.Locale.ROOT, "%.4e", value)));
        CliRunner.Result text = CliRunner.run("calibrate", "shuffled-randomizer", "clients=1000", "--epsilon", "1",
                "--delta", "1e-6");
        assertTrue(text.out().contains("Recommended: eps0 = ") && text.out().contains("rounded down"), text.out());
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

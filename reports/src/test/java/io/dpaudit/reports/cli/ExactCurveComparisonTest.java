package io.dpaudit.reports.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** "How loose" where the exact curve of the simulated pair cannot be computed. */
class ExactCurveComparisonTest {
    @TempDir
    Path dir;

    /**
     * DP-Fed at sigma = 1e-7 over two rounds: the PLD accountant refuses the exact pair profile (one round's loss is too
     * wide for its grid). Nothing is then compared with it. Before, the refusal counted as an infinite exact ε: every
     * bound and the claim got a ratio of 0 and were called below the exact curve.
     */
    @Test
    void nothingIsComparedWithAnExactCurveTheAccountantRefused() throws Exception {
        Path file = dir.resolve("s.json");
        Files.writeString(file, "{\"name\": \"refused\", \"mechanism\": {\"type\": \"dp-fed\", \"clients\": 100, "
                + "\"fraction\": 0.1, \"sampling\": \"uniform\", \"sigma\": 1e-7, \"clip\": 1, \"rounds\": 2}, "
                + "\"trials\": 20000, \"seed\": 1, \"deltas\": [1e-3], \"claims\": [{\"label\": \"some claim\", "
                + "\"epsilon\": 3, \"delta\": 1e-3}]}");
        Path out = dir.resolve("out");
        CliRunner.Result r = CliRunner.run("run", file.toString(), "--quiet", "--out", out.toString());
        assertEquals(3, r.exit(), r.err()); // the claim is violated by the audit itself
        JsonNode l = new ObjectMapper().readTree(out.resolve("report.json").toFile()).get("looseness");
        assertEquals("pair-profile(replacement)", l.get("reference").asText());
        JsonNode claim = l.get("claims").get(0);
        assertEquals("nan", claim.get("exactEpsilon").asText(), claim.toString());
        assertEquals("nan", claim.get("ratioToExact").asText(), claim.toString());
        assertFalse(claim.get("belowExact").asBoolean());
        for (JsonNode b : l.get("bounds")) {
            assertEquals("nan", b.get("ratioToExact").asText(), b.toString());
        }
        String md = Files.readString(out.resolve("report.md"));
        String loose = md.substring(md.indexOf("## How loose"), md.indexOf("## Notes"));
        assertTrue(loose.contains("| some claim | 0.001000 | 3.000 | not computed | — |"), loose);
        assertFalse(loose.contains("(below the exact curve)** |"), loose); // no table cell says so
        assertFalse(md.contains("Below the exact curve of the simulated pair"), "no claim named false");
    }
}

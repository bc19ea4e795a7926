package io.dpaudit.reports.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class RunCommandTest {
    private static final ObjectMapper MAPPER = new ObjectMapper();

    @TempDir
    Path dir;

    private Path scenario(String claims) throws IOException {
        Path file = dir.resolve("s.json");
        Files.writeString(file, "{\"name\": \"t\", \"mechanism\": {\"type\": \"poisson-subsampled-gaussian\", "
                + "\"q\": 0.2, \"sigma\": 1}, \"trials\": 2500000, \"seed\": 17, \"deltas\": [1e-3, 1e-4], "
                + "\"epsilons\": [0, 1], \"claims\": [" + claims + "]}");
        return file;
    }

    @Test
    void sameSeedGivesIdenticalNumbersForOneAndTwoThreads() throws IOException {
        Path s = scenario("{\"bound\": \"poisson-subsampled-gaussian-exact\", \"delta\": 1e-3}");
        CliRunner.Result one = CliRunner.run("run", s.toString(), "--threads", "1", "--out", dir.resolve("a").toString(),
                "--quiet");
        CliRunner.Result two = CliRunner.run("run", s.toString(), "--threads", "2", "--out", dir.resolve("b").toString(),
                "--quiet");
        assertEquals(0, one.exit(), one.err());
        assertEquals(0, two.exit(), two.err());
        ObjectNode a = (ObjectNode) MAPPER.readTree(dir.resolve("a/report.json").toFile());
        ObjectNode b = (ObjectNode) MAPPER.readTree(dir.resolve("b/report.json").toFile());
        assertEquals(1, a.get("threads").intValue());
        assertEquals(2, b.get("threads").intValue());
        for (ObjectNode n : new ObjectNode[] {a, b}) {
            n.remove(java.util.List.of("threads", "elapsedSeconds", "trialsPerSecond", "roundsPerSecondPerCore",
                    "provenance", "environment"));
        }
        assertEquals(a, b);
        assertTrue(a.get("empirical").get("epsilonLowerBounds").get(0).get("epsilon").doubleValue() > 0);
    }

    @Test
    void exitCodeThreeWhenAClaimIsViolatedAndReportsAreWritten() throws IOException {
        Path s = scenario("{\"label\": \"far too small\", \"epsilon\": 0.05, \"delta\": 1e-4}");
        Path out = dir.resolve("v");
        CliRunner.Result r = CliRunner.run("run", s.toString(), "--out", out.toString(), "--quiet");
        assertEquals(3, r.exit(), r.err());
        assertTrue(r.out().contains("VIOLATED"), r.out());
        JsonNode json = MAPPER.readTree(out.resolve("report.json").toFile());
        assertEquals("violated", json.get("claims").get(0).get("verdict").asText());
        for (String f : new String[] {"report.json", "report.md", "report.html", "curves.csv", "tradeoff.csv",
            "counts.json"}) {
            assertTrue(Files.size(out.resolve(f)) > 500, f);
        }
        try (var files = Files.list(out)) {
            assertEquals(6, files.count(), "no temporary files left behind");
        }
        String html = Files.readString(out.resolve("report.html"));
        assertTrue(html.contains("<svg") && html.contains("</svg>") && html.contains("violated"));
    }

    @Test
    void commandLineOverridesAreRecorded() throws IOException {
        Path s = scenario("");
        Path out = dir.resolve("o");
        CliRunner.Result r = CliRunner.run("run", s.toString(), "--trials", "1e5", "--seed", "99", "--out",
                out.toString(), "--quiet");
        assertEquals(0, r.exit(), r.err());
        JsonNode json = MAPPER.readTree(out.resolve("report.json").toFile());
        assertEquals(100_000, json.get("trialsPerWorld").longValue());
        assertEquals(99, json.get("seed").longValue());
        assertEquals(17, json.get("scenario").get("seed").longValue(), "the scenario is echoed as written");
        assertTrue(json.get("rng").asText().startsWith("XO_SHI_RO_256_PP"));
        assertEquals("dp-audit", json.get("tool").get("name").asText());
    }

    @Test
    void reportRecordsItsProvenance() throws IOException {
        Path s = scenario("{\"epsilon\": 3, \"delta\": 1e-3}");
        Path out = dir.resolve("with space");
        CliRunner.Result r = CliRunner.run("run", s.toString(), "--trials", "10000", "--out", out.toString(),
                "--quiet");
        assertEquals(0, r.exit(), r.err());
        JsonNode json = MAPPER.readTree(out.resolve("report.json").toFile());
        assertEquals(2, json.get("schemaVersion").intValue());
        JsonNode p = json.get("provenance");
        java.time.Instant started = java.time.Instant.parse(p.get("startedAt").asText());
        assertTrue(!started.isAfter(java.time.Instant.now()));
        assertEquals("dp-audit run " + s + " --trials 10000 --out '" + out + "' --quiet",
                p.get("commandLine").asText());
        assertEquals(io.dpaudit.reports.report.Provenance.sha256(Files.readAllBytes(s)),
                p.get("scenarioSha256").asText());
        assertEquals(64, p.get("scenarioSha256").asText().length());
        assertTrue(p.get("elapsedSeconds").asDouble() > 0, p.toString());
        // Built from a checkout (the build writes git.properties): the commit, possibly with -dirty; else null.
        if (Files.exists(Path.of("..", ".git"))) {
            String commit = p.get("gitCommit").asText();
            assertTrue(commit.matches("[0-9a-f]{40}(-dirty)?"), commit);
        } else {
            assertTrue(p.get("gitCommit").isNull(), p.toString());
        }
    }
}

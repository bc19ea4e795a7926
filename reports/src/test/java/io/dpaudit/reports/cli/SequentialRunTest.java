package io.dpaudit.reports.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.dpaudit.reports.report.ReportSchemaFixture;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code run --until-resolved [--max-trials N]} and a scenario's {@code "stopping"}: the sequential audit stops at the
 * look that resolves every claim, says so in every report, refuses bad stopping input in one line (exit 2, nothing
 * written), and resumes from its checkpoint with the same numbers.
 */
class SequentialRunTest {
    private static final ObjectMapper JSON = new ObjectMapper();

    @TempDir
    Path dir;

    /** The sigma = 1 Gaussian mechanism; a claim of (1, 1e-5) is false (it needs epsilon 4.38 there). */
    private Path scenario(String name, String extra, String claims) throws IOException {
        return Files.writeString(dir.resolve(name), "{\"name\": \"" + name + "\", \"mechanism\": {\"type\": "
                + "\"gaussian\", \"sigma\": 1}, \"attack\": \"projection\", \"seed\": 3, \"deltas\": [1e-5], "
                + "\"epsilons\": [1]" + extra + ", \"claims\": [" + claims + "]}");
    }

    private static final String FALSE_CLAIM = "{\"label\": \"too good\", \"epsilon\": 1, \"delta\": 1e-5}";

    @Test
    void untilResolvedStopsAtTheLookThatRefutesAndReportsIt() throws Exception {
        Path s = scenario("broken.json", ", \"trials\": 10000000", FALSE_CLAIM);
        Path out = dir.resolve("out");
        CliRunner.Result r = CliRunner.run("run", s.toString(), "--until-resolved", "--out", out.toString(),
                "--quiet");
        assertEquals(3, r.exit(), r.err() + r.out());
        assertTrue(r.out().contains("sequential stopped after look"), r.out());
        JsonNode report = JSON.readTree(out.resolve("report.json").toFile());
        JsonNode stopping = report.get("stopping");
        assertEquals("sequential", stopping.get("rule").asText());
        assertEquals("resolved", stopping.get("stop").asText());
        assertEquals(10_000_000, stopping.get("maxTrials").asLong());
        long used = stopping.get("trialsUsed").asLong();
        assertTrue(used <= 15_000, "trials used " + used);
        assertEquals(used, report.get("trialsPerWorld").asLong());
        assertEquals("violated", report.get("claims").get(0).get("verdict").asText());
        int look = report.get("claims").get(0).get("look").asInt();
        assertEquals("violated", stopping.get("looks").get(look - 1).get("claims").get(0).asText());
        assertTrue(report.get("confidenceSplit").get("look").asDouble() > 0.95);
        assertEquals(List.of(), ReportSchemaFixture.validate(report));
        String md = Files.readString(out.resolve("report.md"));
        assertTrue(md.contains("## Sequential audit") && md.contains("every claim resolved"), md);
        assertTrue(Files.readString(out.resolve("report.html")).contains("Sequential audit"));
    }

    /** The scenario's own rule; the same numbers on one and two threads; a checkpoint resumes every stage. */
    @Test
    void aSequentialScenarioIsReproducibleAndResumesFromItsCheckpoint() throws Exception {
        Path s = scenario("correct.json", ", \"stopping\": {\"rule\": \"sequential\", \"maxTrials\": 40000, "
                + "\"firstStageTrials\": 2000}", "{\"epsilon\": 5, \"delta\": 1e-5}");
        Path checkpoint = dir.resolve("c.json");
        CliRunner.Result one = CliRunner.run("run", s.toString(), "--threads", "1", "--out",
                dir.resolve("a").toString(), "--checkpoint", checkpoint.toString(), "--quiet");
        assertEquals(0, one.exit(), one.err());
        JsonNode saved = JSON.readTree(checkpoint.toFile());
        assertEquals("sequential, first stage 2000", saved.get("stopping").asText());
        CliRunner.Result two = CliRunner.run("run", s.toString(), "--threads", "2", "--out",
                dir.resolve("b").toString(), "--quiet");
        assertEquals(0, two.exit(), two.err());
        CliRunner.Result resumed = CliRunner.run("run", s.toString(), "--out", dir.resolve("c").toString(),
                "--resume", checkpoint.toString(), "--quiet");
        assertEquals(0, resumed.exit(), resumed.err());
        JsonNode a = numbers(dir.resolve("a"));
        assertEquals(a, numbers(dir.resolve("b")));
        assertEquals(a, numbers(dir.resolve("c")));
        JsonNode looks = a.get("stopping").get("looks");
        assertTrue(looks.size() >= 1);
        assertEquals(2000, looks.get(0).get("trialsPerWorld").asLong());
    }

    /** A sequential run may not resume a fixed design's checkpoint of the same scenario, seed and trials. */
    @Test
    void aResumeMustRunTheSameDesign() throws Exception {
        Path s = scenario("fixed.json", ", \"trials\": 4000", "{\"epsilon\": 5, \"delta\": 1e-5}");
        Path checkpoint = dir.resolve("fixed-checkpoint.json");
        CliRunner.Result fixed = CliRunner.run("run", s.toString(), "--out", dir.resolve("f").toString(),
                "--checkpoint", checkpoint.toString(), "--quiet");
        assertEquals(0, fixed.exit(), fixed.err());
        CliRunner.Result other = CliRunner.run("run", s.toString(), "--until-resolved", "--out",
                dir.resolve("g").toString(), "--resume", checkpoint.toString(), "--quiet");
        assertEquals(2, other.exit(), other.err());
        assertTrue(other.err().contains("stopping rule"), other.err());
    }

    private static JsonNode numbers(Path reportDir) throws IOException {
        ObjectNode r = (ObjectNode) JSON.readTree(reportDir.resolve("report.json").toFile());
        r.remove(List.of("provenance", "elapsedSeconds", "trialsPerSecond", "roundsPerSecondPerCore", "environment",
                "tool", "threads"));
        for (JsonNode look : r.get("stopping").get("looks")) {
            ((ObjectNode) look).remove("elapsedSeconds");
        }
        return r;
    }

    @Test
    void badStoppingInputIsRefusedInOneLineNamingTheField() throws Exception {
        Path fixed = scenario("fixed.json", ", \"trials\": 20000", FALSE_CLAIM);
        refused(List.of("run", fixed.toString(), "--max-trials", "5000"), "--max-trials");
        refused(List.of("run", fixed.toString(), "--until-resolved", "--max-trials", "5000", "--trials", "6000"),
                "--trials");
        refused(List.of("run", scenario("rule.json", ", \"stopping\": {\"rule\": \"later\"}", FALSE_CLAIM)
                .toString()), "stopping.rule");
        refused(List.of("run", scenario("key.json", ", \"stopping\": {\"rule\": \"sequential\", \"max\": 5}",
                FALSE_CLAIM).toString()), "stopping.max");
        refused(List.of("run", scenario("conflict.json", ", \"trials\": 1000, \"stopping\": {\"rule\": "
                + "\"sequential\", \"maxTrials\": 5000}", FALSE_CLAIM).toString()), "trials");
        refused(List.of("run", scenario("first.json", ", \"stopping\": {\"rule\": \"sequential\", \"maxTrials\": "
                + "5000, \"firstStageTrials\": 6000}", FALSE_CLAIM).toString()), "stopping.firstStageTrials");
        refused(List.of("run", scenario("fixedmax.json", ", \"stopping\": {\"rule\": \"fixed\", \"maxTrials\": "
                + "5000}", FALSE_CLAIM).toString()), "stopping.maxTrials");
        refused(List.of("run", scenario("noclaims.json", ", \"trials\": 5000", "").toString(), "--until-resolved"),
                "stopping.rule");
    }

    /** {@code scores --until-resolved}: the files are read stage by stage in file order and the rest left unread. */
    @Test
    void scoreFilesAreAuditedSequentiallyInFileOrder() throws Exception {
        java.util.Random rng = new java.util.Random(5);
        StringBuilder a = new StringBuilder();
        StringBuilder b = new StringBuilder();
        for (int i = 0; i < 50_000; i++) {
            a.append(1 + rng.nextGaussian()).append('\n');
            b.append(rng.nextGaussian()).append('\n');
        }
        Path with = Files.writeString(dir.resolve("with.txt"), a);
        Path without = Files.writeString(dir.resolve("without.txt"), b);
        Path out = dir.resolve("scores");
        CliRunner.Result r = CliRunner.run("scores", "--with", with.toString(), "--without", without.toString(),
                "--claim", "1,1e-5", "--until-resolved", "--out", out.toString(), "--quiet");
        assertEquals(3, r.exit(), r.err() + r.out());
        JsonNode report = JSON.readTree(out.resolve("report.json").toFile());
        JsonNode stopping = report.get("stopping");
        assertEquals("resolved", stopping.get("stop").asText());
        assertEquals(50_000, stopping.get("maxTrials").asLong());
        assertTrue(stopping.get("trialsUsed").asLong() < 50_000, stopping.toString());
        assertEquals("sequential", report.get("scenario").get("stopping").get("rule").asText());
        assertEquals(List.of(), ReportSchemaFixture.validate(report));
        refused(List.of("scores", "--with", with.toString(), "--without", without.toString(), "--claim", "1,1e-5",
                "--max-trials", "1000"), "--max-trials");
        refused(List.of("scores", "--with", with.toString(), "--without", without.toString(), "--until-resolved"),
                "--until-resolved");
    }

    private void refused(List<String> args, String field) {
        Path out = dir.resolve("refused");
        List<String> all = new java.util.ArrayList<>(args);
        all.addAll(List.of("--out", out.toString(), "--quiet"));
        CliRunner.Result r = CliRunner.run(all.toArray(new String[0]));
        assertEquals(2, r.exit(), args + ": " + r.err());
        assertEquals(1, r.err().strip().lines().count(), r.err());
        assertTrue(r.err().contains(field), field + ": " + r.err());
        assertFalse(Files.exists(out), "nothing written for " + args);
    }
}

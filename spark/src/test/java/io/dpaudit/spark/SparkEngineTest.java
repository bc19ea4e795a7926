package io.dpaudit.spark;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.dpaudit.reports.cli.Main;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.api.Tag;

/**
 * The Spark runner on {@code local[2]} inside {@code mvn -B verify}: for the same scenario and seed, report.json is
 * identical in every number to the local engine's, for several partition counts — with a continuous score, a discrete
 * (ranked) one, the two-sided estimate, a learned distinguisher trained on each executor, and coupled trials (a
 * learned distinguisher of sparse vector Algorithm 1 on common random numbers), and a sequential audit (its stages and
 * its stopping look). And the bad inputs: an
 * unknown engine, an unreachable master, a checkpoint asked of Spark.
 */
@Tag("integration")
@org.junit.jupiter.api.parallel.Isolated("kills or times child processes, or starts a Spark context: alone")
class SparkEngineTest {
    private static final ObjectMapper JSON = new ObjectMapper();
    /** Timing, provenance and environment: everything else is compared. */
    private static final Set<String> VARYING = Set.of("provenance", "elapsedSeconds", "trialsPerSecond",
            "roundsPerSecondPerCore", "environment",
            "tool", "threads");

    @TempDir
    Path dir;

    record Run(int exit, String err) {
    }

    private static Run cli(String... args) {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        ByteArrayOutputStream err = new ByteArrayOutputStream();
        int exit;
        try (PrintStream o = new PrintStream(out, true, StandardCharsets.UTF_8);
                PrintStream e = new PrintStream(err, true, StandardCharsets.UTF_8)) {
            exit = Main.run(args, o, e);
        }
        return new Run(exit, err.toString(StandardCharsets.UTF_8));
    }

    private JsonNode numbers(Path report) throws IOException {
        ObjectNode r = (ObjectNode) JSON.readTree(report.resolve("report.json").toFile());
        r.remove(VARYING);
        if (r.has("stopping")) { // a sequential audit times each look
            r.get("stopping").path("looks").forEach(look -> ((ObjectNode) look).remove("elapsedSeconds"));
        }
        return r;
    }

    private JsonNode run(Path scenario, String name, String... extra) throws IOException {
        Path out = dir.resolve(name);
        List<String> args = new ArrayList<>(List.of("run", scenario.toString(), "--out", out.toString(), "--quiet"));
        args.addAll(List.of(extra));
        Run r = cli(args.toArray(String[]::new));
        assertTrue(r.exit() == 0 || r.exit() == 3, name + ": " + r.err());
        return numbers(out);
    }

    @Test
    void sparkGivesTheLocalEnginesNumbersForAnyPartitionCount() throws IOException {
        String[] scenarios = {
            // Continuous score, 5.5 shards, held-out selection, and the two-sided estimate.
            "{\"name\": \"gaussian\", \"mechanism\": {\"type\": \"poisson-subsampled-gaussian\", \"q\": 0.1, "
                + "\"sigma\": 1}, \"trials\": 5800000, \"seed\": 11, \"estimate\": true, \"deltas\": [1e-5], "
                + "\"claims\": [{\"epsilon\": 1, \"delta\": 1e-5}]}",
            // A discrete score counted exactly (ranks), Bonferroni selection.
            "{\"name\": \"shuffle\", \"mechanism\": {\"type\": \"shuffled-randomizer\", \"clients\": 50, \"eps0\": 2}, "
                + "\"trials\": 3000000, \"seed\": 12, \"thresholdSelection\": {\"method\": \"bonferroni\"}}",
            // A black box with the learned distinguisher: each executor trains the same model from the seed.
            "{\"name\": \"svt\", \"mechanism\": {\"type\": \"sparse-vector\", \"variant\": 4, \"epsilon\": 0.1, "
                + "\"d\": \"1,1,1,1,1\", \"dPrime\": \"2,2,0,0,0\"}, \"attack\": \"learned\", \"trials\": 2500000, "
                + "\"seed\": 13, \"deltas\": [0], \"claims\": [{\"epsilon\": 0.1, \"delta\": 0}]}",
            // Coupled trials (common random numbers): executors count the four coupled histograms.
            "{\"name\": \"svt-coupled\", \"mechanism\": {\"type\": \"sparse-vector\", \"variant\": 1, "
                + "\"epsilon\": 0.1, \"c\": 1, \"threshold\": 0.5, \"d\": \"0,0,0,0,0,1,1,1,1,1\", \"dPrime\": \"1,1,1,1,1,0,0,0,0,0\"}, "
                + "\"simulator\": {\"kind\": \"reduced\", \"coupling\": \"common-random-numbers\"}, \"attack\": "
                + "\"learned\", \"trials\": 2500000, \"seed\": 14, \"deltas\": [0, 1e-6], \"claims\": [{\"epsilon\": "
                + "0.1, \"delta\": 0}, {\"epsilon\": 0.05, \"delta\": 1e-4}]}",
            // A sequential audit: stage-k and estimate-stage-k phases, stopped when both claims are resolved.
            "{\"name\": \"gaussian-sequential\", \"mechanism\": {\"type\": \"poisson-subsampled-gaussian\", "
                + "\"q\": 0.1, \"sigma\": 1}, \"seed\": 15, \"estimate\": true, \"deltas\": [1e-5], \"stopping\": "
                + "{\"rule\": \"sequential\", \"maxTrials\": 2000000}, \"claims\": [{\"epsilon\": 0.3, \"delta\": "
                + "1e-5}]}"};
        for (int i = 0; i < scenarios.length; i++) {
            Path s = Files.writeString(dir.resolve("s" + i + ".json"), scenarios[i]);
            JsonNode local = run(s, "local" + i);
            if (local.get("stopping").get("rule").asText().equals("sequential")) {
                assertTrue(local.get("stopping").get("trialsUsed").asLong() < 2_000_000, "stops early: " + local);
            }
            for (String p : new String[] {"1", "2", "5"}) {
                JsonNode spark = run(s, "spark" + i + "-" + p, "--engine", "spark", "--master", "local[2]",
                        "--partitions", p);
                assertEquals(local, spark, "scenario " + i + " on " + p + " partitions");
            }
        }
    }

    /**
     * {@code --until-resolved} lives on the driver's command line, not in the scenario text the executors read, yet it
     * decides the estimate's method ({@code auto}: importance sampling at δ = 1e-7 in a fixed design of 10^6 trials,
     * plain in a sequential one) and with it the attack's simulator: the executors must prepare the same audit.
     */
    @Test
    void untilResolvedOnTheCommandLineReachesTheExecutors() throws IOException {
        Path s = Files.writeString(dir.resolve("auto.json"), "{\"name\": \"auto\", \"mechanism\": {\"type\": "
                + "\"gaussian\", \"sigma\": 1}, \"trials\": 1000000, \"seed\": 16, \"estimate\": true, \"deltas\": "
                + "[1e-7], \"claims\": [{\"epsilon\": 1, \"delta\": 1e-7}]}");
        JsonNode local = run(s, "auto-local", "--until-resolved");
        assertEquals("plain", local.get("estimate").get("method").asText());
        assertEquals(local, run(s, "auto-spark", "--until-resolved", "--engine", "spark", "--master", "local[2]",
                "--partitions", "2"));
    }

    /** The phases really run as Spark tasks: progress names them. */
    @Test
    void progressNamesTheSparkTasks() throws IOException {
        Path s = Files.writeString(dir.resolve("p.json"), "{\"mechanism\": {\"type\": \"gaussian\", \"sigma\": 1}, "
                + "\"trials\": 3000000, \"seed\": 1}");
        Run r = cli("run", s.toString(), "--out", dir.resolve("p").toString(), "--engine", "spark", "--master",
                "local[2]", "--partitions", "3");
        assertEquals(0, r.exit(), r.err());
        assertTrue(r.err().contains("evaluation 2700000 trials per world: 3 shards in 3 Spark tasks on local[2]"),
                r.err());
    }

    @Test
    void badSparkInputsAreOneLineAndWriteNothing() throws IOException {
        Path s = Files.writeString(dir.resolve("b.json"), "{\"mechanism\": {\"type\": \"gaussian\", \"sigma\": 1}, "
                + "\"trials\": 20000}");
        String[][] cases = {
            {"--engine", "flink", "--engine = flink: must be local or spark"},
            {"--engine", "spark", "--master", "spark://127.0.0.1:1", "--master = spark://127.0.0.1:1: unreachable"},
            {"--engine", "spark", "--master", "moon://x", "--master = moon://x: not a Spark master URL"},
            {"--engine", "spark", "--checkpoint", "cp.json", "--checkpoint = cp.json: applies to the local engine"},
            {"--master", "local[2]", "--master = local[2]: applies to --engine spark"},
        };
        for (String[] c : cases) {
            Path out = dir.resolve("never");
            List<String> args = new ArrayList<>(List.of("run", s.toString(), "--out", out.toString(), "--quiet"));
            args.addAll(List.of(c).subList(0, c.length - 1));
            Run r = cli(args.toArray(String[]::new));
            assertEquals(2, r.exit(), r.err());
            assertEquals(1, r.err().strip().lines().count(), r.err());
            assertTrue(r.err().contains(c[c.length - 1]), r.err());
            assertFalse(Files.exists(out));
        }
    }
}

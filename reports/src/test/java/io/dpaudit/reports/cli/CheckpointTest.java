package io.dpaudit.reports.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Set;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.api.Tag;

/**
 * Checkpoint and resume: a run killed with {@code kill -9} part-way through a phase and resumed from its checkpoint
 * reports exactly the numbers of an uninterrupted run; SIGINT stops with exit 130, keeps the checkpoint and writes no
 * report; a checkpoint of another scenario, seed or version is refused in one line.
 */
@Tag("integration")
@org.junit.jupiter.api.parallel.Isolated("kills or times child processes, or starts a Spark context: alone")
class CheckpointTest {
    private static final ObjectMapper JSON = new ObjectMapper();
    /** Fields that are timing, provenance or prose (the rest are numbers that must match). */
    private static final Set<String> VARYING = Set.of("provenance", "elapsedSeconds", "trialsPerSecond",
            "roundsPerSecondPerCore", "environment",
            "tool");

    @TempDir
    Path dir;

    /**
     * 100 rounds of the Gaussian mechanism at 10^8 trials: 86 evaluation shards of about 18 ms each on one thread (with a
     * checkpoint written after each), so that a signal sent once the first shard is saved arrives with about 1.5 s of
     * the phase left (at the 3·10^6 trials used before, the whole child ran in 0.9 s with 3 shards: a race).
     */
    private Path scenario(String name, long seed) throws IOException {
        return scenario(name, seed, 100_000_000L);
    }

    private Path scenario(String name, long seed, long trials) throws IOException {
        return Files.writeString(dir.resolve(name), "{\"name\": \"checkpointed\", \"mechanism\": {\"type\": "
                + "\"gaussian\", \"sigma\": 10, \"rounds\": 100}, \"attack\": \"projection\", \"trials\": " + trials
                + ", \"seed\": " + seed + ", \"deltas\": [1e-5], \"epsilons\": [0, 1], \"claims\": [{\"epsilon\": 5, "
                + "\"delta\": 1e-5}]}");
    }

    private static JsonNode numbers(Path reportDir) throws IOException {
        ObjectNode r = (ObjectNode) JSON.readTree(reportDir.resolve("report.json").toFile());
        r.remove(VARYING);
        return r;
    }

    private Process child(Path scenario, Path checkpoint, Path out) throws IOException {
        String java = Path.of(System.getProperty("java.home"), "bin", "java").toString();
        return new ProcessBuilder(java, "-Ddpaudit.checkpoint.intervalMillis=0", "-cp",
                System.getProperty("java.class.path"), Main.class.getName(), "run", scenario.toString(),
                "--checkpoint", checkpoint.toString(), "--out", out.toString(), "--threads", "1", "--quiet")
                .redirectErrorStream(true).redirectOutput(dir.resolve("child.log").toFile()).start();
    }

    /** Waits until the checkpoint holds at least {@code shards} evaluation shards (or the child ends). */
    private static void awaitProgress(Path checkpoint, Process p, int shards) throws Exception {
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(120);
        while (System.nanoTime() < deadline && p.isAlive()) {
            if (Files.exists(checkpoint)) {
                try {
                    JsonNode c = JSON.readTree(checkpoint.toFile());
                    if (c.path("phases").path("evaluation").path("shardsDone").asInt() >= shards) {
                        return;
                    }
                } catch (IOException partial) {
                    // renamed into place atomically: a read never sees a partial file, but retry anyway
                }
            }
            Thread.sleep(20);
        }
    }

    @Test
    void killedThenResumedGivesTheNumbersOfAnUninterruptedRun() throws Exception {
        killResumeAndCompare(scenario("s.json", 7), "");
    }

    /**
     * The same with coupled trials (both worlds on common random numbers): the Laplace mechanism of the zoo, 10^8
     * coupled trials, 86 evaluation shards of about 50 ms on one thread. The checkpoint holds each phase's four
     * histograms; one whose phases claim to hold trials of each world apart (checksum recomputed) is refused.
     */
    @Test
    void coupledTrialsKilledThenResumedGiveTheNumbersOfAnUninterruptedRun() throws Exception {
        Path s = Files.writeString(dir.resolve("coupled.json"), "{\"name\": \"coupled\", \"mechanism\": {\"type\": "
                + "\"laplace\", \"epsilon\": 0.1, \"d\": 1, \"dPrime\": 2}, \"simulator\": {\"kind\": \"reduced\", "
                + "\"coupling\": \"common-random-numbers\"}, \"attack\": \"statistic\", \"trials\": 100000000, "
                + "\"seed\": 7, \"deltas\": [0], \"epsilons\": [0.1], \"claims\": [{\"epsilon\": 0.1, \"delta\": 0}]}");
        Path cp = killResumeAndCompare(s, "c-");
        ObjectNode root = (ObjectNode) JSON.readTree(cp.toFile());
        assertEquals("coupled", root.path("phases").path("evaluation").path("trialKind").asText(), root.toString());
        assertTrue(root.path("phases").path("evaluation").has("smaller"));
        ((ObjectNode) root.path("phases").path("selection")).put("trialKind", "independent");
        root.remove("sha256");
        root.put("sha256", java.util.HexFormat.of().formatHex(java.security.MessageDigest.getInstance("SHA-256")
                .digest(JSON.writeValueAsString(root).getBytes(java.nio.charset.StandardCharsets.UTF_8))));
        Path other = Files.writeString(dir.resolve("c-other-kind.json"), JSON.writeValueAsString(root));
        CliRunner.Result r = CliRunner.run("run", s.toString(), "--resume", other.toString(), "--out",
                dir.resolve("c-never").toString(), "--quiet");
        assertEquals(2, r.exit(), r.err());
        assertEquals(1, r.err().strip().lines().count(), r.err());
        assertTrue(r.err().contains("holds trials of each world apart"), r.err());
        assertFalse(Files.exists(dir.resolve("c-never")));
    }

    /**
     * Runs {@code s} whole, then in a child killed with {@code kill -9} after its first evaluation shard is saved,
     * resumes the child's checkpoint and asserts the same numbers; returns the checkpoint.
     */
    private Path killResumeAndCompare(Path s, String tag) throws Exception {
        CliRunner.Result whole = CliRunner.run("run", s.toString(), "--out", dir.resolve(tag + "whole").toString(),
                "--quiet");
        assertEquals(0, whole.exit(), whole.err());
        Path cp = dir.resolve(tag + "cp.json");
        Process p = child(s, cp, dir.resolve(tag + "killed"));
        awaitProgress(cp, p, 1);
        assertTrue(p.isAlive(), "the child finished before it could be killed: " + Files.readString(
                dir.resolve("child.log")));
        p.destroyForcibly(); // kill -9
        assertTrue(p.waitFor(30, TimeUnit.SECONDS));
        JsonNode saved = JSON.readTree(cp.toFile());
        int done = saved.path("phases").path("evaluation").path("shardsDone").asInt();
        int total = saved.path("phases").path("evaluation").path("shardCount").asInt();
        assertTrue(done >= 1 && done < total, "killed mid-phase: " + done + " of " + total);
        assertFalse(Files.exists(dir.resolve(tag + "killed").resolve("report.json")), "no report from a killed run");
        CliRunner.Result resumed = CliRunner.run("run", s.toString(), "--resume", cp.toString(), "--out",
                dir.resolve(tag + "resumed").toString(), "--quiet");
        assertEquals(0, resumed.exit(), resumed.err());
        assertEquals(numbers(dir.resolve(tag + "whole")), numbers(dir.resolve(tag + "resumed")));
        JsonNode after = JSON.readTree(cp.toFile());
        assertEquals(total, after.path("phases").path("evaluation").path("shardsDone").asInt(), "completed");
        return cp;
    }

    /**
     * Whether this process ignores SIGINT (Linux: bit 2 of {@code SigIgn} in /proc/self/status). A process started in
     * the background of a non-interactive shell ({@code mvn verify &}) does, its children inherit it, and a JVM that
     * starts with SIGINT ignored keeps it ignored: such a child cannot be interrupted, whatever dp-audit does.
     */
    static boolean sigintIgnored() {
        try {
            for (String line : Files.readAllLines(Path.of("/proc/self/status"))) {
                if (line.startsWith("SigIgn:")) {
                    return (Long.parseUnsignedLong(line.substring(7).trim(), 16) & 0x2L) != 0;
                }
            }
        } catch (IOException | RuntimeException notLinux) {
            return false;
        }
        return false;
    }

    @Test
    void interruptStopsWith130KeepsTheCheckpointAndWritesNoReport() throws Exception {
        org.junit.jupiter.api.Assumptions.assumeFalse(sigintIgnored(), "SIGINT is ignored in this process (started "
                + "in the background of a non-interactive shell), so its children cannot be interrupted");
        Path s = scenario("i.json", 8, 300_000_000L); // never resumed: 258 shards, about 4.5 s left at the signal
        Path cp = dir.resolve("int.json");
        Path out = dir.resolve("interrupted");
        Process p = child(s, cp, out);
        awaitProgress(cp, p, 1);
        assertTrue(p.isAlive());
        new ProcessBuilder("kill", "-INT", Long.toString(p.pid())).start().waitFor();
        assertTrue(p.waitFor(30, TimeUnit.SECONDS));
        assertEquals(130, p.exitValue());
        assertTrue(JSON.readTree(cp.toFile()).path("phases").path("evaluation").path("shardsDone").asInt() >= 1);
        assertFalse(Files.exists(out.resolve("report.json")));
    }

    /**
     * A checkpoint edited after dp-audit wrote it — counts shifted by 40 slots with the totals kept, counts doubled,
     * a negative count, shards done beyond the shard count, an unknown phase, trailing garbage — is refused in one line
     * (by its checksum first, by the structural checks when the checksum is recomputed to match), never resumed; the
     * intact file still resumes to the uninterrupted numbers.
     */
    @Test
    void aTamperedCheckpointIsRefusedAndAnIntactOneResumes() throws Exception {
        Path s = scenario("t.json", 11);
        Path cp = dir.resolve("t-cp.json");
        CliRunner.Result r = CliRunner.run("run", s.toString(), "--trials", "100000", "--checkpoint", cp.toString(),
                "--out", dir.resolve("t-out").toString(), "--quiet");
        assertEquals(0, r.exit(), r.err());
        String intact = Files.readString(cp);
        com.fasterxml.jackson.databind.node.ObjectNode root = (com.fasterxml.jackson.databind.node.ObjectNode)
                JSON.readTree(intact);
        com.fasterxml.jackson.databind.node.ObjectNode eval = (com.fasterxml.jackson.databind.node.ObjectNode) root
                .path("phases").path("evaluation");
        List<java.util.function.Consumer<com.fasterxml.jackson.databind.node.ObjectNode>> edits = List.of(
            e -> shiftSlots(e, 40),
            e -> scaleCounts(e, 2),
            e -> ((com.fasterxml.jackson.databind.node.ArrayNode) e.path("withCanary").path("counts")).set(0,
                    -5),
            e -> e.put("shardsDone", e.path("shardCount").asLong() + 3));
        int k = 0;
        for (var edit : edits) {
            for (boolean rehash : new boolean[] {false, true}) {
                com.fasterxml.jackson.databind.node.ObjectNode copy = root.deepCopy();
                edit.accept((com.fasterxml.jackson.databind.node.ObjectNode) copy.path("phases").path("evaluation"));
                if (rehash) { // a forger who recomputes the checksum: the structure must still give it away
                    copy.remove("sha256");
                    copy.put("sha256", java.util.HexFormat.of().formatHex(java.security.MessageDigest
                            .getInstance("SHA-256").digest(JSON.writeValueAsString(copy).getBytes(
                                    java.nio.charset.StandardCharsets.UTF_8))));
                }
                Path bad = dir.resolve("t-bad-" + k++ + ".json");
                Files.writeString(bad, JSON.writeValueAsString(copy));
                CliRunner.Result res = CliRunner.run("run", s.toString(), "--trials", "100000", "--resume",
                        bad.toString(), "--checkpoint", dir.resolve("t-new-" + k + ".json").toString(), "--out",
                        dir.resolve("t-never-" + k).toString(), "--quiet");
                boolean shifted = k <= 2;
                if (rehash && shifted) {
                    // counts moved between slots with the totals kept and the checksum recomputed: indistinguishable
                    // from a real run's counts by structure; only the checksum guards it, which a forger can redo
                    continue;
                }
                assertEquals(2, res.exit(), "edit " + k + ": " + res.err());
                assertEquals(1, res.err().strip().lines().count(), res.err());
                assertFalse(Files.exists(dir.resolve("t-never-" + k)));
            }
        }
        Path garbage = dir.resolve("t-garbage.json");
        Files.writeString(garbage, intact.strip() + " {}\n");
        CliRunner.Result g = CliRunner.run("run", s.toString(), "--trials", "100000", "--resume", garbage.toString(),
                "--checkpoint", dir.resolve("t-g2.json").toString(), "--out", dir.resolve("t-never-g").toString(),
                "--quiet");
        assertEquals(2, g.exit(), g.err());
        Path copy = dir.resolve("t-intact.json");
        Files.writeString(copy, intact);
        CliRunner.Result ok = CliRunner.run("run", s.toString(), "--trials", "100000", "--resume", copy.toString(),
                "--out", dir.resolve("t-resumed").toString(), "--quiet");
        assertEquals(0, ok.exit(), ok.err());
        assertEquals(numbers(dir.resolve("t-out")), numbers(dir.resolve("t-resumed")));
        assertTrue(eval.isObject());
    }

    private static void shiftSlots(com.fasterxml.jackson.databind.node.ObjectNode phase, int by) {
        for (String side : new String[] {"withCanary", "withoutCanary"}) {
            com.fasterxml.jackson.databind.node.ArrayNode slots = (com.fasterxml.jackson.databind.node.ArrayNode)
                    phase.path(side).path("slots");
            for (int i = 0; i < slots.size(); i++) {
                slots.set(i, slots.get(i).asInt() + by);
            }
        }
    }

    private static void scaleCounts(com.fasterxml.jackson.databind.node.ObjectNode phase, int by) {
        for (String side : new String[] {"withCanary", "withoutCanary"}) {
            com.fasterxml.jackson.databind.node.ArrayNode counts = (com.fasterxml.jackson.databind.node.ArrayNode)
                    phase.path(side).path("counts");
            for (int i = 0; i < counts.size(); i++) {
                counts.set(i, counts.get(i).asLong() * by);
            }
        }
    }

    @Test
    void aCheckpointOfAnotherAuditIsRefused() throws Exception {
        Path s = scenario("a.json", 9);
        Path cp = dir.resolve("a-cp.json");
        // A complete checkpoint from a short run of this scenario.
        CliRunner.Result r = CliRunner.run("run", s.toString(), "--trials", "100000", "--checkpoint", cp.toString(),
                "--out", dir.resolve("a-out").toString(), "--quiet");
        assertEquals(0, r.exit(), r.err());
        List<String[]> cases = List.of(
                new String[] {"--seed", "10", "its seed is 9, this run's 10"},
                new String[] {"--trials", "200000", "its trials per world is 100000, this run's 200000"});
        for (String[] c : cases) {
            Path out = dir.resolve("never-" + c[0].substring(2));
            CliRunner.Result bad = CliRunner.run("run", s.toString(), "--trials", c[0].equals("--trials") ? c[1]
                    : "100000", "--seed", c[0].equals("--seed") ? c[1] : "9", "--resume", cp.toString(), "--out",
                    out.toString());
            assertEquals(2, bad.exit(), bad.err());
            assertTrue(bad.err().strip().contains(c[2]), bad.err());
            assertEquals(1, bad.err().strip().lines().count(), bad.err());
            assertFalse(Files.exists(out));
        }
        Path other = scenario("b.json", 9);
        Files.writeString(other, Files.readString(other).replace("\"sigma\": 10", "\"sigma\": 11"));
        CliRunner.Result scenarioChanged = CliRunner.run("run", other.toString(), "--trials", "100000", "--resume",
                cp.toString(), "--out", dir.resolve("never-b").toString(), "--quiet");
        assertEquals(2, scenarioChanged.exit());
        assertTrue(scenarioChanged.err().contains("its scenario (SHA-256 of the file) is"), scenarioChanged.err());
        Files.writeString(cp, Files.readString(cp).replaceFirst("\"toolVersion\":\"[^\"]*\"",
                "\"toolVersion\":\"0.0.1\""));
        CliRunner.Result version = CliRunner.run("run", s.toString(), "--trials", "100000", "--resume", cp.toString(),
                "--out", dir.resolve("never-v").toString(), "--quiet");
        assertEquals(2, version.exit());
        assertTrue(version.err().contains("its tool version is 0.0.1"), version.err());
        Files.writeString(cp, "{\"not\": \"a checkpoint\"}");
        CliRunner.Result garbage = CliRunner.run("run", s.toString(), "--resume", cp.toString(), "--out",
                dir.resolve("never-g").toString(), "--quiet");
        assertEquals(2, garbage.exit());
        assertTrue(garbage.err().contains("is not a dp-audit checkpoint"), garbage.err());
    }

    /**
     * No output may overwrite an input: a checkpoint (or a resumed one) named as the scenario, by any spelling (a
     * relative path through {@code ..}, a symbolic link, a hard link), or an {@code --out} whose report files would land
     * on the scenario or the checkpoint, is refused in one line before any work, and the scenario keeps its bytes.
     */
    @Test
    void outputsNeverOverwriteInputs() throws Exception {
        Path s = scenario("s.json", 3);
        byte[] original = Files.readAllBytes(s);
        Files.createDirectories(dir.resolve("sub"));
        Path link = Files.createSymbolicLink(dir.resolve("link.json"), s);
        Path hard = Files.createLink(dir.resolve("hard.json"), s);
        Path outWithScenario = Files.createDirectories(dir.resolve("reports"));
        Path scenarioInOut = Files.write(outWithScenario.resolve("report.json"), original);
        String[][] cases = {
            {"run", s.toString(), "--checkpoint", s.toString(), "--trials", "1000", "--out", dir.resolve("o1").toString()},
            {"run", s.toString(), "--checkpoint", dir.resolve("sub/../s.json").toString(), "--trials", "1000", "--out",
                dir.resolve("o2").toString()},
            {"run", s.toString(), "--checkpoint", link.toString(), "--trials", "1000", "--out", dir.resolve("o3").toString()},
            {"run", s.toString(), "--checkpoint", hard.toString(), "--trials", "1000", "--out", dir.resolve("o4").toString()},
            {"run", s.toString(), "--resume", s.toString(), "--trials", "1000", "--out", dir.resolve("o5").toString()},
            {"run", scenarioInOut.toString(), "--trials", "1000", "--out", outWithScenario.toString()},
            {"run", s.toString(), "--checkpoint", dir.resolve("o7/report.json").toString(), "--trials", "1000", "--out",
                dir.resolve("o7").toString()},
            {"scores", "--with", scenarioInOut.toString(), "--without", s.toString(), "--out",
                outWithScenario.toString()},
        };
        for (String[] c : cases) {
            CliRunner.Result r = CliRunner.run(append(c, "--quiet"));
            assertEquals(2, r.exit(), String.join(" ", c) + ": " + r.err());
            assertEquals(1, r.err().strip().lines().count(), r.err());
            assertTrue(r.err().contains("an output must never overwrite an input"), r.err());
        }
        assertTrue(java.util.Arrays.equals(original, Files.readAllBytes(s)), "the scenario keeps its bytes");
        assertTrue(java.util.Arrays.equals(original, Files.readAllBytes(scenarioInOut)));
        for (int i = 1; i <= 7; i++) {
            assertFalse(Files.exists(dir.resolve("o" + i)), "o" + i);
        }
        // The same options on distinct files still work.
        CliRunner.Result fine = CliRunner.run("run", s.toString(), "--checkpoint", dir.resolve("cp.json").toString(),
                "--trials", "1000", "--out", dir.resolve("fine").toString(), "--quiet");
        assertEquals(0, fine.exit(), fine.err());
    }

    private static String[] append(String[] a, String b) {
        String[] out = java.util.Arrays.copyOf(a, a.length + 1);
        out[a.length] = b;
        return out;
    }
}

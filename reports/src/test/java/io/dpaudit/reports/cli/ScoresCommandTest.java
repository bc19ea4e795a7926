package io.dpaudit.reports.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.DataOutputStream;
import java.io.IOException;
import java.io.OutputStream;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.zip.GZIPOutputStream;
import org.apache.commons.rng.UniformRandomProvider;
import org.apache.commons.rng.sampling.distribution.ZigguratSampler;
import org.apache.commons.rng.simple.RandomSource;
import org.junit.jupiter.api.Assumptions;
import io.dpaudit.runner.text.Format;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code dp-audit scores}: every format reads the same scores the same way, the bounds agree with {@code run} on the
 * same mechanism within the estimator's own randomness, and bad files are refused with their file and line.
 */
class ScoresCommandTest {
    private static final ObjectMapper JSON = new ObjectMapper();

    @TempDir
    Path dir;

    /** n scores of N(mean, 1), from a seeded generator. */
    static double[] gaussian(int n, double mean, long seed) {
        UniformRandomProvider rng = RandomSource.XO_SHI_RO_256_PP.create(seed);
        ZigguratSampler.NormalizedGaussian g = ZigguratSampler.NormalizedGaussian.of(rng);
        double[] x = new double[n];
        for (int i = 0; i < n; i++) {
            x[i] = mean + g.sample();
        }
        return x;
    }

    /** A .npy file (format 1.0, little-endian float64 or float32, shape (n,)) as numpy.save writes it. */
    static void writeNpy(Path file, double[] values, boolean float32, boolean gzip) throws IOException {
        try (OutputStream raw = Files.newOutputStream(file);
                OutputStream os = gzip ? new GZIPOutputStream(raw) : raw;
                DataOutputStream out = new DataOutputStream(os)) {
            String dict = "{'descr': '<f" + (float32 ? 4 : 8) + "', 'fortran_order': False, 'shape': ("
                    + values.length + ",), }";
            int total = 10 + dict.length() + 1;
            int pad = (64 - total % 64) % 64;
            String header = dict + " ".repeat(pad) + "\n";
            out.write(new byte[] {(byte) 0x93, 'N', 'U', 'M', 'P', 'Y', 1, 0});
            out.write(header.length() & 0xff);
            out.write(header.length() >>> 8);
            out.write(header.getBytes(StandardCharsets.ISO_8859_1));
            ByteBuffer b = ByteBuffer.allocate(values.length * (float32 ? 4 : 8)).order(ByteOrder.LITTLE_ENDIAN);
            for (double v : values) {
                if (float32) {
                    b.putFloat((float) v);
                } else {
                    b.putDouble(v);
                }
            }
            out.write(b.array());
        }
    }

    static void writeText(Path file, double[] values, String header, boolean gzip) throws IOException {
        try (OutputStream raw = Files.newOutputStream(file); OutputStream os = gzip ? new GZIPOutputStream(raw) : raw) {
            StringBuilder s = new StringBuilder(header == null ? "" : header + "\n");
            for (double v : values) {
                s.append(v).append('\n');
            }
            os.write(s.toString().getBytes(StandardCharsets.UTF_8));
        }
    }

    private JsonNode scores(Path with, Path without, String... extra) throws IOException {
        Path out = dir.resolve("out-" + System.nanoTime());
        List<String> args = new ArrayList<>(List.of("scores", "--with", with.toString(), "--without",
                without.toString(), "--out", out.toString(), "--quiet"));
        args.addAll(List.of(extra));
        CliRunner.Result r = CliRunner.run(args.toArray(String[]::new));
        assertTrue(r.exit() == 0 || r.exit() == 3, r.err());
        return JSON.readTree(out.resolve("report.json").toFile());
    }

    private static double epsilonAt(JsonNode report, double delta) {
        for (JsonNode e : report.path("empirical").path("epsilonLowerBounds")) {
            if (e.path("delta").asDouble() == delta) {
                return e.path("epsilon").asDouble();
            }
        }
        throw new AssertionError("no bound at " + delta);
    }

    private static double deltaAt(JsonNode report, double epsilon) {
        for (JsonNode e : report.path("empirical").path("deltaLowerBounds")) {
            if (e.path("epsilon").asDouble() == epsilon) {
                return e.path("delta").asDouble();
            }
        }
        throw new AssertionError("no bound at " + epsilon);
    }

    @Test
    void everyFormatReadsTheSameScores() throws Exception {
        double[] a = gaussian(50_000, 1, 1);
        double[] b = gaussian(50_000, 0, 2);
        List<JsonNode> reports = new ArrayList<>();
        writeNpy(dir.resolve("a.npy"), a, false, false);
        writeNpy(dir.resolve("b.npy"), b, false, false);
        reports.add(scores(dir.resolve("a.npy"), dir.resolve("b.npy")));
        writeText(dir.resolve("a.txt"), a, null, false);
        writeText(dir.resolve("b.txt"), b, null, false);
        reports.add(scores(dir.resolve("a.txt"), dir.resolve("b.txt")));
        writeText(dir.resolve("a.csv.gz"), a, "score", true);
        writeNpy(dir.resolve("b.npy.gz"), b, false, true);
        reports.add(scores(dir.resolve("a.csv.gz"), dir.resolve("b.npy.gz")));
        for (JsonNode r : reports.subList(1, reports.size())) {
            assertEquals(reports.get(0).path("empirical"), r.path("empirical"), "same scores, same bounds");
        }
        JsonNode p = reports.get(2).path("mechanism").path("parameters");
        assertEquals("external-scores", reports.get(2).path("mechanism").path("type").asText());
        assertEquals(50_000, p.path("withScores").asLong());
        assertEquals(Files.size(dir.resolve("a.csv.gz")), p.path("withBytes").asLong());
        assertEquals(64, p.path("withSha256").asText().length());
        // The membership-inference view: N(1, 1) against N(0, 1) has AUROC Φ(1/√2) = 0.7602.
        for (JsonNode r : reports.subList(1, reports.size())) {
            assertEquals(reports.get(0).path("auroc"), r.path("auroc"), "same scores, same AUROC");
            assertEquals(reports.get(0).path("tprAtFpr"), r.path("tprAtFpr"), "same scores, same TPR at FPR");
        }
        JsonNode auroc = reports.get(0).path("auroc");
        assertTrue(auroc.path("lower").asDouble() <= 0.7602 && 0.7602 <= auroc.path("upper").asDouble(),
                auroc.toString());
        assertEquals(4, reports.get(0).path("tprAtFpr").size());
        List<?> schemaErrors = io.dpaudit.reports.report.ReportSchemaFixture.validate(reports.get(2));
        assertTrue(schemaErrors.isEmpty(), "report.json of external scores validates against the schema: "
                + schemaErrors);
        // float32 scores are read as float32 (rounded): close to, not equal to, the float64 result.
        writeNpy(dir.resolve("a32.npy"), a, true, false);
        writeNpy(dir.resolve("b32.npy"), b, true, false);
        JsonNode f32 = scores(dir.resolve("a32.npy"), dir.resolve("b32.npy"));
        assertEquals(deltaAt(reports.get(0), 0), deltaAt(f32, 0), 1e-3);
    }

    /** The console shows the AUROC and the TPR at each target FPR with their intervals; report.html the ROC curve. */
    @Test
    void theMembershipInferenceViewReachesTheConsoleAndTheRocPlot() throws Exception {
        writeText(dir.resolve("w.txt"), gaussian(20_000, 1, 5), null, false);
        writeText(dir.resolve("o.txt"), gaussian(20_000, 0, 6), null, false);
        Path out = dir.resolve("roc");
        CliRunner.Result r = CliRunner.run("scores", "--with", dir.resolve("w.txt").toString(), "--without",
                dir.resolve("o.txt").toString(), "--out", out.toString(), "--quiet");
        assertEquals(0, r.exit(), r.err());
        assertTrue(r.out().contains("  AUROC            0.7") && r.out().contains("  TPR at FPR 0.001  "), r.out());
        String html = Files.readString(out.resolve("report.html"));
        assertTrue(html.contains("ROC curve of the evaluation scores on log axes"), "ROC figure");
        assertTrue(html.contains("empirical ROC of the evaluation scores") && html.contains(">1e-3</text>"),
                "log axes down to 1e-4 for 18,000 evaluation scores");
    }

    /**
     * The bounds from score files equal those {@code run} gets on the same mechanism (the Gaussian, sigma = 1, whose
     * attack scores the output itself) within the estimator's randomness. Both use 10^6 scores per world and a tenth
     * of them to choose the test, from independent samples (a fixed seed each). Over 20 seeds of {@code run} at 10^6
     * trials the standard deviations were 0.16 for epsilon at delta = 1e-5, 0.0005 for delta at epsilon = 0 and
     * 0.0008 at epsilon = 1; the check allows a difference of about 4 standard deviations of a difference (0.9,
     * 0.003, 0.005): a false failure has probability below 1e-4 for a random seed.
     */
    @Test
    void sameBoundsAsRunWithinTheEstimatorsRandomness() throws IOException {
        writeNpy(dir.resolve("with.npy"), gaussian(1_000_000, 1, 21), false, false);
        writeNpy(dir.resolve("without.npy"), gaussian(1_000_000, 0, 22), false, false);
        JsonNode fromFiles = scores(dir.resolve("with.npy"), dir.resolve("without.npy"), "--deltas", "1e-5",
                "--epsilons", "0,1", "--seed", "5");
        Path scenario = dir.resolve("g.json");
        Files.writeString(scenario, "{\"mechanism\": {\"type\": \"gaussian\", \"sigma\": 1}, \"deltas\": [1e-5], "
                + "\"epsilons\": [0, 1]}");
        Path out = dir.resolve("run");
        CliRunner.Result r = CliRunner.run("run", scenario.toString(), "--trials", "1000000", "--seed", "5", "--out",
                out.toString(), "--quiet");
        assertEquals(0, r.exit(), r.err());
        JsonNode fromRun = JSON.readTree(out.resolve("report.json").toFile());
        System.out.printf("[scores vs run] eps(1e-5) %.4f vs %.4f, delta(0) %.5f vs %.5f, delta(1) %.5f vs %.5f%n",
                epsilonAt(fromFiles, 1e-5), epsilonAt(fromRun, 1e-5), deltaAt(fromFiles, 0), deltaAt(fromRun, 0),
                deltaAt(fromFiles, 1), deltaAt(fromRun, 1));
        assertEquals(epsilonAt(fromRun, 1e-5), epsilonAt(fromFiles, 1e-5), 0.9);
        assertEquals(deltaAt(fromRun, 0), deltaAt(fromFiles, 0), 0.003);
        assertEquals(deltaAt(fromRun, 1), deltaAt(fromFiles, 1), 0.005);
    }

    /** Files written by numpy itself, through examples/write_scores.py (skipped where python3 with numpy is absent). */
    @Test
    void filesWrittenByNumpy() throws Exception {
        Process probe;
        try {
            probe = new ProcessBuilder("python3", "-c", "import numpy").redirectErrorStream(true).start();
        } catch (IOException e) {
            probe = null;
        }
        Assumptions.assumeTrue(probe != null && probe.waitFor(60, TimeUnit.SECONDS) && probe.exitValue() == 0,
                "python3 with numpy is not installed");
        Process p = new ProcessBuilder("python3", Path.of("..", "examples", "write_scores.py").toString(), "--out",
                dir.toString(), "--trials", "200000", "--formats", "npy,csv", "--seed", "3").redirectErrorStream(true)
                .start();
        assertTrue(p.waitFor(120, TimeUnit.SECONDS));
        assertEquals(0, p.exitValue(), new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8));
        JsonNode npy = scores(dir.resolve("with.npy"), dir.resolve("without.npy"), "--claim", "4.38,1e-5",
                "--claim", "1,1e-5");
        JsonNode csv = scores(dir.resolve("with.csv"), dir.resolve("without.csv"), "--claim", "4.38,1e-5",
                "--claim", "1,1e-5");
        assertEquals(npy.path("empirical"), csv.path("empirical"), "numpy's .npy and its %.17g text agree");
        // (4.38, 1e-5) is the exact curve's point; 2 10^5 scores per file cannot test delta = 1e-5.
        assertEquals("inconclusive", npy.path("claims").get(0).path("verdict").asText());
        assertEquals("violated", npy.path("claims").get(1).path("verdict").asText());
    }

    @Test
    void unequalFilesDirectionAndDiscreteScores() throws IOException {
        // 30,000 with the canary, 70,000 without; lower means "with": negate.
        double[] a = gaussian(30_000, -1, 4);
        double[] b = gaussian(70_000, 0, 5);
        writeNpy(dir.resolve("a.npy"), a, false, false);
        writeNpy(dir.resolve("b.npy"), b, false, false);
        JsonNode lower = scores(dir.resolve("a.npy"), dir.resolve("b.npy"), "--direction", "lower");
        assertTrue(deltaAt(lower, 0) > 0.3, "shift of 1: total variation about 0.38");
        JsonNode test = lower.path("empirical").path("deltaLowerBounds").get(0).path("test");
        assertTrue(test.has("otherTrials"), test.toString());
        // Both files' lengths in the console and report.md (not "30,000 per world").
        Path out = dir.resolve("unequal");
        CliRunner.Result r = CliRunner.run("scores", "--with", dir.resolve("a.npy").toString(), "--without",
                dir.resolve("b.npy").toString(), "--direction", "lower", "--out", out.toString(), "--quiet");
        assertTrue(r.out().contains("trials     30,000 with the canary and 70,000 without, seed"), r.out());
        assertTrue(Files.readString(out.resolve("report.md")).contains("- **Trials:** 30,000 with the canary and "
                + "70,000 without (evaluation "), "report.md");
        // Randomized response outputs (0/1), odds e : 1: counted exactly, pure-DP epsilon close to 1.
        double p = Math.E / (1 + Math.E);
        UniformRandomProvider rng = RandomSource.XO_SHI_RO_256_PP.create(6L);
        double[] x = new double[200_000];
        double[] y = new double[200_000];
        for (int i = 0; i < x.length; i++) {
            x[i] = rng.nextDouble() < p ? 1 : 0;
            y[i] = rng.nextDouble() < p ? 0 : 1;
        }
        writeText(dir.resolve("x.txt"), x, "bit", false);
        writeText(dir.resolve("y.txt"), y, "bit", false);
        JsonNode rr = scores(dir.resolve("x.txt"), dir.resolve("y.txt"), "--deltas", "0");
        assertTrue(rr.path("histogram").path("exact").asBoolean());
        double eps = epsilonAt(rr, 0);
        assertTrue(eps > 0.95 && eps <= 1.0, "pure-DP lower bound " + eps);
    }

    /**
     * What would resolve an inconclusive claim of a score-file audit is counted in scores: per file when the files are
     * equally long, each file's otherwise (never "trials per world", which a score file does not have).
     */
    @Test
    void whatWouldResolveAClaimIsCountedInScores() throws IOException {
        writeNpy(dir.resolve("with.npy"), gaussian(20_000, 1, 7), false, false);
        writeNpy(dir.resolve("without.npy"), gaussian(20_000, 0, 8), false, false);
        writeNpy(dir.resolve("short.npy"), gaussian(15_000, 1, 9), false, false);
        for (String with : List.of("with.npy", "short.npy")) {
            Path out = dir.resolve("resolve-" + with);
            CliRunner.Result r = CliRunner.run("scores", "--with", dir.resolve(with).toString(), "--without",
                    dir.resolve("without.npy").toString(), "--claim", "3.5,1e-5", "--out", out.toString(), "--quiet");
            assertEquals(0, r.exit(), r.err());
            JsonNode claim = JSON.readTree(out.resolve("report.json").toFile()).path("claims").get(0);
            assertEquals("inconclusive", claim.path("verdict").asText());
            long factor = claim.path("power").path("trialsFactorToResolve").asLong();
            assertTrue(factor >= 2 && Long.bitCount(factor) == 1, "factor " + factor);
            String times = factor < 1_000_000 ? Long.toString(factor) : "2^" + Long.numberOfTrailingZeros(factor);
            String counted = with.equals("with.npy") ? Format.g(factor * 20_000.0) + " per file"
                    : Format.g(factor * 15_000.0) + " with the canary and " + Format.g(factor * 20_000.0) + " without";
            String phrase = times + "× the scores (" + counted + ") would let this test detect 1.5× the claimed ε";
            assertTrue(r.out().contains(phrase), r.out());
            assertTrue(Files.readString(out.resolve("report.md")).contains(phrase), "report.md");
            assertFalse(r.out().contains("× the trials"), r.out());
            String summary = "(the audit could not have refuted it: more scores needed)";
            assertTrue(r.out().contains(summary), r.out());
            assertTrue(Files.readString(out.resolve("report.md")).contains(summary), "report.md");
            assertTrue(Files.readString(out.resolve("report.html")).contains(summary), "report.html");
            assertFalse(r.out().contains("more trials needed"), r.out());
            assertTrue(Files.readString(out.resolve("report.md")).contains("more scores are needed"), "legend");
            assertFalse(Files.readString(out.resolve("report.md")).contains("more trials"), "legend");
            CliRunner.Result c = CliRunner.run("compare", out.toString(), out.toString());
            assertEquals(0, c.exit(), c.err());
            assertTrue(c.out().contains("(scenario scores, dp-audit"), c.out());
        }
    }

    @Test
    void badFilesAreOneLineNamingFileAndLine() throws IOException {
        writeNpy(dir.resolve("ok.npy"), gaussian(1000, 0, 1), false, false);
        writeNpy(dir.resolve("nan.npy"), new double[] {1, Double.NaN, 2}, false, false);
        Files.writeString(dir.resolve("nan.txt"), "score\n1.5\nnan\n");
        Files.writeString(dir.resolve("text.txt"), "1.5\n2.5\nabc\n");
        Files.writeString(dir.resolve("empty.txt"), "");
        Files.writeString(dir.resolve("header-only.csv"), "score\n");
        Files.writeString(dir.resolve("ragged.csv"), "a,score\n1,2\n3\n");
        Files.writeString(dir.resolve("blank.txt"), "1\n\n2\n");
        Files.write(dir.resolve("notgzip.gz"), new byte[] {0x1f, (byte) 0x8b, 1, 2, 3});
        // 128 header bytes and 72 data bytes: nine whole elements of 1000.
        Files.write(dir.resolve("short.npy"), java.util.Arrays.copyOf(Files.readAllBytes(dir.resolve("ok.npy")), 200));
        String ok = dir.resolve("ok.npy").toString();
        String[][] cases = {
            {"nan.npy", "nan.npy, element 2 = NaN: NaN is not a score"},
            {"nan.txt", "nan.txt, line 3 = nan: NaN is not a score"},
            {"text.txt", "text.txt, line 3 = abc: not a number"},
            {"empty.txt", "empty.txt = (empty file): holds no scores"},
            {"header-only.csv", "--with = " + dir.resolve("header-only.csv") + ": holds no scores"},
            {"ragged.csv", "ragged.csv, line 3 = 3: has 1 fields, the header 2"},
            {"blank.txt", "blank.txt, line 2 = (empty): not a number"},
            {"notgzip.gz", "notgzip.gz = (gzip)"},
            {"short.npy", "short.npy, element 10 = (end of file): the file is shorter than its shape (1000 elements)"},
            {"missing.npy", "--with = " + dir.resolve("missing.npy") + ": file not found"},
        };
        for (String[] c : cases) {
            Path out = dir.resolve("never");
            List<String> args = new ArrayList<>(List.of("scores", "--with", dir.resolve(c[0]).toString(), "--without",
                    ok, "--out", out.toString(), "--quiet"));
            if (c[0].equals("ragged.csv")) {
                args.addAll(List.of("--column", "score"));
            }
            CliRunner.Result r = CliRunner.run(args.toArray(String[]::new));
            assertEquals(2, r.exit(), c[0] + ": " + r.err());
            String err = r.err().strip();
            assertFalse(err.contains("\n"), "one line: " + err);
            assertTrue(err.contains(c[1]), c[0] + ": " + err);
            assertFalse(Files.exists(out), "nothing written for " + c[0]);
        }
        CliRunner.Result oneSided = CliRunner.run("scores", "--with", ok, "--quiet");
        assertEquals(2, oneSided.exit());
        assertEquals("dp-audit scores: missing required option: '--without=B' (see dp-audit scores --help)",
                oneSided.err().strip());
    }

    /**
     * {@code --one-run}: per-canary scores of one run (randomized response with eps0 = 2 on the inclusion bit, 4000
     * canaries, fixed seed): the bound lies below 2, a claim of (1, 1e-5) is violated (exit 3), the report set is
     * report.json ({@code "kind": "one-run"}) and report.md, and compare refuses it in one line.
     */
    @Test
    void oneRunAuditWritesItsOwnReport() throws Exception {
        UniformRandomProvider rng = RandomSource.XO_SHI_RO_256_PP.create(99);
        StringBuilder in = new StringBuilder();
        StringBuilder out = new StringBuilder();
        double keep = 1 / (1 + Math.exp(-2.0));
        for (int i = 0; i < 4000; i++) {
            boolean included = rng.nextBoolean();
            boolean bit = rng.nextDouble() < keep ? included : !included;
            (included ? in : out).append(bit ? "1" : "0").append('\n');
        }
        Path a = Files.writeString(dir.resolve("in.txt"), in);
        Path b = Files.writeString(dir.resolve("out.txt"), out);
        Path report = dir.resolve("one-run");
        CliRunner.Result r = CliRunner.run("scores", "--one-run", "--with", a.toString(), "--without", b.toString(),
                "--deltas", "0,1e-5", "--claim", "1,1e-5", "--out", report.toString(), "--quiet");
        assertEquals(3, r.exit(), r.err());
        var json = JSON.readTree(report.resolve("report.json").toFile());
        assertEquals("one-run", json.get("kind").asText());
        assertEquals(4000, json.get("canaries").asLong());
        double eps = json.get("epsilonLowerBounds").get(1).get("epsilon").asDouble();
        assertTrue(eps > 1 && eps < 2, "eps >= " + eps);
        assertEquals("violated", json.get("claims").get(0).get("verdict").asText());
        assertEquals("steinke", json.get("verdictBound").asText());
        // the f-DP route on the same guesses: also below the true 2, and a mu-GDP bound with its guesses
        double fdp = json.get("fdp").get("epsilonLowerBounds").get(1).get("epsilon").asDouble();
        assertTrue(fdp > 1 && fdp < 2, "f-DP route eps >= " + fdp);
        assertEquals(fdp, json.get("claims").get(0).get("epsilonLowerBoundFdp").asDouble());
        assertTrue(json.get("fdp").get("gdpMuLowerBound").get("mu").asDouble() > 0);
        assertTrue(Files.readString(report.resolve("report.md")).contains("μ-GDP refuted for every μ ≤"));
        String html = Files.readString(report.resolve("report.html"));
        assertTrue(html.startsWith("<!DOCTYPE html>") && html.contains("μ-GDP refuted for every μ ≤"), html);
        Path byFdp = dir.resolve("one-run-fdp");
        CliRunner.Result f = CliRunner.run("scores", "--one-run", "--one-run-bound", "fdp", "--with", a.toString(),
                "--without", b.toString(), "--deltas", "0,1e-5", "--claim", "1,1e-5", "--out", byFdp.toString(),
                "--quiet");
        assertEquals(3, f.exit(), f.err());
        assertEquals("fdp", JSON.readTree(byFdp.resolve("report.json").toFile()).get("verdictBound").asText());
        assertEquals("one-sided", json.get("guessSides").asText());
        Path twoSided = dir.resolve("one-run-two-sided");
        CliRunner.Result t = CliRunner.run("scores", "--one-run", "--guesses", "two-sided", "--with", a.toString(),
                "--without", b.toString(), "--deltas", "0,1e-5", "--out", twoSided.toString(), "--quiet");
        assertEquals(0, t.exit(), t.err());
        var two = JSON.readTree(twoSided.resolve("report.json").toFile());
        assertEquals("two-sided", two.get("guessSides").asText());
        assertEquals(4000, two.get("guessCounts").get(0).asLong()); // the grid starts at m: every canary guessed
        double twoEps = two.get("epsilonLowerBounds").get(1).get("epsilon").asDouble();
        assertTrue(twoEps > 1 && twoEps < 2, "two-sided eps >= " + twoEps);
        for (String[] bad : new String[][] {{"--one-run", "--one-run-bound", "exact"}, {"--one-run-bound", "fdp"},
                {"--one-run", "--guesses", "both"}, {"--guesses", "two-sided"}}) {
            List<String> args = new java.util.ArrayList<>(List.of("scores", "--with", a.toString(), "--without",
                    b.toString(), "--out", dir.resolve("refused").toString(), "--quiet"));
            args.addAll(List.of(bad));
            CliRunner.Result x = CliRunner.run(args.toArray(String[]::new));
            assertEquals(2, x.exit(), x.err());
            assertTrue(x.err().contains(bad[bad.length - 2]) && x.err().strip().lines().count() == 1, x.err());
            assertTrue(!Files.exists(dir.resolve("refused")));
        }
        try (var files = Files.list(report)) {
            assertEquals(java.util.Set.of("report.json", "report.md", "report.html"), files.map(p -> p.getFileName().toString())
                    .collect(java.util.stream.Collectors.toSet()));
        }
        CliRunner.Result c = CliRunner.run("compare", report.toString(), report.toString());
        assertEquals(2, c.exit());
        assertTrue(c.err().contains("is a one-run audit's report"), c.err());
    }
}

package io.dpaudit.reports.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Extreme but legal parameters: a correct answer or a one-line refusal, never an internal error. */
class ExtremeParametersTest {
    private static final ObjectMapper MAPPER = new ObjectMapper();

    @TempDir
    Path dir;

    private CliRunner.Result run(String mechanism, String out) throws IOException {
        Path file = dir.resolve(out + ".json");
        Files.writeString(file, "{\"mechanism\": " + mechanism + ", \"trials\": 20000, \"seed\": 3, \"deltas\": "
                + "[1e-5]}");
        return CliRunner.run("run", file.toString(), "--out", dir.resolve(out).toString(), "--quiet");
    }

    /**
     * sigma = 1e-9 and 1e-12 (mu up to 1e12): the attack's table would need billions of cells (it threw
     * NegativeArraySizeException); the exact log ratio is evaluated per trial instead. A sampled record is then
     * always recognised: the empirical delta lower bound at eps = 0 is about q (Poisson) or 1 (plain).
     */
    @Test
    void tinyNoiseRunsAndFindsTheObviousLeak() throws IOException {
        for (String sigma : new String[] {"1e-9", "1e-12"}) {
            CliRunner.Result g = run("{\"type\": \"gaussian\", \"sigma\": " + sigma + "}", "g" + sigma);
            assertEquals(0, g.exit(), g.err());
            JsonNode r = MAPPER.readTree(dir.resolve("g" + sigma).resolve("report.json").toFile());
            double d0 = r.get("empirical").get("deltaLowerBounds").get(0).get("delta").doubleValue();
            assertTrue(d0 > 0.99, "plain Gaussian, sigma " + sigma + ": delta_lb(0) = " + d0);
            CliRunner.Result p = run("{\"type\": \"poisson-subsampled-gaussian\", \"q\": 0.1, \"sigma\": " + sigma + "}",
                    "p" + sigma);
            assertEquals(0, p.exit(), p.err());
            r = MAPPER.readTree(dir.resolve("p" + sigma).resolve("report.json").toFile());
            d0 = r.get("empirical").get("deltaLowerBounds").get(0).get("delta").doubleValue();
            assertTrue(d0 > 0.08 && d0 <= 0.1 + 0.01, "Poisson q = 0.1, sigma " + sigma + ": delta_lb(0) = " + d0);
        }
    }

    /**
     * Settings at the edges of each type's parameters that once stopped 'dp-audit bound' with an internal error or gave
     * a wrong number (2026-11-27 sweep): every client and record joining (random participation at p = q = 1, where
     * Theorem 4.1 said delta = 0 for every eps, and every bound is the Gaussian mechanism's, mu = C/sigma = 2),
     * PriFedSync's persistent state at p = 1, the always-selected Gaussian check-in (mu = 2C/sigma = 2), every client
     * selected in DP-Fed, and mu = 8e13. Each answers with finite epsilons, or refuses in one line (exit 2): the
     * exhaustive check-in search over 10^5 rounds, which ran out of memory.
     */
    @Test
    void boundAtTheEdgesOfEachTypeAnswersOrRefuses() throws IOException {
        double gaussianMu2 = new io.dpaudit.core.bounds.GaussianBound(2).epsilon(1e-6);
        String[][] answered = {
            {"random-participation", "p=1", "q=1", "d=2", "sigma=0.5"},
            {"prifedsync", "clients=2", "records=2", "batch=2", "localSteps=3", "sigma=100", "p=1", "rounds=7",
                "state=persistent"},
            {"random-checkin", "clients=1", "slots=1", "p0=1", "randomizer=gaussian", "sigma=1"},
            {"random-checkin-sliding", "clients=1", "slots=1", "p0=1", "randomizer=gaussian", "sigma=1",
                "target=edge"},
            {"dp-fed", "clients=4", "selected=4", "sigma=1"},
            {"gaussian", "sigma=1e-13", "rounds=64"},
        };
        for (String[] a : answered) {
            String[] args = new String[a.length + 4];
            args[0] = "bound";
            System.arraycopy(a, 0, args, 1, a.length);
            args[a.length + 1] = "--delta";
            args[a.length + 2] = "1e-6";
            args[a.length + 3] = "--json";
            CliRunner.Result r = CliRunner.run(args);
            String what = String.join(" ", a);
            assertEquals(0, r.exit(), what + ": " + r.err());
            for (JsonNode b : MAPPER.readTree(r.out()).get("bounds")) {
                double e = b.get("epsilon").asDouble();
                assertFalse(Double.isNaN(e), what + ": " + b);
                String name = b.get("name").asText();
                boolean gaussianMechanism = a[0].equals("random-participation") && b.get("certified").asBoolean()
                        || name.equals(a[0] + "-exact") && a[0].startsWith("random-checkin");
                if (gaussianMechanism) {
                    assertEquals(gaussianMu2, e, 1e-6 * gaussianMu2, what + ": " + name);
                }
            }
        }
        CliRunner.Result refused = CliRunner.run("bound", "random-checkin", "clients=30", "slots=1", "p0=1", "eps0=20",
                "dataset=exhaustive", "rounds=100000", "--delta", "1e-6");
        assertEquals(2, refused.exit(), refused.err());
        assertTrue(refused.err().startsWith("dp-audit: error: rounds = 100000: must be <= 1000"), refused.err());
        assertEquals(1, refused.err().strip().lines().count(), refused.err());
    }

    @Test
    void hugeNoiseIsRefusedInOneLine() throws IOException {
        CliRunner.Result r = run("{\"type\": \"gaussian\", \"sigma\": 1e300}", "huge");
        assertEquals(2, r.exit(), r.err());
        assertTrue(r.err().startsWith("dp-audit: error: mechanism.sigma = 1.0E300"), r.err());
        assertEquals(1, r.err().strip().lines().count(), r.err());
        assertFalse(Files.exists(dir.resolve("huge")));
    }

    /**
     * A claim at eps = 1e308 is a legal, weak claim, plotted on a sane range (it was "epsilon = inf"); no finite number
     * of trials can refute it (e^eps times any false-positive bound is infinite), so it is inconclusive, not
     * "consistent".
     */
    @Test
    void aClaimAtTheLargestEpsilonIsJudged() throws IOException {
        Path file = dir.resolve("c.json");
        Files.writeString(file, "{\"mechanism\": {\"type\": \"gaussian\", \"sigma\": 1}, \"trials\": 20000, "
                + "\"claims\": [{\"epsilon\": 1e308, \"delta\": 1e-5}]}");
        CliRunner.Result r = CliRunner.run("run", file.toString(), "--out", dir.resolve("c").toString(), "--quiet");
        assertEquals(0, r.exit(), r.err());
        JsonNode json = MAPPER.readTree(dir.resolve("c").resolve("report.json").toFile());
        assertEquals("inconclusive", json.get("claims").get(0).get("verdict").asText());
        assertEquals("inf", json.get("claims").get(0).get("power").get("delta").asText());
    }

    /**
     * A confidence of 1 - 1e-15 is legal: spread over the trade-off curve's bounds, each bound's error level a is so
     * small that 1 - a rounds to 1, and the Clopper-Pearson upper bound ended the run in an internal error ("Beta
     * quantile needs p in (0,1)", then "no sign change" where the bound lies within e^-40 of 1). It now runs, and its
     * bounds are those of a nearly sure audit: no claim of the true epsilon is violated and the epsilon lower bound is
     * below the one at 95%.
     */
    @Test
    void aConfidenceOneMinusTenToTheMinusFifteenIsAudited() throws IOException {
        for (String confidence : new String[] {"0.95", "0.999999999999999"}) {
            Path file = dir.resolve("conf" + confidence + ".json");
            Files.writeString(file, "{\"mechanism\": {\"type\": \"gaussian\", \"sigma\": 1}, \"trials\": 100000, "
                    + "\"seed\": 4, \"confidence\": " + confidence + ", \"deltas\": [0.01], \"claims\": [{\"bound\": "
                    + "\"gaussian-exact\", \"delta\": 0.01}]}");
            Path out = dir.resolve("c" + confidence);
            CliRunner.Result r = CliRunner.run("run", file.toString(), "--out", out.toString(), "--quiet");
            assertEquals(0, r.exit(), r.err());
        }
        JsonNode sure = MAPPER.readTree(dir.resolve("c0.999999999999999").resolve("report.json").toFile());
        JsonNode usual = MAPPER.readTree(dir.resolve("c0.95").resolve("report.json").toFile());
        double e = sure.get("empirical").get("epsilonLowerBounds").get(0).get("epsilon").doubleValue();
        double e95 = usual.get("empirical").get("epsilonLowerBounds").get(0).get("epsilon").doubleValue();
        assertTrue(e > 0 && e < e95, e + " against " + e95 + " at 95%");
        assertFalse(sure.get("tradeOff").isMissingNode());
    }
}

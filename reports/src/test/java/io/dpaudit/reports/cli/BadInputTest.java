package io.dpaudit.reports.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * Bad input gives exit code 2, a single line on standard error naming the field and the value, no stack trace, and
 * no report file.
 */
class BadInputTest {
    @TempDir
    Path dir;

    static Stream<Arguments> badScenarios() {
        String ok = "\"trials\": 1000, \"deltas\": [1e-3], \"epsilons\": [0]";
        return Stream.of(
                Arguments.of("{\"mechanism\": {\"type\": \"gaussian\", \"sigma\": -1}, " + ok + "}",
                        "mechanism.sigma = -1"),
                Arguments.of("{\"mechanism\": {\"type\": \"poisson-subsampled-gaussian\", \"q\": 1.5, \"sigma\": 1}, "
                        + ok + "}", "mechanism.q = 1.5"),
                Arguments.of("{\"mechanism\": {\"type\": \"poisson-subsampled-gaussian\", \"q\": 0, \"sigma\": 1}, "
                        + ok + "}", "mechanism.q = 0"),
                Arguments.of("{\"mechanism\": {\"type\": \"no-such-type\", \"sigma\": 1}, " + ok + "}",
                        "mechanism.type = no-such-type"),
                Arguments.of("{\"mechanism\": {\"type\": \"gaussian\", \"sigma\": 1}, \"trials\": 0}", "trials = 0"),
                Arguments.of("{\"mechanism\": {\"type\": \"gaussian\", \"sigma\": 1}, \"trials\": -5}", "trials = -5"),
                Arguments.of("{\"mechanism\": {\"type\": \"gaussian\", \"sigma\": 1}, \"trails\": 10}", "trails = 10"),
                Arguments.of("{\"mechanism\": {\"type\": \"gaussian\", \"sigma\": 1}, \"confidence\": 1.5}",
                        "confidence = 1.5"),
                Arguments.of("{\"mechanism\": {\"type\": \"gaussian\", \"sigma\": 1}, \"deltas\": [0.5, 2]}",
                        "deltas[1] = 2"),
                Arguments.of("{\"mechanism\": {\"type\": \"gaussian\", \"sigma\": 1}, \"attack\": \"oracle\"}",
                        "attack = oracle"),
                Arguments.of("{\"mechanism\": {\"type\": \"gaussian\", \"sigma\": 1}, \"claims\": [{\"epsilon\": 1}]}",
                        "claims[0]"),
                Arguments.of("{\"mechanism\": {\"type\": \"gaussian\", \"sigma\": 1}, "
                        + "\"claims\": [{\"bound\": \"no-such-bound\", \"delta\": 1e-5}]}", "claims[0].bound = no-such-bound"),
                Arguments.of("{\"mechanism\": {\"type\": \"gaussian\", \"sigma\": 1}, "
                        + "\"thresholdSelection\": {\"method\": \"held-out\", \"holdoutFraction\": 1}}",
                        "thresholdSelection.holdoutFraction = 1"),
                Arguments.of("{\"mechanism\": {\"type\": \"gaussian\", \"sigma\": 1}", "malformed JSON"),
                Arguments.of("[1, 2]", "must be a JSON object"),
                Arguments.of("{\"mechanism\": {\"type\": \"poisson-subsampled-gaussian\", \"q\": 0.1, \"sigma\": 1}, "
                        + "\"simulator\": {\"kind\": \"faithful\", \"dimension\": 1e9}, \"trials\": 100}",
                        "simulator.dimension = 1000000000: must be <= 4096"),
                Arguments.of("{\"mechanism\": {\"type\": \"poisson-subsampled-gaussian\", \"q\": 0.1, \"sigma\": 1}, "
                        + "\"simulator\": {\"kind\": \"faithful\", \"records\": 1e9, \"dimension\": 100}, "
                        + "\"trials\": 100}", "simulator.records = 1000000000: times dimension (100) needs 800000 MB"),
                Arguments.of("{\"mechanism\": {\"type\": \"gaussian\", \"sigma\": 1}} trailing", "malformed JSON"),
                Arguments.of("{\"mechanism\": {\"type\": \"gaussian\", \"sigma\": 1}}\n{\"trials\": 5}",
                        "malformed JSON"),
                Arguments.of("{\"mechanism\": {\"type\": \"gaussian\", \"sigma\": 1, \"sigma\": 2}}", "malformed JSON"),
                Arguments.of(shuffle("\"eps0\": 0"), "mechanism.eps0 = 0"),
                Arguments.of(shuffle("\"eps0\": -1"), "mechanism.eps0 = -1"),
                Arguments.of(shuffle("\"eps0\": 1, \"records\": 0"), "mechanism.records = 0"),
                Arguments.of(shuffle("\"eps0\": 1, \"q\": 0"), "mechanism.q = 0"),
                Arguments.of(shuffle("\"eps0\": 1, \"q\": 1.5"), "mechanism.q = 1.5"),
                Arguments.of(shuffle("\"eps0\": 1, \"randomizer\": \"laplace\""), "mechanism.randomizer = laplace"),
                Arguments.of(shuffle("\"eps0\": 1, \"sigma\": 1"), "mechanism.sigma = 1: unknown parameter"),
                Arguments.of(shuffle("\"eps0\": 1, \"symbols\": 3"), "mechanism.symbols = 3: applies to randomizer krr"),
                Arguments.of(shuffle("\"eps0\": 1, \"sampling\": \"fixed\", \"q\": 0.33"), "mechanism.q = 0.33"),
                Arguments.of(shuffle("\"eps0\": 1, \"config\": \"best\""), "mechanism.config = best"),
                Arguments.of("{\"mechanism\": {\"type\": \"dss-sgd\", \"clients\": 20, \"q\": 0.5, \"eps0\": 1}, "
                        + "\"claims\": [{\"bound\": \"pld\", \"delta\": 1e-5}]}", "claims[0].bound = pld: no such bound"),
                Arguments.of("{\"mechanism\": {\"type\": \"shuffled-randomizer\", \"clients\": 20, \"eps0\": 1}, "
                        + "\"attack\": \"projection\"}", "attack = projection: does not apply"),
                Arguments.of("{\"mechanism\": {\"type\": \"shuffled-randomizer\", \"clients\": 20, \"eps0\": 1, "
                        + "\"config\": \"canonical\", \"dataset\": \"opposite\"}}", "mechanism.dataset = opposite"),
                Arguments.of(gaussianWith("\"claims\": [{\"gdpMu\": 0}]"), "claims[0].gdpMu = 0"),
                Arguments.of(gaussianWith("\"claims\": [{\"gdpMu\": -1}]"), "claims[0].gdpMu = -1"),
                Arguments.of(gaussianWith("\"claims\": [{\"gdpMu\": 1, \"delta\": 1e-5}]"), "claims[0].delta = 1.0E-5: an "
                        + "f-DP claim"),
                Arguments.of(gaussianWith("\"claims\": [{\"bound\": \"no-such\", \"kind\": \"trade-off\"}]"),
                        "claims[0].bound = no-such: no such bound"),
                Arguments.of(gaussianWith("\"claims\": [{\"bound\": \"gaussian-exact\", \"kind\": \"curve\"}]"),
                        "claims[0].kind = curve"),
                Arguments.of(gaussianWith("\"tradeOff\": {\"method\": \"magic\"}"), "tradeOff.method = magic"),
                Arguments.of(gaussianWith("\"tradeOff\": {\"grid\": 0}"), "tradeOff.grid = 0"),
                Arguments.of(priFedSync("\"p\": 0"), "mechanism.p = 0: must be in (0, 1]"),
                Arguments.of(priFedSync("\"p\": 1.5"), "mechanism.p = 1.5: must be in (0, 1]"),
                Arguments.of(priFedSync("\"p\": 1, \"batch\": 200"), "mechanism.batch = 200: must be <= records"),
                Arguments.of(priFedSync("\"p\": 1, \"sigma\": 0"), "mechanism.sigma = 0"),
                Arguments.of(priFedSync("\"p\": 1, \"notion\": \"medium\""), "mechanism.notion = medium"),
                Arguments.of(priFedSync("\"p\": 1, \"view\": \"global\""), "mechanism.view = global"),
                Arguments.of(priFedSync("\"p\": 1, \"pair\": \"both\""), "mechanism.pair = both"),
                Arguments.of(priFedSync("\"p\": 1, \"clients\": 1"), "mechanism.clients = 1"),
                Arguments.of("{\"mechanism\": {\"type\": \"prifedsync\", \"clients\": 3, \"records\": 100, "
                        + "\"batch\": 10, \"sigma\": 1, \"p\": 1}, \"trials\": 1000, \"claims\": [{\"bound\": "
                        + "\"zcls21-thm9\", \"kind\": \"trade-off\"}]}", "zcls21-thm9"),
                Arguments.of(checkIn("\"p0\": 0, \"eps0\": 1"), "mechanism.p0 = 0: must be in (0, 1]"),
                Arguments.of(checkIn("\"p0\": 1.5, \"eps0\": 1"), "mechanism.p0 = 1.5: must be in (0, 1]"),
                Arguments.of(checkIn("\"p0\": -0.2, \"eps0\": 1"), "mechanism.p0 = -0.2"),
                Arguments.of(checkIn("\"p0\": 0.5, \"eps0\": 0"), "mechanism.eps0 = 0"),
                Arguments.of(checkIn("\"p0\": 0.5, \"eps0\": -1"), "mechanism.eps0 = -1"),
                Arguments.of(checkIn("\"p0\": 0.5, \"eps0\": 1, \"slots\": 0"), "mechanism.slots = 0"),
                Arguments.of(checkIn("\"p0\": 0.5, \"eps0\": 1, \"clients\": 0"), "mechanism.clients = 0"),
                Arguments.of(checkIn("\"p0\": 0.5, \"randomizer\": \"gaussian\", \"sigma\": 1, \"eps0\": 1"),
                        "mechanism.eps0 = 1: applies to randomizer rr only"),
                Arguments.of(checkIn("\"p0\": 0.5, \"eps0\": 1, \"clients\": 31, \"dataset\": \"exhaustive\""),
                        "mechanism.dataset = exhaustive: needs clients <= 30, not 31"),
                Arguments.of(checkIn("\"p0\": 0.5, \"eps0\": 1, \"clients\": 1000000, \"slots\": 10000, "
                        + "\"dataset\": \"opposite\""), "mechanism.dataset = opposite: needs about"),
                Arguments.of("{\"mechanism\": {\"type\": \"random-checkin-sliding\", \"clients\": 20, \"slots\": 11, "
                        + "\"p0\": 1, \"eps0\": 1}}", "mechanism.clients = 20: an interior client"),
                Arguments.of("{\"mechanism\": {\"type\": \"random-checkin-averaged\", \"clients\": 20, \"slots\": 5, "
                        + "\"p0\": 1, \"eps0\": 1, \"dataset\": \"helper\"}}", "mechanism.dataset = helper"),
                Arguments.of("{\"mechanism\": {\"type\": \"random-checkin\", \"clients\": 20, \"slots\": 5, "
                        + "\"p0\": 1, \"eps0\": 1}, \"simulator\": {\"kind\": \"faithful\", \"plantedBug\": "
                        + "\"typo\"}}", "simulator.plantedBug = typo"),
                // Black-box mechanisms (the zoo) and claims computed under other parameters.
                Arguments.of(zoo("\"attack\": \"likelihood-ratio\""), "attack = likelihood-ratio: needs the exact "
                        + "law of the outputs"),
                Arguments.of(zoo("\"attack\": \"learned\", \"estimate\": true"), "estimate = true: the noisy-max "
                        + "simulator states no law"),
                // Coupled trials (common random numbers): black boxes only, held-out selection, no estimate.
                Arguments.of(zoo("\"simulator\": {\"coupling\": \"shared\"}"), "simulator.coupling = shared: must be "
                        + "\"independent\" or \"common-random-numbers\""),
                Arguments.of(gaussianWith("\"simulator\": {\"coupling\": \"common-random-numbers\"}"),
                        "simulator.coupling = common-random-numbers: needs a black-box mechanism"),
                Arguments.of(gaussianWith("\"simulator\": {\"kind\": \"faithful\", \"coupling\": "
                        + "\"common-random-numbers\"}"), "simulator.coupling = common-random-numbers: applies to "
                        + "black-box mechanisms, whose simulator is reduced"),
                Arguments.of(zoo("\"attack\": \"learned\", \"simulator\": {\"coupling\": "
                        + "\"common-random-numbers\"}, \"thresholdSelection\": {\"method\": \"bonferroni\"}"),
                        "simulator.coupling = common-random-numbers: needs held-out threshold selection"),
                Arguments.of("{\"mechanism\": {\"type\": \"random-participation\", \"p\": 0.5, \"q\": 0.5, "
                        + "\"d\": 2, \"sigma\": 1, \"adversary\": \"aligned\"}, \"trials\": 1000, \"estimate\": "
                        + "{\"method\": \"importance\"}}", "estimate.method = importance: the random-participation "
                        + "simulator's per-round statistic is not a pair"),
                // Weak client sampling: one-dimensional, two components, but its laws are conditional on the flag.
                Arguments.of("{\"mechanism\": {\"type\": \"random-participation\", \"variant\": "
                        + "\"reveal-participation\", \"p\": 0.5, \"q\": 0.5, \"d\": 2, \"sigma\": 1, \"adversary\": "
                        + "\"zero\"}, \"trials\": 1000, \"estimate\": {\"method\": \"importance\"}}",
                        "(its laws are conditional on a revealed flag)"),
                Arguments.of(gaussianWith("\"estimate\": {\"method\": \"tilted\"}"),
                        "estimate.method = \"tilted\": must be one of auto, plain, importance"),
                Arguments.of("{\"mechanism\": {\"type\": \"noisy-max\", \"epsilon\": 0.1, \"d\": \"1,1\", "
                        + "\"dPrime\": \"3,1\"}, \"attack\": \"learned\"}", "mechanism.dPrime = 3, 1: entry 1 "
                        + "differs"),
                Arguments.of(gaussianWith("\"claims\": [{\"bound\": \"gaussian-exact\", \"delta\": 1e-5, "
                        + "\"assuming\": {\"sigma\": -2}}]"), "claims[0].assuming: claims[0].assuming.sigma = -2"),
                Arguments.of(gaussianWith("\"claims\": [{\"epsilon\": 1, \"delta\": 1e-5, \"assuming\": "
                        + "{\"sigma\": 2}}]"), "claims[0].assuming = {\"sigma\":2}: applies to a bound claim"),
                Arguments.of(gaussianWith("\"claims\": [{\"bound\": \"gaussian-exact\", \"delta\": 1e-5, "
                        + "\"assuming\": {}}]"), "claims[0].assuming = {}: must override at least one"),
                Arguments.of(gaussianWith("\"claims\": [{\"epsilon\": 1, \"delta\": -0.1}]"),
                        "claims[0].delta = -0.1: must be in [0, 1)"),
                Arguments.of(gaussianWith("\"claims\": [{\"bound\": \"gaussian-exact\", \"delta\": 0}]"),
                        "claims[0].bound = gaussian-exact: gives no finite epsilon at delta = 0"));
    }

    /** A noisy-max scenario with the given extra top-level fields. */
    private static String zoo(String fields) {
        return "{\"mechanism\": {\"type\": \"noisy-max\", \"epsilon\": 0.1, \"d\": \"1,1\", \"dPrime\": "
                + "\"0,2\"}, \"trials\": 1000, " + fields + "}";
    }

    /** A Gaussian-mechanism scenario with the given extra top-level fields. */
    private static String gaussianWith(String fields) {
        return "{\"mechanism\": {\"type\": \"gaussian\", \"sigma\": 1}, \"trials\": 1000, " + fields + "}";
    }

    /** A random-checkin scenario (20 clients, 10 slots unless given) with the given extra mechanism fields. */
    private static String priFedSync(String fields) {
        String clients = fields.contains("\"clients\"") ? "" : "\"clients\": 3, ";
        String batch = fields.contains("\"batch\"") ? "" : "\"batch\": 10, ";
        String sigma = fields.contains("\"sigma\"") ? "" : "\"sigma\": 1, ";
        return "{\"mechanism\": {\"type\": \"prifedsync\", " + clients + "\"records\": 100, " + batch + sigma
                + fields + "}, \"trials\": 1000}";
    }

    private static String checkIn(String fields) {
        String clients = fields.contains("\"clients\"") ? "" : "\"clients\": 20, ";
        String slots = fields.contains("\"slots\"") ? "" : "\"slots\": 10, ";
        return "{\"mechanism\": {\"type\": \"random-checkin\", " + clients + slots + fields
                + "}, \"trials\": 1000}";
    }

    /** A dss-sgd scenario with the given extra mechanism fields. */
    private static String shuffle(String fields) {
        String q = fields.contains("\"q\"") ? "" : "\"q\": 0.5, ";
        return "{\"mechanism\": {\"type\": \"dss-sgd\", \"clients\": 20, " + q + fields
                + "}, \"trials\": 1000}";
    }

    @ParameterizedTest
    @MethodSource("badScenarios")
    void badScenarioGivesExitTwoAndOneLine(String json, String expected) throws IOException {
        Path file = dir.resolve("s.json");
        Files.writeString(file, json);
        Path out = dir.resolve("out");
        CliRunner.Result r = CliRunner.run("run", file.toString(), "--out", out.toString(), "--quiet");
        assertOneLineError(r, expected);
        assertFalse(Files.exists(out), "nothing written on bad input, not even the directory");
    }

    @ParameterizedTest
    @MethodSource("badCommandLines")
    void badCommandLinesGiveExitTwo(String[] args, String expected) {
        assertOneLineError(CliRunner.run(args), expected);
    }

    static Stream<Arguments> badCommandLines() {
        return Stream.of(
                Arguments.of(new String[] {"run", "/no/such/file.json"}, "scenario = /no/such/file.json: file not found"),
                Arguments.of(new String[] {"frobnicate"}, "unknown command frobnicate"),
                Arguments.of(new String[] {"bound", "gaussian", "sigma=-1", "--delta", "1e-5"}, "sigma = -1"),
                Arguments.of(new String[] {"bound", "gaussian", "sigma=1", "--delta", "2"}, "--delta = 2"),
                Arguments.of(new String[] {"bound", "gaussian", "sigma=1"}, "exactly one of --delta"),
                Arguments.of(new String[] {"bound", "poisson-subsampled-gaussian", "q=2", "sigma=1", "--delta", "1e-5"},
                        "q = 2"),
                Arguments.of(new String[] {"calibrate", "gaussian", "--epsilon", "1"}, "both --epsilon"),
                Arguments.of(new String[] {"calibrate", "gaussian", "--epsilon", "x", "--delta", "1e-5"},
                        "--epsilon = x: must be a number"),
                Arguments.of(new String[] {"run", "a.json", "--threads", "0"}, "--threads = 0"),
                Arguments.of(new String[] {"run", "a.json", "--bogus"}, "unknown option --bogus"),
                Arguments.of(new String[] {"bound", "dss-sgd", "clients=10", "q=0.5", "eps0=0", "--delta", "1e-5"},
                        "eps0 = 0"),
                Arguments.of(new String[] {"bound", "dss-sgd", "clients=10", "q=0.5", "records=0", "eps0=1", "--delta",
                    "1e-5"}, "records = 0"),
                Arguments.of(new String[] {"calibrate", "shuffled-randomizer", "clients=10", "randomizer=gaussian",
                    "--epsilon", "1", "--delta", "1e-5"}, "randomizer = gaussian"),
                Arguments.of(new String[] {"calibrate", "dss-sgd", "clients=10", "q=0.5", "sigma=1", "--epsilon", "1",
                    "--delta", "1e-5"}, "sigma = 1: unknown parameter"),
                Arguments.of(new String[] {"bound", "random-checkin", "clients=10", "slots=5", "p0=0", "eps0=1",
                    "--delta", "1e-5"}, "p0 = 0: must be in (0, 1]"),
                Arguments.of(new String[] {"bound", "random-checkin", "clients=10", "slots=0", "p0=1", "eps0=1",
                    "--delta", "1e-5"}, "slots = 0"),
                Arguments.of(new String[] {"bound", "random-checkin", "clients=0", "slots=5", "p0=1", "eps0=1",
                    "--delta", "1e-5"}, "clients = 0"),
                Arguments.of(new String[] {"bound", "random-checkin", "clients=10", "slots=5", "p0=1", "eps0=0",
                    "--delta", "1e-5"}, "eps0 = 0"),
                Arguments.of(new String[] {"bound", "random-checkin", "clients=10", "slots=5", "p0=1",
                    "randomizer=gaussian", "sigma=1", "eps0=1", "--delta", "1e-5"}, "eps0 = 1: applies to randomizer "
                    + "rr only"),
                Arguments.of(new String[] {"bound", "random-checkin", "clients=40", "slots=5", "p0=1", "eps0=1",
                    "dataset=exhaustive", "--delta", "1e-5"}, "dataset = exhaustive: needs clients <= 30"),
                Arguments.of(new String[] {"bound", "random-checkin", "clients=10", "slots=5", "p0=1", "eps0=1",
                    "--delta", "1e-5", "--epsilon", "1"}, "exactly one of --delta"));
    }

    @ParameterizedTest
    @MethodSource("badTrialsOverrides")
    void trialsOverrideIsValidatedBeforeAnyWork(String value, String expected) throws IOException {
        Path file = dir.resolve("s.json");
        Files.writeString(file, "{\"mechanism\": {\"type\": \"gaussian\", \"sigma\": 1}}");
        Path out = dir.resolve("out2");
        assertOneLineError(CliRunner.run("run", file.toString(), "--trials", value, "--out", out.toString()), expected);
        assertFalse(Files.exists(out));
    }

    static Stream<Arguments> badTrialsOverrides() {
        return Stream.of(Arguments.of("0", "--trials = 0"), Arguments.of("-3", "--trials = -3"),
                Arguments.of("2.5", "--trials = 2.5"));
    }

    private static void assertOneLineError(CliRunner.Result r, String expected) {
        assertEquals(2, r.exit(), () -> "exit code; stderr: " + r.err());
        String err = r.err().strip();
        assertFalse(err.contains("\n"), "one line: " + err);
        assertTrue(err.contains(expected), "message names field and value: " + err);
        assertFalse(err.contains("Exception") || err.contains("\tat "), "no stack trace: " + err);
    }
}

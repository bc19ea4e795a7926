package io.dpaudit.reports.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import org.junit.jupiter.api.Test;

/** Help for every command, usage on no arguments, a version command, and progress fit for a log file. */
class HelpAndProgressTest {
    @Test
    void everyCommandHasHelp() {
        for (String command : new String[] {"run", "bound", "calibrate", "compare", "list", "demo", "version"}) {
            for (String flag : new String[] {"--help", "-h"}) {
                CliRunner.Result r = CliRunner.run(command, flag);
                assertEquals(0, r.exit(), command + " " + flag + ": " + r.err());
                assertTrue(r.out().startsWith("usage: dp-audit " + command), r.out());
            }
        }
        // Help wins over otherwise bad arguments.
        assertEquals(0, CliRunner.run("bound", "no-such-type", "--help").exit());
    }

    @Test
    void noArgumentsPrintsUsageAndExitsTwo() {
        CliRunner.Result r = CliRunner.run();
        assertEquals(2, r.exit());
        assertTrue(r.err().startsWith("usage: dp-audit <command>"), r.err());
        assertTrue(r.out().isEmpty());
    }

    @Test
    void versionCommand() {
        CliRunner.Result r = CliRunner.run("version");
        assertEquals(0, r.exit());
        assertTrue(r.out().matches("dp-audit \\S+\\s*"), r.out());
        assertEquals(2, CliRunner.run("version", "extra").exit());
    }

    @Test
    void topLevelHelpListsEveryCommandWithItsSummary() {
        CliRunner.Result r = CliRunner.run("--help");
        assertEquals(0, r.exit());
        for (String command : new String[] {"run", "compare", "bound", "calibrate", "list", "demo", "version"}) {
            assertTrue(r.out().lines().anyMatch(l -> l.matches("\\s+" + command + "\\s+\\S.*")), command + ": " + r.out());
        }
    }

    @Test
    void parsingErrorsAreOneLineNamingTheCommand() {
        CliRunner.Result r = CliRunner.run("run", "a.json", "--trials");
        assertEquals(2, r.exit());
        assertEquals("dp-audit run: missing required parameter for option '--trials' (N) (see dp-audit run --help)",
                r.err().strip());
        CliRunner.Result twice = CliRunner.run("run", "a.json", "--seed", "1", "--seed", "2");
        assertEquals(2, twice.exit());
        assertTrue(twice.err().strip().startsWith("dp-audit run: option '--seed' (S) should be specified only once"),
                twice.err());
        assertEquals(2, CliRunner.run("compare", "only-one.json").exit());
    }

    @Test
    void everyPhaseIsReportedAfterAHeaderAsPlainLines(@org.junit.jupiter.api.io.TempDir java.nio.file.Path dir)
            throws java.io.IOException {
        java.nio.file.Path scenario = dir.resolve("s.json");
        java.nio.file.Files.writeString(scenario, "{\"name\": \"phases\", \"mechanism\": {\"type\": "
                + "\"poisson-subsampled-gaussian\", \"q\": 0.1, \"sigma\": 1}, \"trials\": 100000, \"seed\": 3, "
                // A small importance-sampling budget: the phase is reported whatever its size (the default took 6 s).
                + "\"estimate\": {\"samples\": 20000}, \"claims\": [{\"epsilon\": 1, \"delta\": 1e-5}]}");
        CliRunner.Result r = CliRunner.run("run", scenario.toString(), "--out", dir.resolve("out").toString(),
                "--estimate");
        // The claim is false on this pair (it needs epsilon 1.685 at 1e-5): the white-box estimate refutes it.
        assertEquals(3, r.exit(), r.err());
        String err = r.err();
        assertFalse(err.contains("\r"), "no carriage returns into a non-terminal");
        java.util.List<String> lines = err.lines().toList();
        int header = indexOf(lines, "auditing phases: poisson-subsampled-gaussian");
        assertTrue(header >= 0, err);
        String[] phases = {"pilot", "selection", "evaluation", "estimate", "bounds"};
        int last = header;
        for (String phase : phases) {
            int at = indexOf(lines, "  " + phase + " ");
            assertTrue(at > last, phase + " after the previous phase: " + err);
            last = at;
        }
        assertTrue(lines.stream().anyMatch(l -> l.startsWith("  bounds") && l.contains("done in")), err);
    }

    private static int indexOf(java.util.List<String> lines, String part) {
        for (int i = 0; i < lines.size(); i++) {
            if (lines.get(i).contains(part)) {
                return i;
            }
        }
        return -1;
    }

    @Test
    void progressIntoALogIsPlainLines() {
        ByteArrayOutputStream bytes = new ByteArrayOutputStream();
        ConsoleProgress p = new ConsoleProgress(new PrintStream(bytes, true, StandardCharsets.UTF_8), false);
        p.onProgress("evaluation", 10, 100, 1_000_000_000L);      // too soon after the start: nothing
        p.onProgress("evaluation", 50, 100, 11_000_000_000L);     // ten seconds later: a line
        p.onProgress("evaluation", 60, 100, 12_000_000_000L);     // too soon again
        p.onProgress("evaluation", 100, 100, 13_000_000_000L);    // phase end: always a line
        String text = bytes.toString(StandardCharsets.UTF_8);
        assertFalse(text.contains("\r"), text);
        assertEquals(2, text.lines().count(), text);
        assertTrue(text.endsWith("\n"));
        assertTrue(text.lines().allMatch(l -> l.contains("evaluation")), text);
    }
}

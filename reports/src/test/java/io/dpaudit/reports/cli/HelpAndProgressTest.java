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
        for (String command : new String[] {"run", "bound", "calibrate", "list", "demo", "version"}) {
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

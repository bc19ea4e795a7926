package io.dpaudit.reports.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A computation larger than the heap gets one line that says so and how to give more, exit 1, no stack trace: a
 * child JVM with a 256 MB heap asked to calibrate a subsampled Gaussian over 10^6 rounds (which needs about 1 GB: it
 * completes at -Xmx1000m and runs out at -Xmx700m).
 */
@Tag("integration")
class OutOfMemoryTest {
    @TempDir
    Path dir;

    @Test
    void aHeapTooSmallGetsOneLineAndExitOne() throws Exception {
        String java = Path.of(System.getProperty("java.home"), "bin", "java").toString();
        Path log = dir.resolve("child.log");
        Process p = new ProcessBuilder(java, "-Xmx256m", "-cp", System.getProperty("java.class.path"),
                Main.class.getName(), "calibrate", "poisson-subsampled-gaussian", "q=0.01", "rounds=1e6", "--epsilon",
                "1", "--delta", "1e-5", "--quiet").redirectErrorStream(true).redirectOutput(log.toFile()).start();
        assertTrue(p.waitFor(120, TimeUnit.SECONDS), "the child did not finish");
        String text = Files.readString(log, StandardCharsets.UTF_8).strip();
        assertEquals(Main.INTERNAL_ERROR, p.exitValue(), text);
        assertFalse(text.contains("\n"), "one line: " + text);
        assertTrue(text.startsWith("dp-audit: out of memory: this computation needs more than the Java heap's"), text);
        assertTrue(text.contains("DP_AUDIT_JAVA_OPTS=-Xmx"), text);
        assertFalse(text.contains("\tat ") || text.contains("Exception"), "no stack trace: " + text);
    }
}

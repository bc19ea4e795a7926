package io.dpaudit.spark;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

/**
 * A real standalone Spark cluster on 127.0.0.1 — a master and two workers, each its own JVM, started from the Maven
 * artifacts by {@code scripts/spark-standalone.sh} — audits a scenario with {@code --engine spark}, and its report.json
 * equals the local engine's in every number. About 20 s (JVM start-ups); needs python3 for the comparison.
 */
@Tag("integration")
class StandaloneClusterTest {
    @Test
    void aStandaloneClusterGivesTheLocalEnginesNumbers() throws Exception {
        Process probe;
        try {
            probe = new ProcessBuilder("python3", "--version").redirectErrorStream(true).start();
        } catch (java.io.IOException e) {
            probe = null;
        }
        Assumptions.assumeTrue(probe != null && probe.waitFor(30, TimeUnit.SECONDS) && probe.exitValue() == 0,
                "python3 is not installed");
        Path log = Files.createTempFile("spark-standalone", ".log");
        Process p = new ProcessBuilder("bash", Path.of("..", "scripts", "spark-standalone.sh").toString(),
                Path.of("..", "scenarios", "gaussian-sigma1.json").toString(), "2e6").redirectErrorStream(true)
                .redirectOutput(log.toFile()).start();
        boolean done = p.waitFor(300, TimeUnit.SECONDS);
        if (!done) {
            p.destroyForcibly();
        }
        String out = Files.readString(log, StandardCharsets.UTF_8);
        assertTrue(done, "over 300 s: " + out);
        assertEquals(0, p.exitValue(), out);
        assertTrue(out.contains("report.json, standalone cluster against local engine: identical in every number"),
                out);
    }
}

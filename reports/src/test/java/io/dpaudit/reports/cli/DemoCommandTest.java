package io.dpaudit.reports.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class DemoCommandTest {
    @Test
    void demoFindsTheCorrectClaimConsistentAndTheWrongOneViolated(@TempDir Path dir) {
        CliRunner.Result r = CliRunner.run("demo", "--out", dir.toString(), "--quiet");
        assertEquals(0, r.exit(), r.out() + r.err());
        assertTrue(r.out().contains("CONSISTENT") && r.out().contains("VIOLATED"), r.out());
        assertTrue(Files.exists(dir.resolve("gaussian/report.html")));
        assertTrue(Files.exists(dir.resolve("poisson-subsampled-gaussian/scenario.json")));
    }
}

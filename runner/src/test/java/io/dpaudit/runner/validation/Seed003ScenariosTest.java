package io.dpaudit.runner.validation;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.dpaudit.core.bounds.BoundFamily;
import io.dpaudit.core.model.AuditableMechanism;
import io.dpaudit.mechanisms.MechanismCatalog;
import io.dpaudit.runner.scenario.Scenario;
import io.dpaudit.runner.scenario.ScenarioReader;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;

/**
 * The shipped seed-003 scenarios parse, and the MNIST ones run at the noise level their theorem calibrates (so the
 * files cannot drift from the code that justifies them).
 */
class Seed003ScenariosTest {
    private static final Path DIR = Path.of("..", "scenarios", "seed-003");

    @Test
    void scenariosParseAndMnistNoiseIsTheTheoremsCalibration() throws IOException {
        List<Path> files;
        try (Stream<Path> s = Files.list(DIR)) {
            files = s.filter(p -> p.toString().endsWith(".json")).sorted().toList();
        }
        assertTrue(files.size() >= 28, "scenarios found: " + files.size());
        int mnist = 0;
        for (Path f : files) {
            Scenario s = ScenarioReader.parse(Files.readString(f), f.getFileName().toString());
            AuditableMechanism m = MechanismCatalog.parse(s.mechanism());
            String name = f.getFileName().toString();
            if (name.startsWith("mnist-")) {
                String theorem = name.contains("uniform") ? "thm-1" : "thm-2";
                double eps = s.claims().get(0).epsilon();
                double delta = s.claims().get(0).delta();
                assertEquals(Math.pow(1000, -1.1), delta, 1e-15);
                BoundFamily f1 = m.boundFamilies().stream().filter(b -> b.name().equals(theorem)).findFirst()
                        .orElseThrow();
                assertEquals(f1.calibrate(eps, delta), f1.current(), 1e-12 * f1.current(), name);
                mnist++;
            }
        }
        assertEquals(8, mnist);
    }
}

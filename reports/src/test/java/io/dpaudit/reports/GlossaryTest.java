package io.dpaudit.reports;

import static org.junit.jupiter.api.Assertions.assertEquals;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Iterator;
import java.util.Map;
import java.util.TreeSet;
import java.util.regex.Pattern;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;

/**
 * docs/glossary.md names every analytic bound a shipped scenario's report shows (read from the pinned numbers of
 * every shipped scenario, src/test/resources/pinned): a new bound family without a glossary row fails here.
 */
class GlossaryTest {
    private static final Pattern BOUND_NAME = Pattern.compile("/bounds/\\d+/name");

    @Test
    void everyBoundAShippedScenarioShowsIsInTheGlossary() throws IOException {
        String glossary = Files.readString(Path.of("..", "docs", "glossary.md"), StandardCharsets.UTF_8);
        TreeSet<String> missing = new TreeSet<>();
        TreeSet<String> seen = new TreeSet<>();
        ObjectMapper json = new ObjectMapper();
        try (Stream<Path> files = Files.list(Path.of("src", "test", "resources", "pinned"))) {
            for (Path f : files.filter(p -> p.toString().endsWith(".json")).toList()) {
                JsonNode pinned = json.readTree(f.toFile());
                for (Iterator<Map.Entry<String, JsonNode>> it = pinned.fields(); it.hasNext(); ) {
                    Map.Entry<String, JsonNode> e = it.next();
                    if (BOUND_NAME.matcher(e.getKey()).matches()) {
                        seen.add(e.getValue().asText());
                        if (!glossary.contains("| `" + e.getValue().asText() + "` |")) {
                            missing.add(e.getValue().asText());
                        }
                    }
                }
            }
        }
        assertEquals(new TreeSet<String>(), missing, "bound names without a row in docs/glossary.md");
        org.junit.jupiter.api.Assertions.assertTrue(seen.size() >= 60, "bound names read: " + seen.size());
    }
}

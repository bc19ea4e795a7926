package io.dpaudit.runner.scenario;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.dpaudit.core.InvalidInputException;
import org.junit.jupiter.api.Test;

/** Whole-file reading: a byte-order mark is accepted, anything after the one JSON object is refused. */
class ScenarioReaderTest {
    private static final String OK = "{\"mechanism\": {\"type\": \"gaussian\", \"sigma\": 1}, \"trials\": 1000}";

    @Test
    void aByteOrderMarkIsNotContent() {
        assertEquals(1000, ScenarioReader.parse("\uFEFF" + OK, "bom").trials());
    }

    @Test
    void trailingContentIsAnErrorNotDropped() {
        for (String tail : new String[] {" x", "\n{\"trials\": 5}", "]", " 7"}) {
            InvalidInputException e = assertThrows(InvalidInputException.class,
                    () -> ScenarioReader.parse(OK + tail, "t"));
            assertTrue(e.getMessage().contains("malformed JSON"), e.getMessage());
        }
        assertEquals(1000, ScenarioReader.parse(OK + "\n  \n", "t").trials());
    }

    @Test
    void listsHaveADocumentedMaximum() {
        String many = "[" + "1e-5, ".repeat(1000) + "1e-5]";
        InvalidInputException e = assertThrows(InvalidInputException.class, () -> ScenarioReader.parse(
                OK.replace("}, \"trials\"", "}, \"deltas\": " + many + ", \"trials\""), "t"));
        assertEquals("deltas = (array of 1001 numbers): at most 1000 entries", e.getMessage());
        String claims = "[" + "{\"epsilon\": 1, \"delta\": 1e-5}, ".repeat(1000) + "{\"epsilon\": 1, \"delta\": 1e-5}]";
        e = assertThrows(InvalidInputException.class, () -> ScenarioReader.parse(
                OK.replace("}, \"trials\"", "}, \"claims\": " + claims + ", \"trials\""), "t"));
        assertTrue(e.getMessage().startsWith("claims = (array of 1001 claims)"), e.getMessage());
    }

    @Test
    void estimateTakesTrueFalseOrAMethodAndSamples() {
        Scenario plain = ScenarioReader.parse(OK.replace("}, \"trials\"", "}, \"estimate\": true, \"trials\""), "t");
        assertTrue(plain.estimate());
        assertEquals("auto", plain.estimateMethod());
        Scenario is = ScenarioReader.parse(OK.replace("}, \"trials\"",
                "}, \"estimate\": {\"method\": \"importance\", \"samples\": 50000}, \"trials\""), "t");
        assertTrue(is.estimate());
        assertEquals("importance", is.estimateMethod());
        assertEquals(50000, is.estimateSamples());
        String[][] bad = {
            {"{\"method\": \"tilted\"}", "estimate.method = \"tilted\": must be one of auto, plain, importance"},
            {"{\"samples\": 10}", "estimate.samples = 10: must be a whole number in [100, 1e10]"},
            {"{\"samples\": 1000.5}", "estimate.samples = 1000.5: must be a whole number in [100, 1e10]"},
            {"{\"sample\": 1000}", "estimate.sample = 1000: unknown key (estimate takes method and samples)"},
        };
        for (String[] b : bad) {
            InvalidInputException e = assertThrows(InvalidInputException.class, () -> ScenarioReader.parse(
                    OK.replace("}, \"trials\"", "}, \"estimate\": " + b[0] + ", \"trials\""), "t"));
            assertEquals(b[1], e.getMessage());
        }
    }
}

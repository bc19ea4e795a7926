package io.dpaudit.runner.scores;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.dpaudit.core.InvalidInputException;
import java.io.BufferedReader;
import java.io.IOException;
import java.io.StringReader;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/** The text reader takes plain decimals and named infinities only, as its javadoc and the docs say. */
class TextScoreReaderTest {

    private static List<Double> read(String text) throws IOException {
        List<Double> out = new ArrayList<>();
        try (TextScoreReader r = new TextScoreReader("f.txt", new BufferedReader(new StringReader(text)), null)) {
            while (r.next()) {
                out.add(r.value());
            }
        }
        return out;
    }

    @Test
    void readsDecimalsInEveryPlainForm() throws IOException {
        assertEquals(List.of(1.0, -2.5, 0.5, 3.0, 1e5, -1.5e-3, 2e10, 7.0, Double.POSITIVE_INFINITY,
                Double.NEGATIVE_INFINITY), read("1\n-2.5\n.5\n3.\n1e5\n-1.5E-3\n+2e+10\n 7 \ninf\n-Infinity\n"));
    }

    @Test
    void refusesWhatJavaWouldParseButIsNoDecimal() {
        for (String bad : new String[] {"0x1p3", "0X10", "1f", "2d", "1e", "e5", ".", "+", "1e+", "1.2.3", "--1",
                "1e5.0", "1 2", "\u0661"}) {
            InvalidInputException e = assertThrows(InvalidInputException.class, () -> read("1\n" + bad + "\n"), bad);
            assertTrue(e.getMessage().startsWith("f.txt, line 2 = ") && e.getMessage().endsWith(": not a number"),
                    e.getMessage());
        }
    }

    @Test
    void decimalCheckIsLinearOnAVeryLongLine() {
        // A backtracking regular expression takes quadratic time here; the scanner one pass.
        String digits = "9".repeat(5_000_000);
        assertTrue(TextScoreReader.isDecimal(digits));
        assertFalse(TextScoreReader.isDecimal(digits + "x"));
    }
}

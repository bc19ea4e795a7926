package io.dpaudit.core.model;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.dpaudit.core.InvalidInputException;
import java.util.Map;
import java.util.Set;
import org.junit.jupiter.api.Test;

/** {@code rounds} and {@code steps} name the same thing in every family; messages keep the user's key. */
class ParametersTest {
    @Test
    void stepsAndRoundsStandForEachOther() {
        Parameters steps = new Parameters("mechanism.", Map.of("steps", 100.0, "sigma", 1.0))
                .allowOnly(Set.of("rounds", "sigma"));
        assertEquals(100, steps.wholeNumber("rounds", 1));
        assertTrue(steps.has("rounds"));
        assertEquals("mechanism.steps", steps.field("rounds"));
        Parameters rounds = new Parameters("mechanism.", Map.of("rounds", 7.0)).allowOnly(Set.of("steps"));
        assertEquals(7, rounds.wholeNumber("steps", 1, 1));
        assertEquals(1, new Parameters("", Map.of()).wholeNumber("rounds", 1, 1), "the default when neither is given");
    }

    @Test
    void bothAreRefusedAndOthersStayUnknown() {
        InvalidInputException both = assertThrows(InvalidInputException.class, () -> new Parameters("mechanism.",
                orderedBoth()).allowOnly(Set.of("rounds")));
        assertEquals("mechanism.steps = 1000: names the same thing as rounds (10): give one", both.getMessage());
        InvalidInputException unknown = assertThrows(InvalidInputException.class, () -> new Parameters("",
                Map.of("epochs", 2.0)).allowOnly(Set.of("rounds")));
        assertTrue(unknown.getMessage().startsWith("epochs = 2: unknown parameter"), unknown.getMessage());
    }

    private static Map<String, Object> orderedBoth() {
        Map<String, Object> m = new java.util.LinkedHashMap<>();
        m.put("steps", 1000.0);
        m.put("rounds", 10.0);
        return m;
    }
}

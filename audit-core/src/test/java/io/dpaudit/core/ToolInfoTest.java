package io.dpaudit.core;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.Map;
import org.junit.jupiter.api.Test;

/** Library versions come from Maven metadata, which plain jars and the shaded jar both carry. */
class ToolInfoTest {
    @Test
    void libraryVersionsAreRead() {
        Map<String, String> env = ToolInfo.environment();
        for (String key : new String[] {"commonsRng", "commonsMath3", "jackson"}) {
            String v = env.get(key);
            assertTrue(v != null && v.matches("\\d+\\.\\d+(\\.\\d+)?.*"), key + " = " + v);
        }
        assertEquals("unknown", ToolInfo.libraryVersion("no.such", "artifact", null));
    }
}

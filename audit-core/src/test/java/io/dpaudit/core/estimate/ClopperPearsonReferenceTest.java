package io.dpaudit.core.estimate;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import io.dpaudit.core.testing.ReferenceData;
import org.junit.jupiter.api.Test;

/**
 * Clopper–Pearson bounds at the sizes audits use (10^6 to 10^10 trials, 0 to 1000 successes, error levels 0.025 and
 * 1e-6) against 40-digit references computed from the definition (test resource
 * {@code reference/clopper_pearson_reference.json}, recipe beside it): each bound lies on its safe side of the truth
 * and within 2e-9 relative of it (the outward margin is 1e-9).
 */
class ClopperPearsonReferenceTest {
    @Test
    void boundsAreOnTheirSafeSideAndTight() {
        JsonNode rows = ReferenceData.load("clopper_pearson_reference.json");
        int checked = 0;
        for (JsonNode r : rows) {
            long n = r.get("n").asLong();
            long k = r.get("k").asLong();
            double a = r.get("a").asDouble();
            double u = r.get("upper").asDouble();
            double upper = ClopperPearson.upper(k, n, a);
            String what = "n=" + n + " k=" + k + " a=" + a;
            assertTrue(upper >= u && upper <= u * (1 + 2e-9), what + ": upper " + upper + " vs " + u);
            checked++;
            if (r.has("lower")) {
                double l = r.get("lower").asDouble();
                double lower = ClopperPearson.lower(k, n, a);
                assertTrue(lower <= l && lower >= l * (1 - 2e-9), what + ": lower " + lower + " vs " + l);
                checked++;
            }
        }
        assertEquals(54, checked);
    }
}

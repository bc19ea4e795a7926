package io.dpaudit.spark;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertSame;

import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;

/**
 * The executor's cache of prepared audits: keyed by what identifies an audit (the scenario text by its SHA-256, not
 * its hash code), and bounded.
 */
class RangeCounterTest {
    private static TaskSpec spec(String text, long trials) {
        return spec(text, trials, false);
    }

    private static TaskSpec spec(String text, long trials, boolean sequential) {
        return new TaskSpec(text, trials, 7, false, false, -1, 1, 16, null, null, 0, 1024, trials, "independent",
                sequential);
    }

    /**
     * "Aa" and "BB" have the same {@code String.hashCode} (2112) and length: the old key (hash code and length) took
     * them for one scenario, so an executor serving both audits would have counted the second with the first's
     * preparation.
     */
    @Test
    void scenarioTextsWhoseHashCodesCollideHaveDifferentKeys() {
        assertEquals("Aa".hashCode(), "BB".hashCode());
        assertNotEquals(RangeCounter.key(spec("{\"name\": \"Aa\"}", 10)), RangeCounter.key(spec("{\"name\": \"BB\"}",
                10)));
        assertEquals(RangeCounter.key(spec("x", 10)), RangeCounter.key(spec("x", 10)));
        assertNotEquals(RangeCounter.key(spec("x", 10)), RangeCounter.key(spec("x", 11)), "trials are part of it");
        // --until-resolved is not in the scenario text, yet it decides the estimate's method and the attack's simulator
        assertNotEquals(RangeCounter.key(spec("x", 10)), RangeCounter.key(spec("x", 10, true)), "and the rule");
    }

    /** The cache keeps the last few audits, the least recently used one going first, and prepares each once. */
    @Test
    void theCacheIsBoundedAndPreparesOnce() {
        RangeCounter.PreparedAudits cache = new RangeCounter.PreparedAudits(2);
        AtomicInteger prepared = new AtomicInteger();
        RangeCounter.Prepared a = cache.get("a", () -> {
            prepared.incrementAndGet();
            return new RangeCounter.Prepared(null, null);
        });
        assertSame(a, cache.get("a", () -> {
            throw new AssertionError("prepared twice");
        }));
        cache.get("b", () -> new RangeCounter.Prepared(null, null));
        cache.get("a", () -> a); // a used last: b is now the oldest
        cache.get("c", () -> new RangeCounter.Prepared(null, null));
        assertEquals(2, cache.size());
        assertSame(a, cache.get("a", () -> {
            throw new AssertionError("a was dropped instead of b");
        }));
        assertEquals(1, prepared.get());
    }
}

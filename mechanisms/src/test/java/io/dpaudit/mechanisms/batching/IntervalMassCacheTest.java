package io.dpaudit.mechanisms.batching;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotSame;
import static org.junit.jupiter.api.Assertions.assertSame;

import org.junit.jupiter.api.Test;

/**
 * The memo of interval masses and of brackets: the same arguments give the same array (computed once), other
 * arguments their own; a bracket is shared by equal configurations only. Deterministic.
 */
class IntervalMassCacheTest {
    @Test
    void equalArgumentsAreComputedOnceAndOthersApart() {
        int[] calls = {0};
        IntervalMassCache cache = new IntervalMassCache((n, h, tau, shift) -> {
            calls[0]++;
            return new double[] {n, h, tau, shift};
        });
        double[] first = cache.get(4, 0.5, 1.0, 0.0);
        assertSame(first, cache.get(4, 0.5, 1.0, 0.0));
        assertEquals(1, calls[0]);
        // -0.0 and 0.0 are different bits, and so different keys: never a wrong hit
        double[] other = cache.get(4, 0.5, 1.0, -0.0);
        assertNotSame(first, other);
        assertArrayEquals(new double[] {4, 0.5, 1.0, 1.0}, cache.get(4, 0.5, 1.0, 1.0));
        assertEquals(3, calls[0]);
        // past the limit the eldest goes, and is computed again when asked for
        for (int i = 0; i < IntervalMassCache.KEPT; i++) {
            cache.get(8, 0.25, 1.0, i);
        }
        cache.get(4, 0.5, 1.0, 0.0);
        assertEquals(4 + IntervalMassCache.KEPT, calls[0]);
    }

    @Test
    void aBracketIsSharedByEqualConfigurationsOnly() {
        BatchingParameters b = AllocationTailBoundTest.bnb(100, 1.0);
        assertSame(SharedBrackets.of(b), SharedBrackets.of(AllocationTailBoundTest.bnb(100, 1.0)));
        assertNotSame(SharedBrackets.of(b), SharedBrackets.of(AllocationTailBoundTest.bnb(100, 0.9)));
    }
}

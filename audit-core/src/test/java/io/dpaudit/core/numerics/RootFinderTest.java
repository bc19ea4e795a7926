package io.dpaudit.core.numerics;

import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.junit.jupiter.api.Test;

class RootFinderTest {
    @Test
    void bracketStraddlesTheRootAndIsNarrow() {
        RootFinder.Bracket b = RootFinder.solve(x -> x * x * x - 2, 0, 3, 1e-15, 0);
        double root = Math.cbrt(2);
        assertTrue(b.lo() <= root && root <= b.hi(), b.toString());
        assertTrue(b.width() <= 1e-14, b.toString());
        assertTrue(b.fLo() <= 0 && b.fHi() >= 0);
    }

    @Test
    void handlesFunctionsWithInfiniteValuesAtOneEnd() {
        // log of a function that reaches 0: the interpolation step is unusable there, bisection takes over.
        RootFinder.Bracket b = RootFinder.solve(x -> Math.log(Math.max(0, 1 - x)) + 1, 0, 1, 1e-14, 0);
        double root = 1 - Math.exp(-1);
        assertTrue(b.lo() <= root && root <= b.hi());
    }

    @Test
    void rejectsABracketWithoutSignChange() {
        assertThrows(IllegalArgumentException.class, () -> RootFinder.solve(x -> x * x + 1, -1, 1, 1e-12, 0));
    }

    @Test
    void bracketPositiveSearchesBothWaysAndGivesUp() {
        RootFinder.Bracket up = RootFinder.bracketPositive(s -> 100 - s, 1, 2, 1e-3, 1e3);
        assertTrue(up.lo() <= 100 && 100 <= up.hi());
        RootFinder.Bracket down = RootFinder.bracketPositive(s -> 0.01 - s, 1, 2, 1e-3, 1e3);
        assertTrue(down.lo() <= 0.01 && 0.01 <= down.hi());
        assertNull(RootFinder.bracketPositive(s -> -1, 1, 2, 1e-3, 1e3));
    }
}

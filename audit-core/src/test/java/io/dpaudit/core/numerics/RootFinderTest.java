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
        // between the last power of 2 and the end of the range (512 and 1000 up; 1/512 and 9.8e-4 down)
        RootFinder.Bracket top = RootFinder.bracketPositive(s -> 900 - s, 1, 2, 1e-3, 1e3);
        assertTrue(top != null && top.lo() == 512 && top.hi() == 1e3, String.valueOf(top));
        RootFinder.Bracket bottom = RootFinder.bracketPositive(s -> 9.9e-4 - s, 1, 2, 9.8e-4, 1e3);
        assertTrue(bottom != null && bottom.lo() == 9.8e-4 && bottom.hi() == 1.0 / 512, String.valueOf(bottom));
    }

    /**
     * A decreasing function whose root lies between the last power of the factor and the end of the range (0.2 in
     * [0.18, 1e7] from 1 by halving: 0.25, then 0.18; 9e6 by doubling: 8.4e6, then 1e7) is bracketed, not given up on;
     * one without a root in range still gives null.
     */
    @Test
    void bracketDecreasingReachesTheEndsOfItsRange() {
        RootFinder.Bracket down = RootFinder.bracketDecreasing(s -> 0.2 - s, 1, 2, 0.18, 1e7);
        assertTrue(down != null && down.lo() == 0.18 && down.hi() == 0.25, String.valueOf(down));
        RootFinder.Bracket up = RootFinder.bracketDecreasing(s -> 9e6 - s, 1, 2, 0.18, 1e7);
        assertTrue(up != null && up.lo() == 8_388_608 && up.hi() == 1e7, String.valueOf(up));
        assertNull(RootFinder.bracketDecreasing(s -> 0.1 - s, 1, 2, 0.18, 1e7));
        assertNull(RootFinder.bracketDecreasing(s -> 2e7 - s, 1, 2, 0.18, 1e7));
        RootFinder.Bracket inside = RootFinder.bracketDecreasing(s -> 3 - s, 1, 2, 0.18, 1e7);
        assertTrue(inside.lo() == 2 && inside.hi() == 4, inside.toString());
    }

    /**
     * solveSmooth on the kind of function calibration inverts (log delta of a Gaussian mechanism in sigma, smooth and
     * decreasing): the bracket straddles the root, meets the tolerance, and takes far fewer evaluations than solve.
     */
    @Test
    void solveSmoothConvergesQuicklyOnSmoothFunctions() {
        java.util.function.DoubleUnaryOperator f = s -> Math.log(Normal.sf(s)) - Math.log(1e-5);
        double root = Normal.inverseSurvival(1e-5);
        int[] smooth = {0};
        int[] plain = {0};
        java.util.function.DoubleUnaryOperator countedSmooth = x -> {
            smooth[0]++;
            return f.applyAsDouble(x);
        };
        java.util.function.DoubleUnaryOperator countedPlain = x -> {
            plain[0]++;
            return f.applyAsDouble(x);
        };
        RootFinder.Bracket start = new RootFinder.Bracket(2, 8, f.applyAsDouble(2), f.applyAsDouble(8));
        RootFinder.Bracket b = RootFinder.solveSmooth(countedSmooth, start, 1e-10, 0);
        assertTrue(b.lo() <= root * (1 + 1e-12) && root * (1 - 1e-12) <= b.hi(), b.toString());
        assertTrue(b.width() <= 1e-10 * b.hi(), b.toString());
        assertTrue(b.fLo() >= 0 && b.fHi() <= 0, b.toString());
        RootFinder.solve(countedPlain, 2, 8, 1e-10, 0);
        assertTrue(smooth[0] <= 10 && smooth[0] < plain[0], smooth[0] + " evaluations vs " + plain[0]);
    }

    /** A step function: no interpolation helps, and the bisections still bound the count. */
    @Test
    void solveSmoothTerminatesOnAStep() {
        java.util.function.DoubleUnaryOperator step = x -> x < 0.3 ? 1 : -1;
        RootFinder.Bracket b = RootFinder.solveSmooth(step, new RootFinder.Bracket(0, 1, 1, -1), 1e-12, 1e-12);
        assertTrue(b.lo() <= 0.3 && 0.3 <= b.hi() && b.width() <= 1e-12, b.toString());
        assertThrows(IllegalArgumentException.class,
                () -> RootFinder.solveSmooth(step, new RootFinder.Bracket(0, 0.2, 1, 1), 1e-12, 0));
    }
}

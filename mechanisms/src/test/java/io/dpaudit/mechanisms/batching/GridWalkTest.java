package io.dpaudit.mechanisms.batching;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.junit.jupiter.api.Test;

/**
 * The offsets' read finds each lattice point's grid index without a logarithm wherever its range is known
 * ({@link LossSurvivalReader.GridWalk}): every index it gives must be the one the logarithm gives, bit for bit, for
 * both directions and both ends, over a bottom rung's points at T = 1000 and T = 10^4 and with the grid clamped at
 * both ends; and it must skip most logarithms (else it saves nothing).
 */
class GridWalkTest {
    @Test
    void everyIndexItGivesIsTheLogarithmsIndex() {
        for (int steps : new int[] {1000, 10_000}) {
            double tau = 1;
            double logMean = Math.log(steps) + tau * tau / 2;
            int n = (1 << 21) - 1;
            double h = 2 * Math.exp(logMean) / n;
            double offset = 0.49 * h * steps;
            for (boolean remove : new boolean[] {true, false}) {
                for (boolean upper : new boolean[] {true, false}) {
                    // the grid spans losses [-0.5, 0.6] (so both clamps are met: the lattice spans about [-14, 0.7])
                    long iLo = (long) Math.floor(-0.5 / AllocationPld.LOSS_GRID);
                    int g = (int) (0.6 / AllocationPld.LOSS_GRID - iLo);
                    LossSurvivalReader.GridWalk walk = new LossSurvivalReader.GridWalk(h, offset, logMean, remove,
                            upper, iLo, g);
                    int walked = 0;
                    for (int j = 1; j <= n; j++) {
                        double loss = Math.log(j * h + offset) - logMean;
                        int exact = LossSurvivalReader.index(remove ? loss : -loss, upper, iLo, g);
                        if (walk.holds(j)) {
                            walked++;
                            assertEquals(exact, walk.index, "T " + steps + ", remove " + remove + ", upper " + upper
                                    + ", j " + j);
                        } else {
                            walk.settle(exact);
                        }
                    }
                    assertTrue(walked > 0.9 * n, "T " + steps + ": only " + walked + " of " + n + " walked");
                }
            }
        }
    }
}

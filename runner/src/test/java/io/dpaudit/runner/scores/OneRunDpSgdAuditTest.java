package io.dpaudit.runner.scores;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.dpaudit.mechanisms.onerun.OneRunDpSgd;
import java.util.List;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

/**
 * One-run audits of simulated DP-SGD runs ({@code io.dpaudit.mechanisms.onerun}) whose true per-canary ε is known
 * from the PLD accountant: the bound is never above the truth over 200 seeds (each bound holds with 95% confidence,
 * so up to about 10 of 200 could be above by chance; none is, and this fixed-seed test requires none), and a run
 * whose noise is 8 times smaller than the one its claim was accounted for is refuted.
 */
@Tag("statistical")
class OneRunDpSgdAuditTest {
    private static final double DELTA = 1e-5;

    private static double bound(OneRunDpSgd s, long seed) {
        return OneRunAudit.ofSimulatedRun(s, seed, 0.95, List.of(DELTA)).bounds().get(0).epsilon();
    }

    @Test
    void neverAboveTheTrueEpsilonOver200Seeds() {
        for (OneRunDpSgd s : new OneRunDpSgd[] {new OneRunDpSgd(1000, 1, 1.0, 0.5, 1.0),
            new OneRunDpSgd(1000, 100, 0.1, 1.0, 1.0)}) {
            double truth = s.trueEpsilon(DELTA);
            int above = 0;
            double largest = 0;
            for (long seed = 1; seed <= 200; seed++) {
                double e = bound(s, seed);
                largest = Math.max(largest, e);
                above += e > truth ? 1 : 0;
            }
            assertEquals(0, above, s + ": true epsilon " + truth + ", largest bound " + largest);
            assertTrue(largest > 0, "the audit certified something at least once");
        }
    }

    @Test
    void refutesARunAccountedWithEightTimesTheNoise() {
        OneRunDpSgd real = new OneRunDpSgd(1000, 1, 1.0, 0.25, 1.0);
        double claimed = new OneRunDpSgd(1000, 1, 1.0, 2.0, 1.0).trueEpsilon(DELTA);
        double found = bound(real, 7);
        assertTrue(found > claimed, "one-run bound " + found + " against the claimed epsilon " + claimed);
    }
}

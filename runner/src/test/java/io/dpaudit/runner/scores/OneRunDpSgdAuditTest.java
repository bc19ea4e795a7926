package io.dpaudit.runner.scores;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.dpaudit.mechanisms.onerun.OneRunDpSgd;
import java.util.List;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

/**
 * One-run audits of simulated DP-SGD runs ({@code io.dpaudit.mechanisms.onerun}) whose true per-canary ε is known
 * from the PLD accountant: the bound — Steinke et al.'s and the f-DP route's — is never above the truth over 200 seeds (each bound holds with 95% confidence,
 * so up to about 10 of 200 could be above by chance; none is, and this fixed-seed test requires none), and a run
 * whose noise is 8 times smaller than the one its claim was accounted for is refuted.
 */
@Tag("statistical")
class OneRunDpSgdAuditTest {
    private static final double DELTA = 1e-5;

    private static double bound(OneRunDpSgd s, long seed) {
        return OneRunAudit.ofSimulatedRun(s, seed, 0.95, List.of(DELTA)).bounds().get(0).epsilon();
    }

    /** The f-DP route's bound on the same run (Mahloujifar et al. 2024; the (eps, delta) trade-off, no shape assumed). */
    private static double fdpBound(OneRunDpSgd s, long seed) {
        return OneRunAudit.ofSimulatedRun(s, seed, 0.95, List.of(DELTA)).fdp().epsilon().get(0).epsilon();
    }

    @Test
    void neverAboveTheTrueEpsilonOver200Seeds() {
        for (OneRunDpSgd s : new OneRunDpSgd[] {new OneRunDpSgd(1000, 1, 1.0, 0.5, 1.0),
            new OneRunDpSgd(1000, 100, 0.1, 1.0, 1.0)}) {
            double truth = s.trueEpsilon(DELTA);
            int above = 0;
            double largest = 0;
            double largestFdp = 0;
            for (long seed = 1; seed <= 200; seed++) {
                OneRunAudit.Guesses g = OneRunAudit.ofSimulatedRun(s, seed, 0.95, List.of(DELTA));
                double e = g.bounds().get(0).epsilon();
                double f = g.fdp().epsilon().get(0).epsilon();
                largest = Math.max(largest, e);
                largestFdp = Math.max(largestFdp, f);
                above += e > truth ? 1 : 0;
                above += f > truth ? 1 : 0;
            }
            assertEquals(0, above, s + ": true epsilon " + truth + ", largest bounds " + largest + " (Steinke et al.), "
                    + largestFdp + " (f-DP route)");
            assertTrue(largest > 0 && largestFdp > 0, "the audit certified something at least once");
        }
    }

    @Test
    void refutesARunAccountedWithEightTimesTheNoise() {
        OneRunDpSgd real = new OneRunDpSgd(1000, 1, 1.0, 0.25, 1.0);
        double claimed = new OneRunDpSgd(1000, 1, 1.0, 2.0, 1.0).trueEpsilon(DELTA);
        double found = bound(real, 7);
        assertTrue(found > claimed, "one-run bound " + found + " against the claimed epsilon " + claimed);
        double fdp = fdpBound(real, 7);
        assertTrue(fdp > claimed, "f-DP route " + fdp + " against the claimed epsilon " + claimed);
    }
}

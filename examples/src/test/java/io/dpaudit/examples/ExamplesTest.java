package io.dpaudit.examples;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.dpaudit.core.audit.AuditResult;
import io.dpaudit.core.audit.Verdict;
import io.dpaudit.junit.DpAssert;
import io.dpaudit.mechanisms.onerun.OneRunDpSgd;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Every example runs and says what its javadoc says (fixed seeds: deterministic), at trial counts small enough for the
 * unit-test tier; plus the JUnit-assertion form of example 03, as a DP library's own test would write it.
 */
class ExamplesTest {
    @TempDir
    Path dir;

    @Test
    void example01RefutesTheOverclaimAndNotTheExactBound() {
        AuditResult r = Example01_AuditAClaim.run(10_000_000L);
        assertEquals(Verdict.VIOLATED, r.claims().get(0).verdict());
        assertNotEquals(Verdict.VIOLATED, r.claims().get(1).verdict());
    }

    @Test
    void example02AuditsScoreFiles() {
        AuditResult r = Example02_YourScores.run(dir, 200_000);
        assertEquals(Verdict.VIOLATED, r.claims().get(0).verdict()); // the sigma = 1 Gaussian needs eps 3.14 at 1e-3
    }

    @Test
    void example03FindsTheScaleBug() {
        assertEquals(Verdict.VIOLATED, Example03_YourJavaMechanism.run(1_000_000L).claims().get(0).verdict());
    }

    @Test
    void example03AsAJUnitAssertion() {
        DpAssert.assertThat(Example03_YourJavaMechanism.BUGGY_COUNT).onNeighbours(1, 0).withTrials(1_000_000)
                .withSeed(3).violates(0.5, 0);
    }

    @Test
    void example04AuditsAPapersTheorem() {
        AuditResult r = Example04_APapersTheorem.run(Path.of(".."), 200_000L);
        assertEquals(1, r.claims().size());
    }

    @Test
    void example05AuditsTheNewFamily() {
        AuditResult r = Example05_AMechanismFamily.audit(2_000_000L);
        assertEquals(Verdict.CONSISTENT, r.claims().get(0).verdict());
        assertEquals(Verdict.VIOLATED, r.claims().get(1).verdict());
    }

    @Test
    void example06OneRunCertifiesSomethingTrueFromOneRun() {
        OneRunDpSgd s = new OneRunDpSgd(1000, 1, 1.0, 0.5, 1.0);
        double truth = Example06_OneRunVersusManyRuns.trueEpsilon(s);
        double oneRun = Example06_OneRunVersusManyRuns.oneRun(s, 6);
        double manyRuns = Example06_OneRunVersusManyRuns.manyRuns(s, 2000, 6);
        assertTrue(oneRun > 0 && oneRun < truth, "one run: " + oneRun + ", true " + truth);
        assertTrue(manyRuns > 0 && manyRuns < truth, "2000 runs: " + manyRuns + ", true " + truth);
        double[] twoSided = Example06_OneRunVersusManyRuns.oneRunTwoSided(s, 6);
        assertTrue(twoSided[0] > 0 && twoSided[0] < truth && twoSided[1] > 0 && twoSided[1] < truth,
                "two-sided: " + java.util.Arrays.toString(twoSided) + ", true " + truth);
    }
}

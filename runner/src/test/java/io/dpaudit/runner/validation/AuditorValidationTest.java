package io.dpaudit.runner.validation;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.dpaudit.core.audit.AuditResult;
import io.dpaudit.core.audit.ClaimResult;
import io.dpaudit.core.audit.Verdict;
import io.dpaudit.core.bounds.GaussianBound;
import io.dpaudit.core.bounds.PoissonSubsampledGaussianBound;
import io.dpaudit.core.engine.ProgressListener;
import io.dpaudit.runner.ScenarioAudit;
import io.dpaudit.runner.scenario.Scenario;
import io.dpaudit.runner.scenario.ScenarioReader;
import java.util.Arrays;
import java.util.Locale;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import io.dpaudit.runner.analysis.AuditRunner;

/**
 * The auditor on real mechanisms: it must reach the stated power and must flag planted bugs, while accepting the
 * correct claim of the same mechanism. All runs use fixed seeds, so outcomes are deterministic; the comments give
 * the margin by which each one passes and its false-failure rate for a random seed.
 */
@Tag("statistical")
class AuditorValidationTest {

    private static AuditResult audit(String mechanism, long trials, long seed, String claims) {
        Scenario s = ScenarioReader.parse(String.format(Locale.ROOT, "{\"mechanism\": %s, \"trials\": %d, "
                + "\"seed\": %d, \"deltas\": [1e-5], \"epsilons\": [], \"claims\": [%s]}", mechanism, trials, seed,
                claims), "validation");
        return AuditRunner.run(ScenarioAudit.prepare(s, trials, seed, 2), ProgressListener.NONE).result();
    }

    private static ClaimResult onlyClaim(AuditResult r) {
        assertEquals(1, r.claims().size());
        return r.claims().get(0);
    }

    /**
     * Power (issue criterion): Gaussian sigma = 1, delta = 1e-5, 10^7 trials per world; the empirical epsilon must
     * reach 0.8 of the exact 4.3772. The best any Clopper–Pearson audit reaches at this N is about 0.87, and single
     * seeds scatter around 0.856 (3 of 40 seeds fell below 0.8 in our measurement), so the criterion is applied to
     * the median of 9 seeds, which falls below 0.8 with probability of order 1e-4.
     */
    @Test
    void gaussianPowerAtTenMillionTrials() {
        double exact = new GaussianBound(1.0).epsilon(1e-5);
        double[] ratios = new double[9];
        for (int seed = 1; seed <= ratios.length; seed++) {
            AuditResult r = audit("{\"type\": \"gaussian\", \"sigma\": 1}", 10_000_000L, seed, "");
            ratios[seed - 1] = r.epsilonLowerBounds().get(0).epsilon() / exact;
            assertTrue(ratios[seed - 1] <= 1.0, "a lower bound above the exact epsilon: " + ratios[seed - 1]);
        }
        Arrays.sort(ratios);
        System.out.printf(Locale.ROOT, "[power] gaussian sigma=1, 1e7 trials: epsilon_lb / exact = %s%n",
                Arrays.toString(ratios));
        assertTrue(ratios[4] >= 0.8, "median ratio " + ratios[4]);
    }

    @Test
    void acceptsTheExactClaimOfTheSubsampledGaussian() {
        ClaimResult c = onlyClaim(audit("{\"type\": \"poisson-subsampled-gaussian\", \"q\": 0.01, \"sigma\": 1}",
                10_000_000L, 21, "{\"bound\": \"poisson-subsampled-gaussian-exact\", \"delta\": 1e-5}"));
        assertNotEquals(Verdict.VIOLATED, c.verdict());
    }

    /** Planted bug: the mechanism runs with sigma = 0.7 but is claimed with the exact bound of sigma = 1. */
    @Test
    void flagsNoiseTooSmall() {
        double claimed = new GaussianBound(1.0).epsilon(1e-5);
        ClaimResult c = onlyClaim(audit("{\"type\": \"gaussian\", \"sigma\": 0.7}", 10_000_000L, 22,
                "{\"epsilon\": " + claimed + ", \"delta\": 1e-5}"));
        assertEquals(Verdict.VIOLATED, c.verdict());
        // True delta at that epsilon is 3.1e-3: the lower bound clears 1e-5 by two orders of magnitude.
        assertTrue(c.deltaLowerBound().delta() > 1e-3, "delta_lb " + c.deltaLowerBound().delta());
    }

    /** Planted bug: the mechanism samples with q = 0.02 but is claimed with the exact bound of q = 0.01. */
    @Test
    void flagsAMisreportedSamplingRate() {
        double claimed = new PoissonSubsampledGaussianBound(0.01, 1.0).epsilon(1e-5);
        ClaimResult c = onlyClaim(audit("{\"type\": \"poisson-subsampled-gaussian\", \"q\": 0.02, \"sigma\": 1}",
                10_000_000L, 23, "{\"epsilon\": " + claimed + ", \"delta\": 1e-5}"));
        assertEquals(Verdict.VIOLATED, c.verdict());
        assertTrue(c.deltaLowerBound().delta() > 5e-5, "delta_lb " + c.deltaLowerBound().delta());
    }

    /**
     * Planted bug: wrong adjacency, i.e. accounting only for the "add" order of the neighbouring pair. For q = 0.01,
     * sigma = 1 the add direction alone gives epsilon = 0.00906 at delta = 1e-5 (dp_accounting's per-direction value),
     * far below the true 0.1995 of the remove direction.
     */
    @Test
    void flagsAccountingForOneOrderOfTheNeighbouringPairOnly() {
        ClaimResult c = onlyClaim(audit("{\"type\": \"poisson-subsampled-gaussian\", \"q\": 0.01, \"sigma\": 1}",
                10_000_000L, 24, "{\"label\": \"add direction only\", \"epsilon\": 0.0090569351216581, "
                        + "\"delta\": 1e-5}"));
        assertEquals(Verdict.VIOLATED, c.verdict());
    }
}

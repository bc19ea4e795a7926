package io.dpaudit.runner.scores;

import static org.junit.jupiter.api.Assertions.assertTrue;

import io.dpaudit.core.audit.AuditResult;
import io.dpaudit.core.audit.AuditSettings;
import io.dpaudit.core.audit.Claim;
import io.dpaudit.core.audit.Stopping;
import io.dpaudit.core.audit.Verdict;
import io.dpaudit.core.engine.ShardedPhase;
import io.dpaudit.core.engine.ProgressListener;
import io.dpaudit.core.estimate.ThresholdSelection;
import io.dpaudit.core.rng.RandomStreams;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.apache.commons.rng.UniformRandomProvider;
import org.apache.commons.rng.sampling.distribution.ZigguratSampler;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The score-file audit's false-positive rate on correct mechanisms, over 200 seeds: the score files jax_privacy's
 * auditor is compared on ({@code scripts/compare-jax-privacy.py}), 10^4 scores per file, each judged against a claim
 * at its exact privacy curve — Laplace scores {@code Lap(1, 1)} against {@code Lap(0, 1)} claimed (1, 0)-DP, and
 * Gaussian scores {@code N(1, 1)} against {@code N(0, 1)} claimed (4.3772, 1e-5)-DP (the Gaussian mechanism with
 * mu = 1 at δ = 1e-5 is 4.37718, rounded up) — both at their exact curves. Each verdict errs with probability at most 5%; over 200
 * independent seeds more than 21 violations would have probability below 0.1% if that held, so the test fails above
 * 21 (the seeds are fixed: the outcome is deterministic). The same limit holds the ε lower bound at the claim's δ
 * (certified by the conditional odds-ratio test where the selection trials predict it larger), which may exceed the
 * exact ε with probability at most 5% per seed. The counts seen are stated in docs/auditing-what-others-built.md.
 */
@Tag("statistical")
class ScoreFileFalsePositiveTest {
    private static final int SEEDS = 200;
    private static final int SCORES = 10_000;
    /** The 99.9% quantile of Binomial(200, 0.05). */
    private static final int ALLOWED = 21;

    @TempDir
    Path dir;

    @Test
    void laplaceClaimedAtItsExactEpsilon() {
        int[] errors = errors(true, new Claim("exact (1, 0)", 1.0, 0.0, "stated"));
        assertTrue(errors[0] <= ALLOWED, errors[0] + " of " + SEEDS + " seeds flagged a correct claim");
        assertTrue(errors[1] <= ALLOWED, errors[1] + " of " + SEEDS + " seeds bounded epsilon above the exact one");
    }

    @Test
    void gaussianClaimedAtItsExactCurve() {
        int[] errors = errors(false, new Claim("exact (4.3772, 1e-5)", 4.3772, 1e-5, "stated"));
        assertTrue(errors[0] <= ALLOWED, errors[0] + " of " + SEEDS + " seeds flagged a correct claim");
        assertTrue(errors[1] <= ALLOWED, errors[1] + " of " + SEEDS + " seeds bounded epsilon above the exact one");
    }

    /**
     * The same Gaussian files audited sequentially in file order (stages of 1,000, 2,000, 4,000 and 3,000 scores, the
     * error level shared between the four looks): a violation at any look counts.
     */
    @Test
    void gaussianClaimedAtItsExactCurveSequentially() {
        int[] errors = errors(false, new Claim("exact (4.3772, 1e-5)", 4.3772, 1e-5, "stated"), Stopping.SEQUENTIAL);
        assertTrue(errors[0] <= ALLOWED, errors[0] + " of " + SEEDS + " seeds flagged a correct claim");
    }

    private int[] errors(boolean laplace, Claim claim) {
        return errors(laplace, claim, Stopping.FIXED);
    }

    /** {violated verdicts, ε lower bounds above the claim's (exact) ε} over the seeds. */
    private int[] errors(boolean laplace, Claim claim, Stopping stopping) {
        int violated = 0;
        int above = 0;
        for (long seed = 1; seed <= SEEDS; seed++) {
            UniformRandomProvider rng = new RandomStreams(seed).next();
            Path with = write("with.txt", rng, laplace, 1.0);
            Path without = write("without.txt", rng, laplace, 0.0);
            AuditSettings settings = new AuditSettings(1L << 40, seed, 1, 0.95,
                    new ThresholdSelection.HeldOut(ThresholdSelection.HeldOut.DEFAULT_FRACTION),
                    AuditSettings.DEFAULT_BINS, 1, ShardedPhase.DEFAULT_SHARD_TRIALS, List.of(claim.delta()),
                    List.of(claim.epsilon()));
            AuditResult r = ScoreFileAudit.run(new ScoreFileAudit.Request(new ScoreFile("--with", with, null),
                    new ScoreFile("--without", without, null), false, settings, List.of(claim), stopping, 0),
                    ProgressListener.NONE).result();
            violated += r.claims().get(0).verdict() == Verdict.VIOLATED ? 1 : 0;
            above += r.epsilonLowerBounds().get(0).epsilon() > claim.epsilon() ? 1 : 0;
        }
        System.out.printf("[score false positives] %s scores, claim %s, %s: %d of %d verdicts violated, %d epsilon "
                + "lower bounds above the exact epsilon (limit %d each)%n", laplace ? "Laplace" : "Gaussian",
                claim.label(), stopping.rule(), violated, SEEDS, above, ALLOWED);
        return new int[] {violated, above};
    }

    private Path write(String name, UniformRandomProvider rng, boolean laplace, double shift) {
        ZigguratSampler.NormalizedGaussian normal = ZigguratSampler.NormalizedGaussian.of(rng);
        StringBuilder b = new StringBuilder(SCORES * 22);
        for (int i = 0; i < SCORES; i++) {
            double z;
            if (laplace) {
                double u = rng.nextDouble() - 0.5; // inverse cdf of Lap(0, 1)
                z = -Math.signum(u) * Math.log1p(-2 * Math.abs(u));
            } else {
                z = normal.sample();
            }
            b.append(shift + z).append('\n');
        }
        try {
            return Files.writeString(dir.resolve(name), b);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }
}

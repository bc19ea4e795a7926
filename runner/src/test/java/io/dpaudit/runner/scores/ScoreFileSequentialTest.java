package io.dpaudit.runner.scores;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.dpaudit.core.InvalidInputException;
import io.dpaudit.core.audit.AuditResult;
import io.dpaudit.core.audit.AuditSettings;
import io.dpaudit.core.audit.Claim;
import io.dpaudit.core.audit.SequentialRun;
import io.dpaudit.core.audit.Stopping;
import io.dpaudit.core.audit.Verdict;
import io.dpaudit.core.engine.ProgressListener;
import io.dpaudit.core.engine.ShardedPhase;
import io.dpaudit.core.estimate.ThresholdSelection;
import io.dpaudit.core.rng.RandomStreams;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.apache.commons.rng.UniformRandomProvider;
import org.apache.commons.rng.sampling.distribution.ZigguratSampler;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Score files audited sequentially in file order: a false claim is refuted after the first stage and the rest of the
 * files is not counted; a claim that needs every score reads to the end (or the budget); a fixed design is unchanged;
 * selection and certification stay disjoint at every look.
 */
class ScoreFileSequentialTest {
    @TempDir
    Path dir;

    private Path with;
    private Path without;

    /** N(1, 1) against N(0, 1), 20,000 scores each (the Gaussian mechanism with mu = 1: epsilon 4.38 at 1e-5). */
    private void gaussianFiles(long seed) throws IOException {
        UniformRandomProvider rng = new RandomStreams(seed).next();
        ZigguratSampler.NormalizedGaussian g = ZigguratSampler.NormalizedGaussian.of(rng);
        StringBuilder a = new StringBuilder();
        StringBuilder b = new StringBuilder();
        for (int i = 0; i < 20_000; i++) {
            a.append(1 + g.sample()).append('\n');
            b.append(g.sample()).append('\n');
        }
        with = Files.writeString(dir.resolve("with.txt"), a);
        without = Files.writeString(dir.resolve("without.txt"), b);
    }

    private ScoreFileAudit.Outcome audit(Stopping stopping, long maxScores, Claim... claims) {
        AuditSettings settings = new AuditSettings(1L << 40, 3, 1, 0.95,
                new ThresholdSelection.HeldOut(ThresholdSelection.HeldOut.DEFAULT_FRACTION), AuditSettings.DEFAULT_BINS,
                1, ShardedPhase.DEFAULT_SHARD_TRIALS, List.of(1e-5), List.of(1.0));
        return ScoreFileAudit.run(new ScoreFileAudit.Request(new ScoreFile("--with", with, null),
                new ScoreFile("--without", without, null), false, settings, List.of(claims), stopping, maxScores),
                ProgressListener.NONE);
    }

    @Test
    void aFalseClaimIsRefutedAtTheFirstLookAndTheRestIsNotCounted() throws IOException {
        gaussianFiles(1);
        ScoreFileAudit.Outcome o = audit(Stopping.SEQUENTIAL, 0, new Claim("half", 0.5, 1e-5, "stated"));
        SequentialRun run = o.result().sequential();
        assertEquals(Verdict.VIOLATED, o.result().claims().get(0).verdict());
        assertEquals(SequentialRun.Stop.RESOLVED, run.stop());
        assertEquals(1, run.looks().size());
        assertEquals(1000, o.with().audited());
        assertEquals(1000, o.without().audited());
        assertEquals(20_000, o.with().scores());
        assertEquals(1000, o.result().settings().trialsPerWorld());
        assertEquals(1000, o.result().selectionTrials() + o.result().evaluationTrials());
    }

    @Test
    void anUnresolvedClaimReadsToTheBudgetAndEveryLookCertifiesOnItsOwnPart() throws IOException {
        gaussianFiles(2);
        // (10, 1e-5) holds but no test here could show a Gaussian at 15 violating it: inconclusive to the end.
        ScoreFileAudit.Outcome o = audit(Stopping.SEQUENTIAL, 12_000, new Claim("loose", 10, 1e-5, "stated"));
        SequentialRun run = o.result().sequential();
        assertEquals(SequentialRun.Stop.BUDGET, run.stop());
        assertEquals(12_000, o.with().audited());
        assertEquals(12_000, run.maxTrials());
        long[] through = {1000, 3000, 7000, 12_000}; // the 5,000 left over form the last stage
        assertEquals(through.length, run.looks().size());
        for (int k = 0; k < through.length; k++) {
            SequentialRun.Look l = run.looks().get(k);
            assertEquals(through[k], l.trialsPerWorld());
            assertEquals(l.trialsPerWorld(), l.selectionTrials() + l.evaluationTrials(), "parts disjoint, look " + k);
            assertTrue(l.selectionTrials() > 0.05 * through[k] && l.selectionTrials() < 0.15 * through[k]);
        }
        assertEquals(1 - 0.05 / 2, run.last().confidence(), 1e-12);
        assertEquals(1 - 0.05 / 4, run.looks().get(0).confidence(), 1e-12);
    }

    @Test
    void theFixedDesignIsOneLookOfEveryScore() throws IOException {
        gaussianFiles(3);
        Claim c = new Claim("exact", 4.3772, 1e-5, "stated");
        AuditResult fixed = audit(Stopping.FIXED, 0, c).result();
        assertNull(fixed.sequential());
        assertEquals(20_000, fixed.settings().trialsPerWorld());
        assertEquals(0.95, fixed.settings().confidence());
        // A sequential budget within the first stage is that same single look, at the full level.
        AuditResult single = audit(Stopping.sequentialFrom(20_000), 0, c).result();
        assertEquals(1, single.sequential().looks().size());
        assertEquals(fixed.epsilonLowerBounds(), single.epsilonLowerBounds());
        assertEquals(fixed.claims(), single.claims());
    }

    @Test
    void aNegativeBudgetIsRefused() throws IOException {
        gaussianFiles(4);
        InvalidInputException e = assertThrows(InvalidInputException.class, () -> audit(Stopping.SEQUENTIAL, -1));
        assertTrue(e.getMessage().contains("maxScores"), e.getMessage());
    }
}

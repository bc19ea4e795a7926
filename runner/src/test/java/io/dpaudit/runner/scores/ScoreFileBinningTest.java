package io.dpaudit.runner.scores;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.dpaudit.core.audit.AuditSettings;
import io.dpaudit.core.engine.ShardedPhase;
import io.dpaudit.core.engine.ProgressListener;
import io.dpaudit.core.estimate.ThresholdSelection;
import io.dpaudit.core.rng.RandomStreams;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.function.DoubleSupplier;
import org.apache.commons.rng.UniformRandomProvider;
import org.apache.commons.rng.sampling.distribution.ZigguratSampler;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Which histogram a score-file audit counts into, and whether it may call its counts exact. One slot per value is for
 * scores that repeat their values in the part that fixes the histogram; a continuous score (every value once) gets the
 * ordinary bins even when that part has fewer than 4096 values. When some scores are none of the slots' values (a rare
 * value the part did not show), the audit says how many, and the AUROC brackets the pairs within a slot instead of
 * counting them as ties. Until 2026-11-27, 5000 Gaussian scores per file were counted into one slot per value of
 * their range part, described as "values counted exactly", and their AUROC counted pairs within a slot as ties.
 */
class ScoreFileBinningTest {
    @TempDir
    Path dir;

    private ScoreFileAudit.Outcome audit(DoubleSupplier with, int n, DoubleSupplier without, int m) throws IOException {
        Path w = write("with.txt", with, n);
        Path o = write("without.txt", without, m);
        AuditSettings settings = new AuditSettings(1L << 40, 7, 1, 0.95,
                new ThresholdSelection.HeldOut(ThresholdSelection.HeldOut.DEFAULT_FRACTION), AuditSettings.DEFAULT_BINS,
                1, ShardedPhase.DEFAULT_SHARD_TRIALS, List.of(1e-5), List.of(1.0));
        return ScoreFileAudit.run(new ScoreFileAudit.Request(new ScoreFile("--with", w, null),
                new ScoreFile("--without", o, null), false, settings, List.of()), ProgressListener.NONE);
    }

    private Path write(String name, DoubleSupplier scores, int n) throws IOException {
        StringBuilder b = new StringBuilder();
        for (int i = 0; i < n; i++) {
            b.append(scores.getAsDouble()).append('\n');
        }
        return Files.writeString(dir.resolve(name), b);
    }

    @Test
    void continuousScoresGetOrdinaryBinsAndABracketedAuroc() throws IOException {
        UniformRandomProvider rng = new RandomStreams(11).next();
        ZigguratSampler.NormalizedGaussian g = ZigguratSampler.NormalizedGaussian.of(rng);
        ScoreFileAudit.Outcome o = audit(() -> 1 + g.sample(), 5000, g::sample, 5000);
        assertFalse(o.result().binning().exact(), "5000 distinct values are not a discrete score");
        assertEquals(AuditSettings.DEFAULT_BINS, o.result().binning().bins());
        assertEquals(0, o.scoresBetweenValues());
        assertFalse(o.result().attack().contains("exactly"), o.result().attack());
        assertTrue(o.metrics().auroc().method().contains("pairs within a bin bracketed"), o.metrics().auroc().method());
    }

    @Test
    void discreteScoresAreCountedExactly() throws IOException {
        UniformRandomProvider rng = new RandomStreams(12).next();
        ScoreFileAudit.Outcome o = audit(() -> rng.nextInt(7), 20_000, () -> rng.nextInt(6), 20_000);
        assertTrue(o.result().binning().exact());
        assertEquals(0, o.scoresBetweenValues());
        assertTrue(o.result().attack().contains("(their 7 values counted exactly)"), o.result().attack());
        assertTrue(o.metrics().auroc().method().contains("ties count 1/2"), o.metrics().auroc().method());
        assertEquals(o.metrics().auroc().bracketLow(), o.metrics().auroc().bracketHigh());
    }

    /**
     * Twenty rare values 100.5, 101.5, ... among 20 000 integers: the range part (a tenth, seed 7) shows at most a few
     * of them, the others count with the next smaller value shown, and the audit says so.
     */
    @Test
    void rareValuesTheRangePartDidNotShowAreCountedAndBracketed() throws IOException {
        UniformRandomProvider rng = new RandomStreams(13).next();
        int[] rare = {0};
        ScoreFileAudit.Outcome o = audit(() -> rare[0] < 20 && rng.nextInt(1000) == 0 ? 100.5 + rare[0]++
                : rng.nextInt(7), 20_000, () -> rng.nextInt(6), 20_000);
        assertTrue(o.result().binning().exact(), "one slot per value of the range part");
        assertTrue(o.scoresBetweenValues() > 0 && o.scoresBetweenValues() <= 20, "" + o.scoresBetweenValues());
        assertTrue(o.result().attack().contains("scores fell between them"), o.result().attack());
        assertTrue(o.metrics().auroc().method().contains("ties count 1/2 in slots of one value, pairs bracketed "
                + "within the "), o.metrics().auroc().method());
        // The rare values all exceed 6 and count with 6 (or with a rare value the part showed); no score without the
        // canary is 6 or more, so no pair within those slots is unknown: the bracket closes.
        assertEquals(o.metrics().auroc().bracketLow(), o.metrics().auroc().bracketHigh(), 1e-15);
    }
}

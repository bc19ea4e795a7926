package io.dpaudit.examples;

import io.dpaudit.core.audit.AuditSettings;
import io.dpaudit.core.audit.AuditResult;
import io.dpaudit.core.audit.Claim;
import io.dpaudit.core.engine.ShardedPhase;
import io.dpaudit.core.engine.ProgressListener;
import io.dpaudit.core.estimate.ThresholdSelection;
import io.dpaudit.runner.scores.ScoreFile;
import io.dpaudit.runner.scores.ScoreFileAudit;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Locale;
import java.util.SplittableRandom;

/**
 * Audit scores computed elsewhere (a Python training run, say): one score per run of the mechanism with the canary, one
 * per run without, in text, CSV or {@code .npy} files. Here the files are written first, from a Gaussian with shift 1
 * (the scores of the sigma = 1 Gaussian mechanism). {@code dp-audit scores --with A --without B} does the same.
 */
public final class Example02_YourScores {
    private Example02_YourScores() {
    }

    /** Writes {@code n} scores per world into {@code dir} and audits them against the claim (2, 1e-3). */
    public static AuditResult run(Path dir, int n) {
        SplittableRandom rng = new SplittableRandom(2); // for writing the example's files only
        StringBuilder with = new StringBuilder();
        StringBuilder without = new StringBuilder();
        for (int i = 0; i < n; i++) {
            with.append(1 + gaussian(rng)).append('\n');
            without.append(gaussian(rng)).append('\n');
        }
        try {
            Files.writeString(dir.resolve("with.txt"), with);
            Files.writeString(dir.resolve("without.txt"), without);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        AuditSettings settings = new AuditSettings(1L << 40, 0, 1, 0.95, new ThresholdSelection.HeldOut(0.1),
                AuditSettings.DEFAULT_BINS, 1, ShardedPhase.DEFAULT_SHARD_TRIALS, List.of(1e-3), List.of(0.0, 1.0));
        ScoreFileAudit.Request request = new ScoreFileAudit.Request(new ScoreFile("with", dir.resolve("with.txt"),
                null), new ScoreFile("without", dir.resolve("without.txt"), null), false, settings,
                List.of(new Claim("(2, 1e-3)", 2.0, 1e-3, "stated")));
        return ScoreFileAudit.run(request, ProgressListener.NONE).result();
    }

    private static double gaussian(SplittableRandom rng) {
        return Math.sqrt(-2 * Math.log(1 - rng.nextDouble())) * Math.cos(2 * Math.PI * rng.nextDouble());
    }

    /** Runs the example and prints what it found. */
    public static void main(String[] args) throws IOException {
        AuditResult r = run(Files.createTempDirectory("dp-audit-example-02"), 1_000_000);
        System.out.printf(Locale.ROOT, "epsilon >= %.4g at delta = 1e-3; claim (2, 1e-3): %s%n",
                r.epsilonLowerBounds().get(0).epsilon(), r.claims().get(0).verdict().label());
    }
}

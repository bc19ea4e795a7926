package io.dpaudit.reports.cli;

import io.dpaudit.core.Checks;
import io.dpaudit.core.InvalidInputException;
import io.dpaudit.core.ToolInfo;
import io.dpaudit.core.audit.Claim;
import io.dpaudit.core.engine.RunControl;
import io.dpaudit.core.estimate.onerun.GuessSides;
import io.dpaudit.reports.report.OneRunReport;
import io.dpaudit.reports.report.Provenance;
import io.dpaudit.reports.report.ReportSet;
import io.dpaudit.runner.scores.OneRunAudit;
import io.dpaudit.runner.scores.ScoreFile;
import java.io.PrintStream;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import picocli.CommandLine.Option;

/**
 * {@code dp-audit scores --one-run}: the scores of one training run's canaries, included and not (Steinke, Nasr &amp;
 * Jagielski 2023), bounded, written as report.json, report.md and report.html, and printed.
 */
final class OneRunScores {
    @Option(names = "--one-run", description = "one training run: --with holds the scores of the canaries that were "
            + "included, --without of those that were not, one score per canary (Steinke, Nasr & Jagielski 2023)")
    boolean oneRun;
    @Option(names = "--one-run-bound", paramLabel = "steinke|fdp", description = "with --one-run, the bound that "
            + "decides verdicts: steinke (Steinke et al. 2023, default) or fdp (the f-DP route through the "
            + "(eps, delta) trade-off, Mahloujifar et al. 2024); both are reported")
    String oneRunBound;
    @Option(names = "--guesses", paramLabel = "one-sided|two-sided", description = "with --one-run: guess included "
            + "for the k highest scores (one-sided, default), or included for the k/2 highest and excluded for the k/2 "
            + "lowest (two-sided)")
    String guesses;

    /** Refuses the one-run options without {@code --one-run}, and a bound that is not known. */
    void validate() {
        if (!oneRun && oneRunBound != null) {
            throw new InvalidInputException("--one-run-bound", oneRunBound, "applies to --one-run only");
        }
        if (!oneRun && guesses != null) {
            throw new InvalidInputException("--guesses", guesses, "applies to --one-run only");
        }
        if (oneRun && oneRunBound != null && !oneRunBound.equals(OneRunReport.STEINKE)
                && !oneRunBound.equals(OneRunReport.FDP)) {
            throw new InvalidInputException("--one-run-bound", oneRunBound, "must be " + OneRunReport.STEINKE + " or "
                    + OneRunReport.FDP);
        }
    }

    /** How the guesses are made, validated. */
    GuessSides sides() {
        return guesses == null ? GuessSides.ONE_SIDED : GuessSides.of("--guesses", guesses);
    }

    /** Reads, bounds, writes the report set into {@code outPath} and prints the bounds; the exit code. */
    int run(Main.Streams io, boolean quiet, ScoreFile with, ScoreFile without, boolean lowerMeansWith,
            double confidence, List<Double> deltas, List<Claim> claims, long seed, RunControl progress, Path outPath,
            Provenance provenance) {
        GuessSides sides = sides();
        List<Double> all = new ArrayList<>(deltas);
        List<double[]> claimValues = new ArrayList<>();
        for (Claim c : claims) {
            if (c.delta() >= 1) {
                throw new InvalidInputException("--claim delta", c.delta(), "must be below 1");
            }
            claimValues.add(new double[] {c.epsilon(), c.delta()});
            if (!all.contains(c.delta())) {
                all.add(c.delta());
            }
        }
        if (!quiet) {
            io.err().println(ToolInfo.NAME + " " + ToolInfo.version() + ": one-run audit of " + with.path()
                    + " (canaries included) against " + without.path() + " (not included), seed " + seed);
        }
        var outcome = OneRunAudit.run(with, without, lowerMeansWith, confidence, all, seed, sides, progress);
        var report = new OneRunReport(outcome, lowerMeansWith ? "lower" : "higher", confidence, seed, claimValues,
                oneRunBound == null ? OneRunReport.STEINKE : oneRunBound, provenance);
        ReportSet.writeInto("--out", outPath, report.files());
        PrintStream out = io.out();
        out.printf(Locale.ROOT, "One-run audit: %d canaries (%d included), %d guess counts (%s), %s confidence%n",
                outcome.canaries(), outcome.included().scores(), outcome.guessCounts().length, sides.label(),
                String.format(Locale.ROOT, "%.4g%%", 100 * confidence));
        for (int i = 0; i < outcome.bounds().size(); i++) {
            var b = outcome.bounds().get(i);
            var f = outcome.fdp().epsilon().get(i);
            out.printf(Locale.ROOT, "  at delta = %-10s epsilon >= %s (Steinke et al.; %d guesses, %d correct), >= %s "
                    + "(f-DP route; %d, %d)%n", OneRunReport.delta(b.delta()), OneRunReport.lowerBound(b.epsilon()),
                    b.guesses(), b.correct(), OneRunReport.lowerBound(f.epsilon()), f.guesses(), f.correct());
        }
        var mu = outcome.fdp().mu();
        out.printf(Locale.ROOT, "  mu-GDP refuted for mu <= %s (%d guesses, %d correct)%n",
                OneRunReport.lowerBound(mu.mu()), mu.guesses(), mu.correct());
        for (double[] c : claimValues) {
            double lb = report.verdictEpsilon(c[1]);
            out.printf(Locale.ROOT, "  %-12s claim (%s, %s): epsilon >= %s%n", lb > c[0] ? "VIOLATED" : "not refuted",
                    Checks.format(c[0]), OneRunReport.delta(c[1]), OneRunReport.lowerBound(lb));
        }
        out.println("Reports: " + outPath.resolve("report.json") + ", report.md, report.html");
        return report.anyViolated() ? Main.VIOLATED : Main.OK;
    }
}

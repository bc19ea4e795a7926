package io.dpaudit.reports.cli;

import io.dpaudit.core.Checks;
import io.dpaudit.core.InvalidInputException;
import io.dpaudit.core.ToolInfo;
import io.dpaudit.core.audit.AuditSettings;
import io.dpaudit.core.audit.Claim;
import io.dpaudit.core.audit.Stopping;
import io.dpaudit.core.engine.ProgressListener;
import io.dpaudit.core.engine.RunControl;
import io.dpaudit.core.engine.ShardedPhase;
import io.dpaudit.reports.report.AuditReport;
import io.dpaudit.reports.report.Provenance;
import io.dpaudit.reports.report.ReportFiles;
import io.dpaudit.reports.report.ReportSet;
import io.dpaudit.runner.scores.ScoreFile;
import io.dpaudit.runner.scores.ScoreFileAudit;
import io.dpaudit.runner.scores.ScoreFileOutcome;
import java.nio.file.Path;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;

/** {@code dp-audit scores}: an audit of per-trial scores computed outside dp-audit. */
@Command(name = "scores", synopsisHeading = "usage: ", customSynopsis = {
    "dp-audit scores --with A --without B [--confidence C] [--deltas D,...] [--epsilons E,...]",
    "                [--claim EPS,DELTA]... [--direction higher|lower] [--column NAME] [--out DIR] ..."},
        descriptionHeading = "%n", description = {"Audit two files of per-trial scores (e.g. from a Python run).", "",
            "A is one score per run of the mechanism with the canary, B one per run without it: text or CSV (one "
            + "score per line, an optional header naming the column), NumPy .npy (float64 or float32, as numpy.save "
            + "writes it), or either gzipped. Higher scores mean \"looks like the world with the canary\" unless "
            + "--direction lower. The files are streamed twice (memory does not grow with them); a seeded random "
            + "part of each chooses the threshold test, the rest certifies it. Writes report.json, report.md, "
            + "report.html, the plot data and the histograms, as run does.",
            "Exit: 0 no claim violated, 3 a claim violated, 2 bad input (a file and line named), 1 internal error.", ""})
final class ScoresCommand implements Callable<Integer> {
    private final Main.Streams io;
    @Option(names = "--with", required = true, paramLabel = "A", description = "scores of runs with the canary")
    String with;
    @Option(names = "--without", required = true, paramLabel = "B", description = "scores of runs without it")
    String without;
    @Option(names = "--confidence", paramLabel = "C", description = "confidence of each bound and verdict (0.95)")
    String confidence;
    @Option(names = "--direction", paramLabel = "higher|lower", description = "which scores mean \"with the "
            + "canary\" (higher)")
    String direction;
    @Option(names = "--column", paramLabel = "NAME", description = "the CSV column holding the scores")
    String column;
    @Option(names = "--seed", paramLabel = "S", description = "root seed of the random split (0)")
    String seed;
    @Option(names = "--name", paramLabel = "NAME", description = "a name for the report (scores)")
    String name;
    @Option(names = "--out", paramLabel = "DIR", description = "report directory (dp-audit-out)")
    String outDir;
    @Option(names = "--until-resolved", description = "audit sequentially in file order: stages of 1000, 2000, "
            + "4000, ... scores of each file, every claim judged after each with the error level shared between the "
            + "looks, stopping as soon as every claim is violated or powered-consistent (else at the files' end or "
            + "--max-trials)")
    boolean untilResolved;
    @Option(names = "--max-trials", paramLabel = "N", description = "with --until-resolved, the scores of each file "
            + "the audit may use (the first ones)")
    String maxTrialsText;
    @Option(names = "--quiet", description = "no progress on standard error")
    boolean quiet;
    @Option(names = {"-h", "--help"}, usageHelp = true, description = "show this help")
    boolean help;
    @Mixin
    ScoreClaimOptions claimOptions = new ScoreClaimOptions();
    @Mixin
    ScoreTestOptions testOptions = new ScoreTestOptions();
    @Mixin
    OneRunScores oneRun = new OneRunScores();
    @Mixin
    TimeBudget budget = new TimeBudget();

    ScoresCommand(Main.Streams io) {
        this.io = io;
    }

    @Override
    public Integer call() {
        Instant started = Instant.now();
        // The score files are read on this thread, so the budget is checked between scores, never by an interrupt
        // (which would close the file's channel mid-read).
        RunControl progress = budget.control(quiet ? ProgressListener.NONE : ConsoleProgress.forStandardError(
                io.err()));
        // Every option first (cheap), then the files exist, then the work; nothing is written before it succeeds.
        double conf = confidence == null ? AuditSettings.DEFAULT_CONFIDENCE
                : Checks.confidence("--confidence", OptionValues.number("--confidence", confidence));
        List<Double> deltas = claimOptions.deltas();
        List<Double> epsilons = claimOptions.epsilons();
        List<Claim> claims = claimOptions.claims();
        String dir = direction == null ? "higher" : direction;
        if (!dir.equals("higher") && !dir.equals("lower")) {
            throw new InvalidInputException("--direction", dir, "must be higher or lower");
        }
        long rootSeed = seed == null ? 0 : OptionValues.wholeNumber("--seed", seed);
        oneRun.validate();
        if (oneRun.oneRun) {
            testOptions.refuseForOneRun();
            if (claimOptions.epsilons != null) {
                throw new InvalidInputException("--epsilons", String.join(",", claimOptions.epsilons), "does not "
                        + "apply to --one-run (it reports epsilon lower bounds at --deltas)");
            }
            if (untilResolved) {
                throw new InvalidInputException("--until-resolved", "true", "does not apply to --one-run (its "
                        + "canaries are one training run, audited at once)");
            }
        }
        long maxScores = maxScores();
        var selection = testOptions.selection();
        int bins = testOptions.bins();
        Path outPath = ReportFiles.outDirectory(outDir, RunCommand.DEFAULT_OUT);
        ReportFiles.checkDirectory("--out", outPath, ReportSet.fileNames());
        new OutputPaths().input("--with", Path.of(with)).input("--without", Path.of(without))
                .refuseDirectory("--out", outPath, List.of(ReportSet.fileNames()));
        var withFile = new ScoreFile("--with", Path.of(with), column);
        var withoutFile = new ScoreFile("--without", Path.of(without), column);
        if (oneRun.oneRun) {
            return oneRun.run(io, quiet, withFile, withoutFile, dir.equals("lower"), conf, deltas, claims, rootSeed,
                    progress, outPath, Provenance.of(started, io.arguments(), null));
        }
        // Trials are the files' business: a placeholder lets the other settings validate.
        AuditSettings settings = new AuditSettings(1L << 40, rootSeed, 1, conf, selection, bins, 1,
                ShardedPhase.DEFAULT_SHARD_TRIALS, deltas, epsilons, AuditSettings.TradeOffSettings.DEFAULT);
        if (!quiet) {
            io.err().println(ToolInfo.NAME + " " + ToolInfo.version() + ": auditing external scores " + with + " (with "
                    + "the canary) against " + without + ", seed " + rootSeed + ", " + claims.size() + " claim(s)");
        }
        if (untilResolved && claims.isEmpty()) {
            throw new InvalidInputException("--until-resolved", "true", "needs a claim to resolve (--claim)");
        }
        var request = new ScoreFileAudit.Request(withFile, withoutFile, dir.equals("lower"), settings, claims,
                untilResolved ? Stopping.SEQUENTIAL : Stopping.FIXED, maxScores);
        AuditReport report = AuditReport.of(ScoreFileOutcome.of(request, ScoreFileAudit.run(request, progress), name))
                .withProvenance(Provenance.of(started, io.arguments(), null));
        ReportSet.writeInto("--out", outPath, ReportSet.render(report, Map.of()));
        io.out().print(SummaryTable.format(report));
        io.out().println("Reports: " + outPath.resolve("report.json") + ", report.md, report.html (plot data: "
                + "curves.csv, tradeoff.csv; histograms: counts.json)");
        return report.result().anyViolated() ? Main.VIOLATED : Main.OK;
    }

    /** {@code --max-trials}, validated (a sequential audit only), or 0 for all the scores. */
    private long maxScores() {
        if (maxTrialsText == null) {
            return 0;
        }
        if (!untilResolved) {
            throw new InvalidInputException("--max-trials", maxTrialsText, "applies to a sequential audit "
                    + "(--until-resolved)");
        }
        return Checks.trials("--max-trials", OptionValues.wholeNumber("--max-trials", maxTrialsText));
    }
}

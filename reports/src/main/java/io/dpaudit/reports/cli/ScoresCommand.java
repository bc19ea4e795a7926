package io.dpaudit.reports.cli;

import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.dpaudit.core.Checks;
import io.dpaudit.core.InvalidInputException;
import io.dpaudit.core.ToolInfo;
import io.dpaudit.core.audit.AuditSettings;
import io.dpaudit.core.audit.Claim;
import io.dpaudit.core.audit.Stopping;
import io.dpaudit.core.engine.ShardedPhase;
import io.dpaudit.core.engine.ProgressListener;
import io.dpaudit.core.engine.RunControl;
import io.dpaudit.core.estimate.ThresholdSelection;
import io.dpaudit.core.model.Parameters;
import io.dpaudit.core.rng.RandomStreams;
import io.dpaudit.reports.report.AuditReport;
import io.dpaudit.reports.report.Provenance;
import io.dpaudit.reports.report.ReportFiles;
import io.dpaudit.runner.scenario.ClaimSpec;
import io.dpaudit.runner.scenario.Scenario;
import io.dpaudit.runner.scenario.ScenarioReader;
import io.dpaudit.runner.scores.ExternalScores;
import io.dpaudit.core.estimate.onerun.GuessSides;
import io.dpaudit.runner.scores.OneRunAudit;
import io.dpaudit.reports.report.OneRunReport;
import io.dpaudit.runner.scores.ScoreFile;
import io.dpaudit.runner.scores.ScoreFileAudit;
import java.io.PrintStream;
import java.nio.file.Path;
import java.time.Instant;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;
import io.dpaudit.reports.ReportAssembly;

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
    @Option(names = "--deltas", paramLabel = "D", split = ",", description = "deltas for epsilon lower bounds "
            + "(1e-5; 0 for pure DP)")
    List<String> deltas;
    @Option(names = "--epsilons", paramLabel = "E", split = ",", description = "epsilons for delta lower bounds "
            + "(0,0.5,1,2)")
    List<String> epsilons;
    @Option(names = "--claim", paramLabel = "EPS,DELTA", description = "a claim to judge (repeatable)")
    List<String> claims;
    @Option(names = "--direction", paramLabel = "higher|lower", description = "which scores mean \"with the "
            + "canary\" (higher)")
    String direction;
    @Option(names = "--column", paramLabel = "NAME", description = "the CSV column holding the scores")
    String column;
    @Option(names = "--seed", paramLabel = "S", description = "root seed of the random split (0)")
    String seed;
    @Option(names = "--selection", paramLabel = "held-out|bonferroni", description = "threshold selection (held-out)")
    String selection;
    @Option(names = "--holdout-fraction", paramLabel = "F", description = "share of each file that chooses the test "
            + "(0.1)")
    String holdout;
    @Option(names = "--grid", paramLabel = "G", description = "Bonferroni grid size (64)")
    String grid;
    @Option(names = "--bins", paramLabel = "K", description = "histogram bins (8192)")
    String bins;
    @Option(names = "--name", paramLabel = "NAME", description = "a name for the report (scores)")
    String name;
    @Option(names = "--out", paramLabel = "DIR", description = "report directory (dp-audit-out)")
    String outDir;
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
    @picocli.CommandLine.Mixin
    TimeBudget budget = new TimeBudget();

    ScoresCommand(Main.Streams io) {
        this.io = io;
    }

    @Override
    public Integer call() {
        Instant started = Instant.now();
        PrintStream out = io.out();
        // The score files are read on this thread, so the budget is checked between scores, never by an interrupt
        // (which would close the file's channel mid-read).
        RunControl progress = budget.control(quiet ? ProgressListener.NONE : ConsoleProgress.forStandardError(
                io.err()));
        PrintStream err = io.err();
        // Every option first (cheap), then the files exist, then the work; nothing is written before it succeeds.
        double conf = confidence == null ? AuditSettings.DEFAULT_CONFIDENCE
                : Checks.confidence("--confidence", OptionValues.number("--confidence", confidence));
        List<Double> deltaList = numbers("--deltas", deltas, List.of(1e-5), true);
        List<Double> epsilonList = numbers("--epsilons", epsilons, List.of(0.0, 0.5, 1.0, 2.0), false);
        List<ClaimSpec> specs = new ArrayList<>();
        List<Claim> claimList = new ArrayList<>();
        if (claims != null) {
            if (claims.size() > ScenarioReader.MAX_LIST) {
                throw new InvalidInputException("--claim", claims.size() + " claims", "at most "
                        + ScenarioReader.MAX_LIST);
            }
            for (String c : claims) {
                String[] parts = c.split(",", -1);
                if (parts.length != 2) {
                    throw new InvalidInputException("--claim", c, "must be EPS,DELTA");
                }
                double e = Checks.nonNegative("--claim epsilon", OptionValues.number("--claim", parts[0].strip()));
                double d = Checks.deltaOrZero("--claim delta", OptionValues.number("--claim", parts[1].strip()));
                String label = String.format(Locale.ROOT, "(%s, %s)", Checks.format(e), Checks.format(d));
                specs.add(new ClaimSpec(label, null, e, d, "--claim"));
                claimList.add(new Claim(label, e, d, "stated"));
            }
        }
        String dir = direction == null ? "higher" : direction;
        if (!dir.equals("higher") && !dir.equals("lower")) {
            throw new InvalidInputException("--direction", dir, "must be higher or lower");
        }
        long rootSeed = seed == null ? 0 : OptionValues.wholeNumber("--seed", seed);
        if (!oneRun && oneRunBound != null) {
            throw new InvalidInputException("--one-run-bound", oneRunBound, "applies to --one-run only");
        }
        if (!oneRun && guesses != null) {
            throw new InvalidInputException("--guesses", guesses, "applies to --one-run only");
        }
        GuessSides sides = guesses == null ? GuessSides.ONE_SIDED : GuessSides.of("--guesses", guesses);
        if (oneRun) {
            if (oneRunBound != null && !oneRunBound.equals(OneRunReport.STEINKE)
                    && !oneRunBound.equals(OneRunReport.FDP)) {
                throw new InvalidInputException("--one-run-bound", oneRunBound, "must be " + OneRunReport.STEINKE
                        + " or " + OneRunReport.FDP);
            }
            for (String[] o : new String[][] {{"--selection", selection}, {"--holdout-fraction", holdout},
                {"--grid", grid}, {"--bins", bins}}) {
                if (o[1] != null) {
                    throw new InvalidInputException(o[0], o[1], "does not apply to --one-run (its guesses and their "
                            + "grid are fixed by the number of canaries)");
                }
            }
            if (epsilons != null) {
                throw new InvalidInputException("--epsilons", String.join(",", epsilons), "does not apply to "
                        + "--one-run (it reports epsilon lower bounds at --deltas)");
            }
        }
        long maxScores = 0;
        if (maxTrialsText != null) {
            if (!untilResolved) {
                throw new InvalidInputException("--max-trials", maxTrialsText, "applies to a sequential audit "
                        + "(--until-resolved)");
            }
            maxScores = Checks.trials("--max-trials", OptionValues.wholeNumber("--max-trials", maxTrialsText));
        }
        if (oneRun && untilResolved) {
            throw new InvalidInputException("--until-resolved", "true", "does not apply to --one-run (its canaries "
                    + "are one training run, audited at once)");
        }
        ThresholdSelection method = selection(holdout, grid);
        int binCount = bins == null ? AuditSettings.DEFAULT_BINS : Checks.inRange("--bins",
                (int) Math.max(Integer.MIN_VALUE, Math.min(Integer.MAX_VALUE, OptionValues.wholeNumber("--bins",
                        bins))), 16, 1 << 20);
        Path outPath = ReportFiles.outDirectory(outDir, RunCommand.DEFAULT_OUT);
        ReportFiles.checkDirectory("--out", outPath, RunCommand.REPORT_FILES);
        new OutputPaths().input("--with", Path.of(with)).input("--without", Path.of(without))
                .refuseDirectory("--out", outPath, List.of(RunCommand.REPORT_FILES));
        var withFile = new ScoreFile("--with", Path.of(with), column);
        var withoutFile = new ScoreFile("--without", Path.of(without), column);
        if (oneRun) {
            return oneRun(started, withFile, withoutFile, dir, conf, deltaList, claimList, rootSeed, sides, progress,
                    outPath);
        }
        // Trials are the files' business: a placeholder lets the other settings validate; replaced below by the count.
        AuditSettings settings = new AuditSettings(1L << 40, rootSeed, 1, conf, method, binCount, 1,
                ShardedPhase.DEFAULT_SHARD_TRIALS, deltaList, epsilonList,
                AuditSettings.TradeOffSettings.DEFAULT);
        if (!quiet) {
            err.println(ToolInfo.NAME + " " + ToolInfo.version() + ": auditing external scores " + with + " (with "
                    + "the canary) against " + without + ", seed " + rootSeed + ", " + claimList.size() + " claim(s)");
        }
        if (untilResolved && claimList.isEmpty()) {
            throw new InvalidInputException("--until-resolved", "true", "needs a claim to resolve (--claim)");
        }
        ScoreFileAudit.Outcome o = ScoreFileAudit.run(new ScoreFileAudit.Request(withFile, withoutFile,
                dir.equals("lower"), settings, claimList, untilResolved ? Stopping.SEQUENTIAL : Stopping.FIXED,
                maxScores), progress);
        Map<String, Object> params = new LinkedHashMap<>();
        params.put("type", "external-scores");
        for (var f : List.of(o.with(), o.without())) {
            String p = f == o.with() ? "with" : "without";
            params.put(p, f.name());
            params.put(p + "Scores", (double) f.scores());
            params.put(p + "Bytes", (double) f.bytes());
            params.put(p + "Sha256", f.sha256());
        }
        params.put("direction", dir);
        Parameters mechanismParameters = new Parameters("", params);
        var mechanism = new ExternalScores(mechanismParameters);
        ObjectNode source = JsonNodeFactory.instance.objectNode();
        source.putObject("mechanism").put("type", ExternalScores.TYPE);
        source.put("with", with);
        source.put("without", without);
        source.put("direction", dir);
        if (column != null) {
            source.put("column", column);
        }
        if (untilResolved) {
            ObjectNode stopping = source.putObject("stopping").put("rule", "sequential");
            if (maxScores > 0) {
                stopping.put("maxTrials", maxScores);
            }
        }
        source.put("seed", rootSeed);
        source.put("confidence", conf);
        ArrayNode ds = source.putArray("deltas");
        deltaList.forEach(ds::add);
        ArrayNode es = source.putArray("epsilons");
        epsilonList.forEach(es::add);
        ArrayNode cs = source.putArray("claims");
        for (Claim c : claimList) {
            cs.addObject().put("epsilon", c.epsilon()).put("delta", c.delta());
        }
        Scenario scenario = new Scenario(source, name != null ? name : "scores", "Per-trial scores computed outside "
                + "dp-audit: " + with + " (with the canary) and " + without + " (without).", mechanismParameters,
                new Parameters("simulator.", Map.of("kind", "external")), "external-scores", o.with().scores(),
                rootSeed, conf, method, binCount, deltaList, epsilonList, specs,
                AuditSettings.TradeOffSettings.DEFAULT, false);
        if (untilResolved) {
            scenario = scenario.withStopping(Stopping.SEQUENTIAL, o.result().sequential().maxTrials());
        }
        var result = o.result();
        List<String> notes = new ArrayList<>(mechanism.notes());
        if (o.with().scores() != o.without().scores()) {
            notes.add(String.format(Locale.ROOT, "The files hold %d and %d scores; each rate is bounded on its own "
                    + "world's scores (trialsPerWorld gives the first).", o.with().scores(), o.without().scores()));
        }
        if (o.scoresBetweenValues() > 0) {
            notes.add(String.format(Locale.ROOT, "The histogram has one slot per value the range part showed (%d: the "
                    + "scores repeat their values), but %,d scores are none of them: each counts with the next smaller "
                    + "value, a coarser threshold test (never an invalid one), and the AUROC brackets the pairs "
                    + "within those slots instead of counting them as ties. `histogram.exact` is true for this slot "
                    + "layout, not for these scores.", result.binning().bins() + 1, o.scoresBetweenValues()));
        }
        AuditReport report = new AuditReport(ToolInfo.NAME, ToolInfo.version(), scenario, mechanism,
                "external scores", result, List.of(), RandomStreams.description(), ToolInfo.environment(), notes,
                null, ReportAssembly.certifiedMuCurve(result)).withProvenance(Provenance.of(started, io.arguments(),
                        null)).withScoreMetrics(o.metrics());
        boolean existed = java.nio.file.Files.exists(outPath);
        ReportFiles.prepareDirectory("--out", outPath, RunCommand.REPORT_FILES);
        try {
            RunCommand.writeReports(outPath, report);
        } catch (RuntimeException | Error e) {
            if (!existed) {
                ReportFiles.removeIfEmpty(outPath);
            }
            throw e;
        }
        out.print(SummaryTable.format(report));
        out.println("Reports: " + outPath.resolve("report.json") + ", report.md, report.html (plot data: "
                + "curves.csv, tradeoff.csv; histograms: counts.json)");
        return report.result().anyViolated() ? Main.VIOLATED : Main.OK;
    }

    /** The one-run audit: read, bound, write the report set, print the bounds. */
    private int oneRun(Instant started, ScoreFile withFile, ScoreFile withoutFile, String dir, double conf,
            List<Double> deltaList, List<Claim> claimList, long rootSeed, GuessSides sides, RunControl progress,
            Path outPath) {
        List<Double> all = new ArrayList<>(deltaList);
        List<double[]> claimValues = new ArrayList<>();
        for (Claim c : claimList) {
            if (c.delta() >= 1) {
                throw new InvalidInputException("--claim delta", c.delta(), "must be below 1");
            }
            claimValues.add(new double[] {c.epsilon(), c.delta()});
            if (!all.contains(c.delta())) {
                all.add(c.delta());
            }
        }
        if (!quiet) {
            io.err().println(ToolInfo.NAME + " " + ToolInfo.version() + ": one-run audit of " + with + " (canaries "
                    + "included) against " + without + " (not included), seed " + rootSeed);
        }
        var outcome = OneRunAudit.run(withFile, withoutFile, dir.equals("lower"), conf, all,
                rootSeed, sides, progress);
        var report = new OneRunReport(outcome, dir, conf, rootSeed, claimValues,
                oneRunBound == null ? OneRunReport.STEINKE : oneRunBound, Provenance.of(started, io.arguments(), null));
        boolean existed = java.nio.file.Files.exists(outPath);
        ReportFiles.prepareDirectory("--out", outPath, "report.json", "report.md", "report.html");
        try {
            ReportFiles.writeAll(outPath, report.files());
        } catch (RuntimeException | Error e) {
            if (!existed) {
                ReportFiles.removeIfEmpty(outPath);
            }
            throw e;
        }
        PrintStream out = io.out();
        out.printf(Locale.ROOT, "One-run audit: %d canaries (%d included), %d guess counts (%s), %s confidence%n",
                outcome.canaries(), outcome.included().scores(), outcome.guessCounts().length, sides.label(),
                String.format(Locale.ROOT, "%.4g%%", 100 * conf));
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

    private static List<Double> numbers(String option, List<String> given, List<Double> defaults, boolean deltasList) {
        if (given == null) {
            return defaults;
        }
        if (given.size() > ScenarioReader.MAX_LIST) {
            throw new InvalidInputException(option, given.size() + " values", "at most " + ScenarioReader.MAX_LIST);
        }
        List<Double> out = new ArrayList<>();
        for (String g : given) {
            double v = OptionValues.number(option, g.strip());
            out.add(deltasList ? Checks.deltaOrZero(option, v) : Checks.nonNegative(option, v));
        }
        return out;
    }

    private ThresholdSelection selection(String holdoutText, String gridText) {
        String m = selection == null ? "held-out" : selection;
        switch (m) {
            case "held-out" -> {
                if (gridText != null) {
                    throw new InvalidInputException("--grid", gridText, "applies to --selection bonferroni");
                }
                double f = holdoutText == null ? ThresholdSelection.HeldOut.DEFAULT_FRACTION
                        : OptionValues.number("--holdout-fraction", holdoutText);
                if (!(f > 0 && f < 1)) {
                    throw new InvalidInputException("--holdout-fraction", holdoutText, "must be in (0, 1)");
                }
                return new ThresholdSelection.HeldOut(f);
            }
            case "bonferroni" -> {
                if (holdoutText != null) {
                    throw new InvalidInputException("--holdout-fraction", holdoutText, "applies to --selection "
                            + "held-out");
                }
                long g = gridText == null ? ThresholdSelection.Bonferroni.DEFAULT_GRID
                        : OptionValues.wholeNumber("--grid", gridText);
                if (g < 1 || g > 4096) {
                    throw new InvalidInputException("--grid", gridText, "must be in [1, 4096]");
                }
                return new ThresholdSelection.Bonferroni((int) g);
            }
            default -> throw new InvalidInputException("--selection", m, "must be held-out or bonferroni");
        }
    }
}

package io.dpaudit.reports.cli;

import io.dpaudit.core.ToolInfo;
import io.dpaudit.core.engine.ProgressListener;
import io.dpaudit.core.engine.RunControl;
import io.dpaudit.core.InvalidInputException;
import io.dpaudit.reports.report.AuditReport;
import io.dpaudit.reports.report.Provenance;
import io.dpaudit.reports.report.ReportFiles;
import io.dpaudit.reports.report.ReportSet;
import io.dpaudit.runner.PairSearch;
import io.dpaudit.runner.ScenarioAudit;
import io.dpaudit.runner.analysis.AuditRunner;
import io.dpaudit.runner.checkpoint.Checkpoint;
import io.dpaudit.runner.engine.EngineProvider;
import io.dpaudit.runner.scenario.Scenario;
import io.dpaudit.runner.scenario.ScenarioOverrides;
import io.dpaudit.runner.scenario.ScenarioReader;
import java.io.IOException;
import java.io.PrintStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;

/** {@code dp-audit run}. */
@Command(name = "run", synopsisHeading = "usage: ",
        customSynopsis = {"dp-audit run SCENARIO.json... | SCENARIO_DIR [--trials N] [--seed S] [--threads K]",
            "                   [--out DIR] [--estimate] [--quiet]"},
        descriptionHeading = "%n", description = {"Audit one scenario, several, or a directory of them.", "", "Audits the scenario and writes DIR/report.json, report.md and report.html (DIR defaults "
            + "to dp-audit-out), with the plot data (curves.csv, tradeoff.csv) and the histograms (counts.json); "
            + "prints a summary. Progress goes to standard error: the audit's header, then every phase (pilot, "
            + "selection, evaluation, estimate, bounds), as plain lines when standard error is not a terminal.",
            "Several scenario files, or a directory (its *.json files): every one is validated first, then each is "
            + "audited into DIR/<file name>/, and DIR/index.html and index.md list every claim (scenario, verdict, "
            + "tightness, link); --trials and --seed then apply to all of them.",
            "Exit: 0 no claim violated, 3 a claim violated, 2 bad input, 1 internal error.", ""})
final class RunCommand implements Callable<Integer> {
    /** Default report directory. */
    static final String DEFAULT_OUT = "dp-audit-out";

    private final Main.Streams io;
    @Parameters(arity = "1..*", paramLabel = "SCENARIO", description = "scenario files, or a directory of them")
    List<String> scenarios;
    @Option(names = "--out", paramLabel = "DIR", description = "report directory (default dp-audit-out)")
    String outDir;
    @Option(names = "--quiet", description = "no progress or warnings on standard error")
    boolean quiet;
    @Option(names = {"-h", "--help"}, usageHelp = true, description = "show this help")
    boolean help;
    @Mixin
    AuditOptions audit = new AuditOptions();
    @Mixin
    EngineOptions engine = new EngineOptions();
    @Mixin
    TimeBudget budget = new TimeBudget();

    RunCommand(Main.Streams io) {
        this.io = io;
    }

    @Override
    public Integer call() {
        PrintStream err = io.err();
        Instant started = Instant.now();
        Path first = Path.of(scenarios.get(0));
        boolean spark = engine.spark();
        ConsoleProgress console = quiet ? null : ConsoleProgress.forStandardError(err);
        RunControl control = budget.control(console == null ? ProgressListener.NONE : console);
        if (scenarios.size() > 1 || Files.isDirectory(first)) {
            engine.refuseCheckpoint("a run of one scenario");
            ScenarioOverrides overrides = audit.overrides();
            int threads = audit.threads();
            Path dir = ReportFiles.outDirectory(outDir, DEFAULT_OUT);
            List<Path> files = ScenarioDirectoryRun.scenarioFiles(scenarios);
            try (StillWorking still = new StillWorking("run", quiet ? null : err, control, console == null ? null
                    : console::lastOutputNanos)) {
                return new ScenarioDirectoryRun(overrides, threads, quiet, err).run(files, dir, control, started,
                        io.arguments(), io.out());
            }
        }
        if (spark) {
            engine.refuseCheckpoint("the local engine");
        }
        // Options first (cheap to check), then the scenario file.
        ScenarioOverrides overrides = audit.overrides();
        int threads = audit.threads();
        Path dir = ReportFiles.outDirectory(outDir, DEFAULT_OUT);
        OutputPaths guard = new OutputPaths().input("scenario", first);
        engine.guard(guard);
        guard.refuseDirectory("--out", dir, List.of(ReportSet.fileNames()));
        ReportFiles.checkDirectory("--out", dir, ReportSet.fileNames()); // no device, pipe or link where a file goes
        Scenario scenario = overrides.apply(ScenarioReader.read(first));
        if (spark && scenario.source() != null && scenario.source().has(PairSearch.KEY)) {
            // Executors rebuild the mechanism from the scenario file; the searched pair lives only on the driver.
            throw new InvalidInputException(PairSearch.KEY, "(a search)", "applies to the local engine; audit the "
                    + "chosen pair's scenario with --engine spark");
        }
        long trials = scenario.trials();
        long seed = overrides.seed(scenario);
        byte[] scenarioBytes = bytes(first);
        Checkpoint store = engine.store(seed, trials, scenario.stopping(), scenarioBytes); // before any preparation
        AuditReport report;
        boolean existed = Files.exists(dir);
        Thread flush = null;
        try (StillWorking still = new StillWorking("run", quiet ? null : err, control, console == null ? null
                : console::lastOutputNanos)) {
            if (!quiet) {
                err.println(ToolInfo.NAME + " " + ToolInfo.version() + ": preparing " + first + " ("
                        + scenario.mechanism().text("type", "?") + ": bounds and claims)");
            }
            ScenarioAudit.Prepared prepared = TimeBudget.guarded(control, c -> ScenarioAudit.prepare(scenario, trials,
                    seed, threads, c));
            if (!quiet) {
                ScenarioAudit.trialWarnings(prepared).forEach(w -> err.println("warning: " + w));
                err.println(ScenarioAudit.header(prepared));
            }
            EngineProvider.Session session = spark ? engine.sparkSession(prepared, scenarioBytes, quiet, err) : null;
            ReportFiles.prepareDirectory("--out", dir, ReportSet.fileNames());
            if (store != null) {
                String again = "dp-audit run " + first + " --resume " + store.file()
                        + audit.resumeOptions(overrides, trials, seed);
                flush = new Thread(() -> {
                    store.write(); // SIGINT: the checkpoint is kept, no report (exit 130)
                    err.println("dp-audit: interrupted; the completed shards are kept in " + store.file()
                            + "; go on with: " + again);
                    err.flush();
                }, "dp-audit-checkpoint");
                Runtime.getRuntime().addShutdownHook(flush);
            }
            try (EngineProvider.Session s = session) {
                report = AuditReport.of(TimeBudget.guarded(control, c -> AuditRunner.run(prepared, c, s == null ? null
                        : s.engine(), store))).withProvenance(Provenance.of(started, io.arguments(), scenarioBytes));
            }
            ReportSet.write(dir, report, Map.of());
        } catch (RuntimeException | Error e) {
            if (!existed) {
                ReportFiles.removeIfEmpty(dir); // a rejected run leaves nothing behind
            }
            throw e;
        } finally {
            if (flush != null) {
                try {
                    Runtime.getRuntime().removeShutdownHook(flush);
                } catch (IllegalStateException shuttingDown) {
                    // the hook is running: it keeps the checkpoint
                }
            }
        }
        io.out().print(SummaryTable.format(report));
        io.out().println("Reports: " + dir.resolve("report.json") + ", report.md, report.html (plot data: curves.csv, "
                + "tradeoff.csv; histograms: counts.json)");
        return report.result().anyViolated() ? Main.VIOLATED : Main.OK;
    }

    /** The scenario file's bytes for its hash (read again after parsing; null if it cannot be read now). */
    static byte[] bytes(Path p) {
        try {
            return Files.readAllBytes(p);
        } catch (IOException e) {
            return null;
        }
    }
}

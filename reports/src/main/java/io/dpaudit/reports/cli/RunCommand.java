package io.dpaudit.reports.cli;

import io.dpaudit.core.Checks;
import io.dpaudit.core.ToolInfo;
import io.dpaudit.core.InvalidInputException;
import io.dpaudit.core.audit.Stopping;
import io.dpaudit.core.engine.ProgressListener;
import io.dpaudit.core.engine.RunControl;
import io.dpaudit.runner.PairSearch;
import io.dpaudit.runner.ScenarioAudit;
import io.dpaudit.runner.checkpoint.Checkpoint;
import io.dpaudit.runner.engine.EngineProvider;
import io.dpaudit.reports.report.AuditReport;
import io.dpaudit.reports.report.ClaimRows;
import io.dpaudit.reports.report.CountsWriter;
import io.dpaudit.reports.report.CsvDataWriter;
import io.dpaudit.reports.report.HtmlReportWriter;
import io.dpaudit.reports.report.IndexWriter;
import io.dpaudit.reports.report.JsonReportWriter;
import io.dpaudit.reports.report.MarkdownReportWriter;
import io.dpaudit.reports.report.Provenance;
import io.dpaudit.reports.report.ReportFiles;
import io.dpaudit.runner.scenario.Scenario;
import io.dpaudit.runner.scenario.ScenarioReader;
import java.io.PrintStream;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;
import io.dpaudit.reports.ReportAssembly;

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
    @Option(names = "--trials", paramLabel = "N", description = "trials per world (overrides the scenario's)")
    String trialsText;
    @Option(names = "--seed", paramLabel = "S", description = "root seed (overrides the scenario's)")
    String seedText;
    @Option(names = "--threads", paramLabel = "K", description = "worker threads; never changes a number "
            + "(default: the processors)")
    String threadsText;
    @Option(names = "--out", paramLabel = "DIR", description = "report directory (default dp-audit-out)")
    String outDir;
    @Option(names = "--estimate", description = "add the two-sided privacy-loss estimate: N more trials per world of "
            + "the exact log-likelihood ratio, giving intervals for the simulated pair's true delta(eps) and "
            + "eps(delta), and a verdict per claim (violated, tight, loose or inconclusive)")
    boolean estimate;
    @Option(names = "--quiet", description = "no progress or warnings on standard error")
    boolean quiet;
    @Option(names = "--checkpoint", paramLabel = "FILE", description = "write the counts of completed shards to FILE "
            + "every few seconds (local engine, one scenario)")
    String checkpoint;
    @Option(names = "--resume", paramLabel = "FILE", description = "go on from the checkpoint in FILE (the same "
            + "scenario, seed, trials and version); keeps checkpointing there unless --checkpoint names another file")
    String resume;
    @Option(names = "--engine", paramLabel = "local|spark", description = "where the trials run (local)")
    String engineName;
    @Option(names = "--master", paramLabel = "URL", description = "the Spark master (--engine spark; default: the "
            + "spark-submit configuration, else local[*])")
    String master;
    @Option(names = "--partitions", paramLabel = "P", description = "Spark tasks per phase (--engine spark)")
    String partitions;
    @Option(names = "--until-resolved", description = "audit sequentially: stages of 1000, 2000, 4000, ... trials per "
            + "world, every claim judged after each with the error level shared between the looks, stopping as soon "
            + "as every claim is violated or powered-consistent, or when the budget is spent (--max-trials, else the "
            + "scenario's trials)")
    boolean untilResolved;
    @Option(names = "--max-trials", paramLabel = "N", description = "the budget of trials per world of a sequential "
            + "audit (--until-resolved, or a scenario whose stopping rule is sequential)")
    String maxTrialsText;
    @Option(names = {"-h", "--help"}, usageHelp = true, description = "show this help")
    boolean help;
    @picocli.CommandLine.Mixin
    TimeBudget budget = new TimeBudget();

    RunCommand(Main.Streams io) {
        this.io = io;
    }

    @Override
    public Integer call() {
        PrintStream out = io.out();
        PrintStream err = io.err();
        java.time.Instant started = java.time.Instant.now();
        List<String> full = commandLine();
        Path first = Path.of(scenarios.get(0));
        String engine = engineName == null ? "local" : engineName;
        if (!engine.equals("local") && !engine.equals("spark")) {
            throw new InvalidInputException("--engine", engine, "must be local or spark");
        }
        if (!engine.equals("spark") && (master != null || partitions != null)) {
            throw new InvalidInputException(master != null ? "--master" : "--partitions", master != null ? master
                    : partitions, "applies to --engine spark");
        }
        if (scenarios.size() > 1 || java.nio.file.Files.isDirectory(first)) {
            if (checkpoint != null || resume != null) {
                throw new InvalidInputException(checkpoint != null ? "--checkpoint" : "--resume",
                        checkpoint != null ? checkpoint : resume, "applies to a run of one scenario");
            }
            return runMany(full, started, out, err);
        }
        if (engine.equals("spark") && (checkpoint != null || resume != null)) {
            throw new InvalidInputException(checkpoint != null ? "--checkpoint" : "--resume",
                    checkpoint != null ? checkpoint : resume, "applies to the local engine");
        }
        // Options first (cheap to check), then the scenario file.
        Long trialsOverride = trialsOverride();
        Long seedOverride = seedText != null ? OptionValues.wholeNumber("--seed", seedText) : null;
        int threads = OptionValues.threads(threadsText);
        Path dir = ReportFiles.outDirectory(outDir, DEFAULT_OUT);
        Path scenarioPath = first;
        refuseOutputsOnInputs(List.of(scenarioPath), dir, List.of(REPORT_FILES));
        ReportFiles.checkDirectory("--out", dir, REPORT_FILES); // no device, pipe or link where a report file goes
        ConsoleProgress console = quiet ? null : ConsoleProgress.forStandardError(err);
        RunControl control = budget.control(console == null ? ProgressListener.NONE : console);
        Scenario read = ScenarioReader.read(scenarioPath);
        Scenario scenario = withStopping(estimate ? read.withEstimate() : read, trialsOverride);
        if (engine.equals("spark") && read.source() != null && read.source().has(PairSearch.KEY)) {
            // Executors rebuild the mechanism from the scenario file; the searched pair lives only on the driver.
            throw new InvalidInputException(PairSearch.KEY, "(a search)", "applies to the local engine; audit the "
                    + "chosen pair's scenario with --engine spark");
        }
        long trials = scenario.trials();
        long seed = seedOverride != null ? seedOverride : scenario.seed();
        byte[] scenarioBytes = bytes(scenarioPath);
        Checkpoint store = checkpointStore(seed, trials, scenario.stopping(), scenarioBytes); // before any preparation
        AuditReport report;
        boolean existed = java.nio.file.Files.exists(dir);
        Thread flush = null;
        try (StillWorking still = new StillWorking("run", quiet ? null : err, control, console == null ? null
                : console::lastOutputNanos)) {
            if (!quiet) {
                err.println(ToolInfo.NAME + " " + ToolInfo.version() + ": preparing " + scenarioPath + " ("
                        + scenario.mechanism().text("type", "?") + ": bounds and claims)");
            }
            ScenarioAudit.Prepared prepared = TimeBudget.guarded(control, c -> ScenarioAudit.prepare(scenario, trials,
                    seed, threads, c));
            if (!quiet) {
                ScenarioAudit.trialWarnings(prepared).forEach(w -> err.println("warning: " + w));
                err.println(ScenarioAudit.header(prepared));
            }
            EngineProvider.Session session = engine.equals("spark") ? sparkSession(prepared, scenarioBytes, err)
                    : null;
            ReportFiles.prepareDirectory("--out", dir, REPORT_FILES);
            if (store != null) {
                flush = new Thread(() -> {
                    store.write(); // SIGINT: the checkpoint is kept, no report (exit 130)
                    err.println("dp-audit: interrupted; the completed shards are kept in " + store.file()
                            + "; go on with: dp-audit run " + scenarioPath + " --resume " + store.file()
                            + (trialsOverride != null ? " --trials " + trials : "")
                            + (untilResolved ? " --until-resolved" : "")
                            + (maxTrialsText != null ? " --max-trials " + trials : "")
                            + (seedOverride != null ? " --seed " + seed : ""));
                    err.flush();
                }, "dp-audit-checkpoint");
                Runtime.getRuntime().addShutdownHook(flush);
            }
            try (EngineProvider.Session s = session) {
                report = TimeBudget.guarded(control, c -> ReportAssembly.run(prepared, c, s == null ? null
                        : s.engine(), store)).withProvenance(Provenance.of(started, full, scenarioBytes));
            }
            writeReports(dir, report);
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
        out.print(SummaryTable.format(report));
        out.println("Reports: " + dir.resolve("report.json") + ", report.md, report.html (plot data: curves.csv, "
                + "tradeoff.csv; histograms: counts.json)");
        return report.result().anyViolated() ? Main.VIOLATED : Main.OK;
    }

    /**
     * {@code run} on a directory (its {@code *.json} files, sorted by name) or on several files: every scenario is
     * read and validated first (bad input: exit 2 before any trial, naming the file), then each is audited into
     * {@code DIR/<file name without .json>/}, and {@code DIR/index.md} and {@code DIR/index.html} list every claim.
     * Exit 3 if any claim is violated.
     */
    private int runMany(List<String> full, java.time.Instant started, PrintStream out, PrintStream err) {
        ConsoleProgress console = quiet ? null : ConsoleProgress.forStandardError(err);
        RunControl control = budget.control(console == null ? ProgressListener.NONE : console);
        try (StillWorking still = new StillWorking("run", quiet ? null : err, control, console == null ? null
                : console::lastOutputNanos)) {
            return runMany(full, started, out, err, control);
        }
    }

    private int runMany(List<String> full, java.time.Instant started, PrintStream out, PrintStream err,
            RunControl control) {
        Long trialsOverride = trialsOverride();
        Long seedOverride = seedText != null ? OptionValues.wholeNumber("--seed", seedText) : null;
        int threads = OptionValues.threads(threadsText);
        Path dir = ReportFiles.outDirectory(outDir, DEFAULT_OUT);
        List<Path> files = scenarioFiles(scenarios);
        List<ScenarioAudit.Prepared> prepared = new java.util.ArrayList<>();
        List<String> folders = new java.util.ArrayList<>();
        java.util.Set<String> used = new java.util.HashSet<>(java.util.Set.of(INDEX_FILES));
        io.dpaudit.runner.BoundCache cache = new io.dpaudit.runner.BoundCache(); // siblings share their bounds
        for (Path f : files) {
            try {
                Scenario scenario = withStopping(estimate ? ScenarioReader.read(f).withEstimate()
                        : ScenarioReader.read(f), trialsOverride);
                long trials = scenario.trials();
                long seed = seedOverride != null ? seedOverride : scenario.seed();
                if (!quiet) {
                    err.printf(java.util.Locale.ROOT, "preparing %d/%d %s%n", prepared.size() + 1, files.size(), f);
                }
                Scenario ready = scenario;
                prepared.add(TimeBudget.guarded(control, c -> ScenarioAudit.prepare(ready, trials, seed, threads,
                        c, cache)));
                if (!quiet) {
                    for (String w : ScenarioAudit.trialWarnings(prepared.get(prepared.size() - 1))) {
                        err.println("warning: " + f + ": " + w);
                    }
                }
            } catch (InvalidInputException e) {
                throw InvalidInputException.in(f.toString(), e);
            }
            Path fileName = f.getFileName();
            String stem = (fileName == null ? "scenario" : fileName.toString()).replaceFirst("\\.json$", "");
            String folder = stem;
            for (int k = 2; !used.add(folder); k++) {
                folder = stem + "-" + k;
            }
            folders.add(folder);
        }
        List<String> written = new java.util.ArrayList<>(List.of(INDEX_FILES));
        written.addAll(folders);
        refuseOutputsOnInputs(files, dir, written);
        boolean existed = java.nio.file.Files.exists(dir);
        ReportFiles.prepareDirectory("--out", dir, INDEX_FILES);
        for (String folder : folders) {
            Path sub = dir.resolve(folder);
            if (java.nio.file.Files.exists(sub) && !java.nio.file.Files.isDirectory(sub)) {
                throw new InvalidInputException("--out", dir, "holds a file named " + folder + " where a report "
                        + "folder goes");
            }
            ReportFiles.checkDirectory("--out", sub, REPORT_FILES); // every folder's targets before the first write
        }
        List<IndexWriter.Entry> entries = new java.util.ArrayList<>();
        try {
            for (int i = 0; i < files.size(); i++) {
                if (!quiet) {
                    err.printf(java.util.Locale.ROOT, "[%d/%d] %s%n", i + 1, files.size(), files.get(i));
                }
                ScenarioAudit.Prepared p = prepared.get(i);
                if (!quiet) {
                    err.println(ScenarioAudit.header(p));
                }
                AuditReport report = TimeBudget.guarded(control, c -> ReportAssembly.run(p, c, null, null))
                        .withProvenance(Provenance.of(started, full, bytes(files.get(i))));
                entries.add(new IndexWriter.Entry(files.get(i).toString(), folders.get(i), report));
            }
            // Every audit done: only now is anything written, so a run stopped on the way (--max-seconds, an
            // interrupt, a refusal) leaves no report folder behind.
            for (IndexWriter.Entry e : entries) {
                Path sub = dir.resolve(e.folder());
                ReportFiles.prepareDirectory("--out", sub, REPORT_FILES);
                writeReports(sub, e.report());
            }
            Map<String, String> index = new LinkedHashMap<>();
            index.put("index.md", IndexWriter.markdown(entries));
            index.put("index.html", IndexWriter.html(entries));
            index.put("index.csv", IndexWriter.csv(entries));
            index.put("index.json", IndexWriter.json(entries));
            ReportFiles.writeAll(dir, index);
        } catch (RuntimeException | Error e) {
            if (!existed) {
                ReportFiles.removeIfEmpty(dir);
            }
            throw e;
        }
        for (IndexWriter.Entry e : entries) {
            out.printf(java.util.Locale.ROOT, "%-50s %s%n", e.folder(), ClaimRows.summary(e.report()));
        }
        out.println(IndexWriter.summary(entries));
        out.println("Index: " + dir.resolve("index.html") + ", index.md, index.csv, index.json");
        return IndexWriter.violated(entries) > 0 ? Main.VIOLATED : Main.OK;
    }

    /**
     * Refuses, before any work, a run whose outputs would overwrite one of its inputs: the checkpoint (or the resumed
     * checkpoint, which is rewritten) on a scenario file, or a file or folder the run writes into {@code --out} on a
     * scenario file or the checkpoint.
     */
    private void refuseOutputsOnInputs(List<Path> scenarioFiles, Path dir, List<String> written) {
        OutputPaths guard = new OutputPaths();
        for (Path f : scenarioFiles) {
            guard.input("scenario", f);
        }
        if (checkpoint != null) {
            guard.refuseFile("--checkpoint", Path.of(checkpoint));
        }
        if (resume != null) {
            guard.refuseFile("--resume", Path.of(resume));
        }
        if (checkpoint != null) {
            guard.input("checkpoint", Path.of(checkpoint));
        }
        if (resume != null) {
            guard.input("resumed checkpoint", Path.of(resume));
        }
        guard.refuseDirectory("--out", dir, written);
    }

    /** The scenario files named: a directory stands for its {@code *.json} files, sorted by name. */
    static List<Path> scenarioFiles(List<String> args) {
        List<Path> files = new java.util.ArrayList<>();
        for (String s : args) {
            Path p = Path.of(s);
            if (java.nio.file.Files.isDirectory(p)) {
                try (java.util.stream.Stream<Path> list = java.nio.file.Files.list(p)) {
                    List<Path> found = list.filter(f -> f.getFileName().toString().endsWith(".json")).sorted()
                            .toList();
                    for (Path f : found) {
                        if (!java.nio.file.Files.isRegularFile(f)) { // never skipped in silence
                            throw new InvalidInputException("scenario", f, "is not a regular file (a broken or "
                                    + "looping symbolic link, a directory or a device): remove it, or name the "
                                    + "scenario files to audit");
                        }
                    }
                    if (found.isEmpty()) {
                        throw new InvalidInputException("scenario", p, "directory holds no .json scenario file");
                    }
                    files.addAll(found);
                } catch (java.io.IOException e) {
                    throw new InvalidInputException("scenario", p, "cannot be listed (" + e.getMessage() + ")");
                }
            } else {
                files.add(p);
            }
        }
        return files;
    }

    /** The scenario file's bytes for its hash (read again after parsing; null if it cannot be read now). */
    private static byte[] bytes(Path p) {
        try {
            return java.nio.file.Files.readAllBytes(p);
        } catch (java.io.IOException e) {
            return null;
        }
    }

    /** The checkpoint store of {@code --checkpoint} / {@code --resume}, or null. */
    private Checkpoint checkpointStore(long seed, long trials, Stopping stopping, byte[] scenarioBytes) {
        if (checkpoint == null && resume == null) {
            return null;
        }
        Checkpoint.Identity id = new Checkpoint.Identity(ToolInfo.version(),
                Provenance.sha256(scenarioBytes == null ? new byte[0] : scenarioBytes),
                seed, trials, stopping.describe());
        Path target = Path.of(checkpoint != null ? checkpoint : resume);
        ReportFiles.checkDirectory(checkpoint != null ? "--checkpoint" : "--resume", target.toAbsolutePath()
                .getParent());
        if (java.nio.file.Files.isDirectory(target)) {
            throw new InvalidInputException(checkpoint != null ? "--checkpoint" : "--resume", target,
                    "is a directory");
        }
        return resume != null ? Checkpoint.resume("--resume", Path.of(resume), id, target)
                : Checkpoint.create(target, id);
    }

    /** The Spark engine, found on the class path (the dp-audit-spark jar), or a one-line refusal. */
    private EngineProvider.Session sparkSession(ScenarioAudit.Prepared prepared, byte[] scenarioBytes,
            PrintStream err) {
        int p = partitions == null ? 0 : (int) Math.min(1 << 20, Checks.atLeast("--partitions",
                OptionValues.wholeNumber("--partitions", partitions), 1));
        for (EngineProvider provider : java.util.ServiceLoader.load(EngineProvider.class)) {
            if (provider.name().equals("spark")) {
                return provider.open(prepared, new String(scenarioBytes, java.nio.charset.StandardCharsets.UTF_8),
                        master, p, quiet ? ProgressListener.NONE : ConsoleProgress.forStandardError(err));
            }
        }
        throw new InvalidInputException("--engine", "spark", "the Spark runner is not on the class path: submit the "
                + "dp-audit-spark jar with spark-submit (see the README, \"Spark\")");
    }

    /** {@code --trials}, validated (a whole number of at least 1), or null when absent. */
    /**
     * The scenario with the options' trials and stopping rule: {@code --until-resolved} makes it sequential (the
     * default first stage), and its budget is {@code --max-trials}, else {@code --trials}, else the scenario's trials.
     */
    private Scenario withStopping(Scenario s, Long trialsOverride) {
        Long max = maxTrialsText != null ? Checks.trials("--max-trials", OptionValues.wholeNumber("--max-trials",
                maxTrialsText)) : null;
        boolean sequential = untilResolved || s.stopping().sequential();
        if (max != null && !sequential) {
            throw new InvalidInputException("--max-trials", max, "applies to a sequential audit (--until-resolved, or "
                    + "a scenario whose stopping rule is sequential)");
        }
        if (max != null && trialsOverride != null && !max.equals(trialsOverride)) {
            throw new InvalidInputException("--trials", trialsOverride, "conflicts with --max-trials " + max
                    + " (a sequential audit's budget; give one of them)");
        }
        long trials = max != null ? max : trialsOverride != null ? trialsOverride : s.trials();
        Stopping rule = s.stopping().sequential() ? s.stopping() : sequential ? Stopping.SEQUENTIAL
                : Stopping.FIXED;
        return s.withStopping(rule, trials);
    }

    private Long trialsOverride() {
        return trialsText != null ? Checks.trials("--trials", OptionValues.wholeNumber("--trials", trialsText))
                : null;
    }

    /** The command line as typed (after {@code dp-audit}), for the report's provenance. */
    private List<String> commandLine() {
        return io.arguments();
    }


    /** The files of a run over several scenarios, beside the report folders. */
    static final String[] INDEX_FILES = {"index.md", "index.html", "index.csv", "index.json"};

    /** The files a report folder holds. */
    static final String[] REPORT_FILES = {"report.json", "report.md", "report.html", "curves.csv", "tradeoff.csv",
        "counts.json"};

    static void writeReports(Path dir, AuditReport report) {
        writeReports(dir, report, Map.of());
    }

    /** Writes the report's files and {@code extra} ones as one set. */
    static void writeReports(Path dir, AuditReport report, Map<String, String> extra) {
        Map<String, String> files = new LinkedHashMap<>();
        files.put("report.json", JsonReportWriter.write(report));
        files.put("report.md", MarkdownReportWriter.write(report));
        files.put("report.html", HtmlReportWriter.write(report));
        files.put("curves.csv", CsvDataWriter.curves(report));
        files.put("tradeoff.csv", CsvDataWriter.tradeOff(report));
        files.put("counts.json", CountsWriter.write(report));
        files.putAll(extra);
        ReportFiles.writeAll(dir, files);
    }
}

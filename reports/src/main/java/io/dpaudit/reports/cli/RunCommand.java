package io.dpaudit.reports.cli;

import io.dpaudit.core.Checks;
import io.dpaudit.core.InvalidInputException;
import io.dpaudit.core.audit.Verdict;
import io.dpaudit.core.engine.ProgressListener;
import io.dpaudit.reports.ScenarioAudit;
import io.dpaudit.reports.report.AuditReport;
import io.dpaudit.reports.report.CountsWriter;
import io.dpaudit.reports.report.CsvDataWriter;
import io.dpaudit.reports.report.HtmlReportWriter;
import io.dpaudit.reports.report.IndexWriter;
import io.dpaudit.reports.report.JsonReportWriter;
import io.dpaudit.reports.report.MarkdownReportWriter;
import io.dpaudit.reports.report.Provenance;
import io.dpaudit.reports.report.ReportFiles;
import io.dpaudit.reports.scenario.Scenario;
import io.dpaudit.reports.scenario.ScenarioReader;
import java.io.PrintStream;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;

/** {@code dp-audit run}. */
final class RunCommand {
    /** Default report directory. */
    static final String DEFAULT_OUT = "dp-audit-out";

    private RunCommand() {
    }

    static int run(List<String> args, PrintStream out, PrintStream err) {
        java.time.Instant started = java.time.Instant.now();
        List<String> full = new java.util.ArrayList<>();
        full.add("run");
        full.addAll(args);
        Arguments a = new Arguments(args, Set.of("--trials", "--seed", "--threads", "--out"), Set.of("--quiet", "--estimate"),
                false);
        if (a.positional().isEmpty()) {
            throw new UsageException("run needs a scenario file, several, or a directory of them");
        }
        Path first = Path.of(a.positional().get(0));
        if (a.positional().size() > 1 || java.nio.file.Files.isDirectory(first)) {
            return runMany(a, full, started, out, err);
        }
        // Options first (cheap to check), then the scenario file.
        Long trialsOverride = a.has("--trials") ? Checks.atLeast("--trials", a.wholeNumber("--trials"), 1) : null;
        Long seedOverride = a.has("--seed") ? a.wholeNumber("--seed") : null;
        int threads = threads(a);
        Path dir = Path.of(a.has("--out") ? a.text("--out") : DEFAULT_OUT);
        Path scenarioPath = Path.of(a.positional().get(0));
        Scenario scenario = ScenarioReader.read(scenarioPath);
        if (a.has("--estimate")) {
            scenario = scenario.withEstimate();
        }
        long trials = trialsOverride != null ? trialsOverride : scenario.trials();
        long seed = seedOverride != null ? seedOverride : scenario.seed();
        ScenarioAudit.Prepared prepared = ScenarioAudit.prepare(scenario, trials, seed, threads);
        if (!a.has("--quiet")) {
            ScenarioAudit.trialWarnings(prepared).forEach(w -> err.println("warning: " + w));
        }
        boolean existed = java.nio.file.Files.exists(dir);
        ReportFiles.prepareDirectory("--out", dir);
        AuditReport report;
        try {
            ProgressListener progress = a.has("--quiet") ? ProgressListener.NONE : new ConsoleProgress(err);
            report = ScenarioAudit.run(prepared, progress)
                    .withProvenance(Provenance.of(started, full, bytes(scenarioPath)));
            writeReports(dir, report);
        } catch (RuntimeException | Error e) {
            if (!existed) {
                ReportFiles.removeIfEmpty(dir); // a rejected run leaves nothing behind
            }
            throw e;
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
    private static int runMany(Arguments a, List<String> full, java.time.Instant started, PrintStream out,
            PrintStream err) {
        Long trialsOverride = a.has("--trials") ? Checks.atLeast("--trials", a.wholeNumber("--trials"), 1) : null;
        Long seedOverride = a.has("--seed") ? a.wholeNumber("--seed") : null;
        int threads = threads(a);
        Path dir = Path.of(a.has("--out") ? a.text("--out") : DEFAULT_OUT);
        List<Path> files = scenarioFiles(a.positional());
        List<ScenarioAudit.Prepared> prepared = new java.util.ArrayList<>();
        List<String> folders = new java.util.ArrayList<>();
        java.util.Set<String> used = new java.util.HashSet<>(java.util.Set.of("index.md", "index.html"));
        for (Path f : files) {
            try {
                Scenario scenario = ScenarioReader.read(f);
                if (a.has("--estimate")) {
                    scenario = scenario.withEstimate();
                }
                long trials = trialsOverride != null ? trialsOverride : scenario.trials();
                long seed = seedOverride != null ? seedOverride : scenario.seed();
                if (!a.has("--quiet")) {
                    err.printf(java.util.Locale.ROOT, "preparing %d/%d %s%n", prepared.size() + 1, files.size(), f);
                }
                prepared.add(ScenarioAudit.prepare(scenario, trials, seed, threads));
                if (!a.has("--quiet")) {
                    for (String w : ScenarioAudit.trialWarnings(prepared.get(prepared.size() - 1))) {
                        err.println("warning: " + f + ": " + w);
                    }
                }
            } catch (InvalidInputException e) {
                throw InvalidInputException.in(f.toString(), e);
            }
            String stem = f.getFileName().toString().replaceFirst("\\.json$", "");
            String folder = stem;
            for (int k = 2; !used.add(folder); k++) {
                folder = stem + "-" + k;
            }
            folders.add(folder);
        }
        boolean existed = java.nio.file.Files.exists(dir);
        ReportFiles.prepareDirectory("--out", dir);
        List<IndexWriter.Entry> entries = new java.util.ArrayList<>();
        try {
            for (int i = 0; i < files.size(); i++) {
                if (!a.has("--quiet")) {
                    err.printf(java.util.Locale.ROOT, "[%d/%d] %s%n", i + 1, files.size(), files.get(i));
                }
                ProgressListener progress = a.has("--quiet") ? ProgressListener.NONE : new ConsoleProgress(err);
                AuditReport report = ScenarioAudit.run(prepared.get(i), progress)
                        .withProvenance(Provenance.of(started, full, bytes(files.get(i))));
                Path sub = dir.resolve(folders.get(i));
                ReportFiles.prepareDirectory("--out", sub);
                writeReports(sub, report);
                entries.add(new IndexWriter.Entry(files.get(i).toString(), folders.get(i), report));
            }
            Map<String, String> index = new LinkedHashMap<>();
            index.put("index.md", IndexWriter.markdown(entries));
            index.put("index.html", IndexWriter.html(entries));
            ReportFiles.writeAll(dir, index);
        } catch (RuntimeException | Error e) {
            if (!existed) {
                ReportFiles.removeIfEmpty(dir);
            }
            throw e;
        }
        for (IndexWriter.Entry e : entries) {
            long v = e.report().result().claims().stream().filter(c -> c.verdict() == Verdict.VIOLATED).count()
                    + e.report().result().tradeOffClaims().stream().filter(c -> c.verdict() == Verdict.VIOLATED)
                    .count();
            int n = e.report().result().claims().size() + e.report().result().tradeOffClaims().size();
            out.printf(java.util.Locale.ROOT, "%-50s %d claim(s), %s%n", e.folder(), n,
                    v > 0 ? v + " VIOLATED" : "none violated");
        }
        out.println("Index: " + dir.resolve("index.html") + ", index.md");
        return IndexWriter.violated(entries) > 0 ? Main.VIOLATED : Main.OK;
    }

    /** The scenario files named: a directory stands for its {@code *.json} files, sorted by name. */
    static List<Path> scenarioFiles(List<String> args) {
        List<Path> files = new java.util.ArrayList<>();
        for (String s : args) {
            Path p = Path.of(s);
            if (java.nio.file.Files.isDirectory(p)) {
                try (java.util.stream.Stream<Path> list = java.nio.file.Files.list(p)) {
                    List<Path> found = list.filter(f -> f.getFileName().toString().endsWith(".json")
                            && java.nio.file.Files.isRegularFile(f)).sorted().toList();
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

    static int threads(Arguments a) {
        if (!a.has("--threads")) {
            return Runtime.getRuntime().availableProcessors();
        }
        long t = a.wholeNumber("--threads");
        Checks.atLeast("--threads", t, 1);
        if (t > 1024) {
            throw new InvalidInputException("--threads", t, "must be <= 1024");
        }
        return (int) t;
    }

    static void writeReports(Path dir, AuditReport report) {
        Map<String, String> files = new LinkedHashMap<>();
        files.put("report.json", JsonReportWriter.write(report));
        files.put("report.md", MarkdownReportWriter.write(report));
        files.put("report.html", HtmlReportWriter.write(report));
        files.put("curves.csv", CsvDataWriter.curves(report));
        files.put("tradeoff.csv", CsvDataWriter.tradeOff(report));
        files.put("counts.json", CountsWriter.write(report));
        ReportFiles.writeAll(dir, files);
    }
}

package io.dpaudit.reports.cli;

import io.dpaudit.core.InvalidInputException;
import io.dpaudit.core.engine.RunControl;
import io.dpaudit.reports.report.AuditReport;
import io.dpaudit.reports.report.ClaimRows;
import io.dpaudit.reports.report.IndexWriter;
import io.dpaudit.reports.report.Provenance;
import io.dpaudit.reports.report.ReportFiles;
import io.dpaudit.reports.report.ReportSet;
import io.dpaudit.runner.BoundCache;
import io.dpaudit.runner.ScenarioAudit;
import io.dpaudit.runner.analysis.AuditRunner;
import io.dpaudit.runner.scenario.Scenario;
import io.dpaudit.runner.scenario.ScenarioOverrides;
import io.dpaudit.runner.scenario.ScenarioReader;
import java.io.IOException;
import java.io.PrintStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.stream.Stream;

/**
 * {@code run} on a directory (its {@code *.json} files, sorted by name) or on several files: every scenario is read
 * and validated first (bad input: exit 2 before any trial, naming the file), then each is audited; only when every
 * audit is done is each written into {@code DIR/<file name without .json>/}, and {@code DIR/index.md},
 * {@code index.html}, {@code index.csv} and {@code index.json} list every claim. Exit 3 if any claim is violated.
 */
final class ScenarioDirectoryRun {
    /** The files of a run over several scenarios, beside the report folders. */
    static final String[] INDEX_FILES = {"index.md", "index.html", "index.csv", "index.json"};

    private final ScenarioOverrides overrides;
    private final int threads;
    private final boolean quiet;
    private final PrintStream err;

    ScenarioDirectoryRun(ScenarioOverrides overrides, int threads, boolean quiet, PrintStream err) {
        this.overrides = overrides;
        this.threads = threads;
        this.quiet = quiet;
        this.err = err;
    }

    /** Audits {@code files} into {@code dir}; the exit code. */
    int run(List<Path> files, Path dir, RunControl control, Instant started, List<String> commandLine,
            PrintStream out) {
        List<ScenarioAudit.Prepared> prepared = new ArrayList<>();
        List<String> folders = new ArrayList<>();
        Set<String> used = new HashSet<>(Set.of(INDEX_FILES));
        BoundCache cache = new BoundCache(); // siblings share their bounds
        for (Path f : files) {
            try {
                Scenario scenario = overrides.apply(ScenarioReader.read(f));
                if (!quiet) {
                    err.printf(Locale.ROOT, "preparing %d/%d %s%n", prepared.size() + 1, files.size(), f);
                }
                prepared.add(TimeBudget.guarded(control, c -> ScenarioAudit.prepare(scenario, scenario.trials(),
                        overrides.seed(scenario), threads, c, cache)));
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
        List<String> written = new ArrayList<>(List.of(INDEX_FILES));
        written.addAll(folders);
        OutputPaths guard = new OutputPaths();
        files.forEach(f -> guard.input("scenario", f));
        guard.refuseDirectory("--out", dir, written);
        boolean existed = Files.exists(dir);
        ReportFiles.prepareDirectory("--out", dir, INDEX_FILES);
        for (String folder : folders) {
            Path sub = dir.resolve(folder);
            if (Files.exists(sub) && !Files.isDirectory(sub)) {
                throw new InvalidInputException("--out", dir, "holds a file named " + folder + " where a report "
                        + "folder goes");
            }
            ReportFiles.checkDirectory("--out", sub, ReportSet.fileNames()); // every target before the first write
        }
        List<IndexWriter.Entry> entries = new ArrayList<>();
        try {
            for (int i = 0; i < files.size(); i++) {
                if (!quiet) {
                    err.printf(Locale.ROOT, "[%d/%d] %s%n", i + 1, files.size(), files.get(i));
                }
                ScenarioAudit.Prepared p = prepared.get(i);
                if (!quiet) {
                    err.println(ScenarioAudit.header(p));
                }
                AuditReport report = AuditReport.of(TimeBudget.guarded(control, c -> AuditRunner.run(p, c)))
                        .withProvenance(Provenance.of(started, commandLine, RunCommand.bytes(files.get(i))));
                entries.add(new IndexWriter.Entry(files.get(i).toString(), folders.get(i), report));
            }
            // Every audit done: only now is anything written, so a run stopped on the way (--max-seconds, an
            // interrupt, a refusal) leaves no report folder behind.
            for (IndexWriter.Entry e : entries) {
                Path sub = dir.resolve(e.folder());
                ReportFiles.prepareDirectory("--out", sub, ReportSet.fileNames());
                ReportSet.write(sub, e.report(), Map.of());
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
            out.printf(Locale.ROOT, "%-50s %s%n", e.folder(), ClaimRows.summary(e.report()));
        }
        out.println(IndexWriter.summary(entries));
        out.println("Index: " + dir.resolve("index.html") + ", index.md, index.csv, index.json");
        return IndexWriter.violated(entries) > 0 ? Main.VIOLATED : Main.OK;
    }

    /** The scenario files named: a directory stands for its {@code *.json} files, sorted by name. */
    static List<Path> scenarioFiles(List<String> args) {
        List<Path> files = new ArrayList<>();
        for (String s : args) {
            Path p = Path.of(s);
            if (!Files.isDirectory(p)) {
                files.add(p);
                continue;
            }
            try (Stream<Path> list = Files.list(p)) {
                List<Path> found = list.filter(f -> f.getFileName().toString().endsWith(".json")).sorted().toList();
                for (Path f : found) {
                    if (!Files.isRegularFile(f)) { // never skipped in silence
                        throw new InvalidInputException("scenario", f, "is not a regular file (a broken or looping "
                                + "symbolic link, a directory or a device): remove it, or name the scenario files to "
                                + "audit");
                    }
                }
                if (found.isEmpty()) {
                    throw new InvalidInputException("scenario", p, "directory holds no .json scenario file");
                }
                files.addAll(found);
            } catch (IOException e) {
                throw new InvalidInputException("scenario", p, "cannot be listed (" + e.getMessage() + ")");
            }
        }
        return files;
    }
}

package io.dpaudit.reports.cli;

import io.dpaudit.core.Checks;
import io.dpaudit.core.InvalidInputException;
import io.dpaudit.core.engine.ProgressListener;
import io.dpaudit.reports.ScenarioAudit;
import io.dpaudit.reports.report.AuditReport;
import io.dpaudit.reports.report.CsvDataWriter;
import io.dpaudit.reports.report.HtmlReportWriter;
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
        if (a.positional().size() != 1) {
            throw new UsageException("run needs exactly one scenario file");
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
                + "tradeoff.csv)");
        return report.result().anyViolated() ? Main.VIOLATED : Main.OK;
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
        ReportFiles.writeAll(dir, files);
    }
}

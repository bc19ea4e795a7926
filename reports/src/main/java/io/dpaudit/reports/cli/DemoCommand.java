package io.dpaudit.reports.cli;

import io.dpaudit.core.audit.ClaimResult;
import io.dpaudit.core.audit.Verdict;
import io.dpaudit.core.bounds.PoissonSubsampledGaussianBound;
import io.dpaudit.core.engine.ProgressListener;
import io.dpaudit.core.engine.RunControl;
import io.dpaudit.runner.ScenarioAudit;
import io.dpaudit.reports.report.AuditReport;
import io.dpaudit.reports.report.ReportFiles;
import io.dpaudit.reports.report.ReportSet;
import io.dpaudit.runner.analysis.AuditRunner;
import io.dpaudit.runner.scenario.Scenario;
import io.dpaudit.runner.scenario.ScenarioReader;
import java.io.PrintStream;
import java.nio.file.Path;
import java.util.Map;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

/**
 * {@code dp-audit demo}: two audits that show what the tool is for.
 *
 * <ol>
 *   <li>The Gaussian mechanism, sigma = 1, claimed at its exact (Balle–Wang) ε for δ = 1e-5: a correct claim,
 *       which the audit must find consistent — and nearly attain.</li>
 *   <li>The Poisson-subsampled Gaussian, q = 0.01, sigma = 1, claimed at half its true ε for δ = 1e-5: a wrong
 *       claim, which the audit must find violated.</li>
 * </ol>
 * The scenarios are ordinary scenario files (written into the report directories as {@code scenario.json}) run
 * through the same path as {@code dp-audit run}. Exit code 0 when both verdicts come out as expected, 1 otherwise.
 */
@Command(name = "demo", synopsisHeading = "usage: ", customSynopsis = "dp-audit demo [--out DIR] [--threads K] [--quiet]",
        descriptionHeading = "%n", description = {"Audit a correct claim and a wrong one (under a minute).", "", "Audits a correct claim (exit 0 expected) and a wrong one (violated) on the Gaussian and the "
            + "Poisson-subsampled Gaussian; reports under DIR (default dp-audit-demo).", ""})
final class DemoCommand implements Callable<Integer> {
    static final String DEFAULT_OUT = "dp-audit-demo";
    static final long GAUSSIAN_TRIALS = 100_000_000L;
    static final long SUBSAMPLED_TRIALS = 100_000_000L;
    static final long SEED = 20261122L;

    private final Main.Streams io;
    @Option(names = "--out", paramLabel = "DIR", description = "report directory (default dp-audit-demo)")
    String outDir;
    @Option(names = "--threads", paramLabel = "K", description = "worker threads (default: the processors)")
    String threadsText;
    @Option(names = "--quiet", description = "no progress on standard error")
    boolean quiet;
    @Option(names = {"-h", "--help"}, usageHelp = true, description = "show this help")
    boolean help;
    @picocli.CommandLine.Mixin
    TimeBudget budget = new TimeBudget();

    DemoCommand(Main.Streams io) {
        this.io = io;
    }

    @Override
    public Integer call() {
        PrintStream out = io.out();
        PrintStream err = io.err();
        Path dir = ReportFiles.outDirectory(outDir, DEFAULT_OUT);
        int threads = OptionValues.threads(threadsText);
        ReportFiles.checkDirectory("--out", dir); // nothing is created before both audits are done
        RunControl control = budget.control(quiet ? ProgressListener.NONE : ConsoleProgress.forStandardError(err));

        String gaussian = """
                {
                  "name": "demo-gaussian-correct-claim",
                  "description": "Gaussian mechanism, sigma = 1, clip = 1, claimed at its exact epsilon for delta = 1e-5 (a correct claim).",
                  "mechanism": {"type": "gaussian", "sigma": 1.0, "clip": 1.0},
                  "attack": "likelihood-ratio",
                  "trials": @TRIALS@,
                  "seed": @SEED@,
                  "deltas": [1e-3, 1e-5],
                  "epsilons": [0, 1, 2, 3],
                  "claims": [{"label": "exact Gaussian bound at delta = 1e-5", "bound": "gaussian-exact", "delta": 1e-5}]
                }
                """.replace("@TRIALS@", Long.toString(GAUSSIAN_TRIALS)).replace("@SEED@", Long.toString(SEED));
        double trueEpsilon = new PoissonSubsampledGaussianBound(0.01, 1.0).epsilon(1e-5);
        String subsampled = """
                {
                  "name": "demo-subsampled-gaussian-wrong-claim",
                  "description": "Poisson-subsampled Gaussian, q = 0.01, sigma = 1, claimed at half its true epsilon (@TRUE@) for delta = 1e-5 (a wrong claim).",
                  "mechanism": {"type": "poisson-subsampled-gaussian", "q": 0.01, "sigma": 1.0, "clip": 1.0},
                  "attack": "likelihood-ratio",
                  "trials": @TRIALS@,
                  "seed": @SEED@,
                  "deltas": [1e-3, 1e-5],
                  "epsilons": [0, 0.25, 0.5, 1],
                  "claims": [{"label": "half the true epsilon at delta = 1e-5", "epsilon": @HALF@, "delta": 1e-5}]
                }
                """.replace("@TRUE@", Double.toString(trueEpsilon)).replace("@TRIALS@", Long.toString(SUBSAMPLED_TRIALS))
                .replace("@SEED@", Long.toString(SEED)).replace("@HALF@", Double.toString(trueEpsilon / 2));

        // Both audits first, then the reports: a failure (a time budget, say) leaves nothing behind.
        AuditReport first = TimeBudget.guarded(control, c -> audit(gaussian, threads, c));
        AuditReport second = TimeBudget.guarded(control, c -> audit(subsampled, threads, c));
        boolean existed = java.nio.file.Files.exists(dir);
        try {
            write(first, gaussian, dir.resolve("gaussian"));
            write(second, subsampled, dir.resolve("poisson-subsampled-gaussian"));
        } catch (RuntimeException | Error e) {
            if (!existed) {
                ReportFiles.removeIfEmpty(dir);
            }
            throw e;
        }
        boolean asExpected = summary(first, dir.resolve("gaussian"), out, Verdict.CONSISTENT);
        asExpected &= summary(second, dir.resolve("poisson-subsampled-gaussian"), out, Verdict.VIOLATED);
        if (asExpected) {
            out.println("Demo: the correct claim was found consistent and the wrong claim violated, as expected.");
            return Main.OK;
        }
        err.println("dp-audit: demo: a verdict differed from the expected one (see above)");
        return Main.INTERNAL_ERROR;
    }

    private static AuditReport audit(String json, int threads, ProgressListener progress) {
        Scenario s = ScenarioReader.parse(json, "demo");
        ScenarioAudit.Prepared p = ScenarioAudit.prepare(s, s.trials(), s.seed(), threads, progress);
        return AuditReport.of(AuditRunner.run(p, progress));
    }

    private static void write(AuditReport report, String json, Path dir) {
        ReportFiles.prepareDirectory("--out", dir, ReportSet.fileNames());
        ReportSet.write(dir, report, Map.of("scenario.json", json));
    }

    private static boolean summary(AuditReport report, Path dir, PrintStream out, Verdict expected) {
        out.print(SummaryTable.format(report));
        out.println("Reports: " + dir.resolve("report.html"));
        out.println();
        boolean ok = true;
        for (ClaimResult c : report.result().claims()) {
            ok &= c.verdict() == expected;
        }
        return ok;
    }
}

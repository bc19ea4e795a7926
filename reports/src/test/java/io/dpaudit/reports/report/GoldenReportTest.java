package io.dpaudit.reports.report;

import static org.junit.jupiter.api.Assertions.assertEquals;

import io.dpaudit.core.audit.AuditResult;
import io.dpaudit.core.engine.ProgressListener;
import io.dpaudit.runner.ScenarioAudit;
import io.dpaudit.runner.scenario.Scenario;
import io.dpaudit.runner.scenario.ScenarioReader;
import io.dpaudit.runner.analysis.AuditOutcome;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Locale;
import java.util.Map;
import org.junit.jupiter.api.Test;
import io.dpaudit.reports.TestReports;

/**
 * Golden files of the three report formats for two small audits — the Gaussian mechanism and a shuffled protocol with
 * a discrete statistic — written under a non-English default locale. Wall-clock fields, the tool version and the
 * runtime environment are fixed before writing (they are the only parts of a report that legitimately differ between
 * runs and machines); everything else must match byte for byte. Regenerate with {@code -Ddpaudit.golden.update=true}
 * after an intended change, and review the diff.
 */
@org.junit.jupiter.api.parallel.Isolated("changes the default locale")
class GoldenReportTest {
    private static final Path GOLDEN = Path.of("src", "test", "resources", "golden");

    private static AuditReport report(String scenario, String name) {
        Scenario s = ScenarioReader.parse(scenario, name);
        AuditReport r = TestReports.run(ScenarioAudit.prepare(s, s.trials(), s.seed(), 2), ProgressListener.NONE);
        AuditResult res = r.result();
        AuditResult fixedTime = new AuditResult(res.settings(), res.mechanism(), res.attack(), res.binning(),
                res.selectionTrials(), res.evaluationTrials(), res.streamsUsed(), res.epsilonLowerBounds(),
                res.deltaLowerBounds(), res.claims(), 2.0, res.tradeOff(), res.tradeOffClaims());
        AuditOutcome o = r.outcome();
        return new AuditReport(r.toolName(), "golden", new AuditOutcome(o.scenario(), o.mechanism(), o.simulator(),
                fixedTime, o.findings(), o.pairSearch(), o.scoreMetrics()), "XO_SHI_RO_256_PP (golden)",
                Map.of("java", "golden", "os", "golden"), null);
    }

    private static void compare(AuditReport r, String stem) throws Exception {
        Map<String, String> files = Map.of(stem + ".json", JsonReportWriter.write(r), stem + ".md",
                MarkdownReportWriter.write(r), stem + ".html", HtmlReportWriter.write(r));
        for (Map.Entry<String, String> f : files.entrySet()) {
            Path golden = GOLDEN.resolve(f.getKey());
            if (Boolean.getBoolean("dpaudit.golden.update")) {
                Files.createDirectories(GOLDEN);
                Files.writeString(golden, f.getValue());
            }
            assertEquals(Files.readString(golden), f.getValue(), f.getKey());
        }
    }

    @Test
    void reportsMatchTheirGoldenFilesUnderAGermanLocale() throws Exception {
        Locale saved = Locale.getDefault();
        try {
            Locale.setDefault(Locale.GERMANY);
            compare(report("{\"name\": \"golden-gaussian\", \"description\": \"Gaussian mechanism, sigma = 1.5\", "
                    + "\"mechanism\": {\"type\": \"gaussian\", \"sigma\": 1.5}, \"trials\": 200000, \"seed\": 7, "
                    + "\"deltas\": [1e-3], \"epsilons\": [0, 1], \"claims\": [{\"bound\": \"gaussian-exact\", "
                    + "\"delta\": 1e-3}, {\"label\": \"an overclaim\", \"epsilon\": 0.1, \"delta\": 1e-3}]}",
                    "golden-gaussian"), "gaussian");
            compare(report("{\"name\": \"golden-shuffle\", \"description\": \"plain shuffling of 50 reports\", "
                    + "\"mechanism\": {\"type\": \"shuffled-randomizer\", \"clients\": 50, \"eps0\": 2}, "
                    + "\"trials\": 200000, \"seed\": 8, \"deltas\": [1e-3], \"epsilons\": [0.5], \"claims\": "
                    + "[{\"bound\": \"shuffled-randomizer-exact\", \"delta\": 1e-3}]}", "golden-shuffle"), "shuffle");
        } finally {
            Locale.setDefault(saved);
        }
    }
}

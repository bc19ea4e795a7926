package io.dpaudit.reports;

import io.dpaudit.core.engine.ProgressListener;
import io.dpaudit.reports.report.AuditReport;
import io.dpaudit.runner.ScenarioAudit;
import io.dpaudit.runner.analysis.AuditRunner;

/** The report of a prepared audit, run on the local engine, as the command line builds it (without provenance). */
public final class TestReports {
    public static AuditReport run(ScenarioAudit.Prepared p, ProgressListener progress) {
        return AuditReport.of(AuditRunner.run(p, progress));
    }

    private TestReports() {
    }
}

package io.dpaudit.reports.report;

import com.fasterxml.jackson.databind.JsonNode;
import java.util.List;

/** Access to the report schema's validation from tests in other packages. */
public final class ReportSchemaFixture {
    private ReportSchemaFixture() {
    }

    /** The errors of {@code report} against report.schema.json (empty when it validates). */
    public static List<?> validate(JsonNode report) throws Exception {
        return ReportSchemaTest.errors(report);
    }
}

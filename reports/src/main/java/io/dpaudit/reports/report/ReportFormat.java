package io.dpaudit.reports.report;

import java.util.List;
import java.util.function.Function;

/**
 * One file of a report folder and the writer that renders it from the report's plain values.
 *
 * @param fileName the file's name in the report folder
 * @param writer renders a report as the file's text
 */
public record ReportFormat(String fileName, Function<AuditReport, String> writer) {
    /** The formats of every audit report folder, in the order they are written. */
    public static final List<ReportFormat> ALL = List.of(
            new ReportFormat("report.json", JsonReportWriter::write),
            new ReportFormat("report.md", MarkdownReportWriter::write),
            new ReportFormat("report.html", HtmlReportWriter::write),
            new ReportFormat("curves.csv", CsvDataWriter::curves),
            new ReportFormat("tradeoff.csv", CsvDataWriter::tradeOff),
            new ReportFormat("counts.json", CountsWriter::write));

    /** The report rendered in this format. */
    public String render(AuditReport report) {
        return writer.apply(report);
    }
}

package io.dpaudit.reports.report;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.Map;

/** The files of one audit's report folder ({@link ReportFormat#ALL}), written as one set. */
public final class ReportSet {
    /** The files a report folder holds. */
    public static String[] fileNames() {
        return ReportFormat.ALL.stream().map(ReportFormat::fileName).toArray(String[]::new);
    }

    /** The report's files and {@code extra} ones (file name to text), in the order they are written. */
    public static Map<String, String> render(AuditReport report, Map<String, String> extra) {
        Map<String, String> files = new LinkedHashMap<>();
        for (ReportFormat f : ReportFormat.ALL) {
            files.put(f.fileName(), f.render(report));
        }
        files.putAll(extra);
        return files;
    }

    /** Writes the report's files and {@code extra} ones into a prepared directory as one set. */
    public static void write(Path dir, AuditReport report, Map<String, String> extra) {
        ReportFiles.writeAll(dir, render(report, extra));
    }

    /**
     * Writes {@code files} into {@code dir} as one set ({@code field} names the directory in a refusal): the
     * directory is prepared, and one that did not exist before is removed again if the writing fails, so that a
     * refused or failed write leaves nothing behind.
     */
    public static void writeInto(String field, Path dir, Map<String, String> files) {
        boolean existed = Files.exists(dir);
        ReportFiles.prepareDirectory(field, dir, files.keySet().toArray(String[]::new));
        try {
            ReportFiles.writeAll(dir, files);
        } catch (RuntimeException | Error e) {
            if (!existed) {
                ReportFiles.removeIfEmpty(dir);
            }
            throw e;
        }
    }

    private ReportSet() {
    }
}

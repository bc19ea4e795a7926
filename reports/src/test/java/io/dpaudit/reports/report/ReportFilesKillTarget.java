package io.dpaudit.reports.report;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * A process for {@link ReportFilesTest} to kill: writes report sets of six 200 kB files into fresh folders
 * {@code DIR/0}, {@code DIR/1}, ... until it is killed; with a second argument {@code replace}, set after set into
 * the same folder {@code DIR/set}, each replacing the one before.
 */
public final class ReportFilesKillTarget {
    private ReportFilesKillTarget() {
    }

    public static void main(String[] args) throws Exception {
        Path dir = Path.of(args[0]);
        boolean replace = args.length > 1 && args[1].equals("replace");
        String big = "x".repeat(200_000);
        for (int i = 0; ; i++) {
            Map<String, String> files = new LinkedHashMap<>();
            for (String name : new String[] {"report.md", "report.html", "curves.csv", "tradeoff.csv", "counts.json",
                "report.json"}) {
                files.put(name, name + " of set " + i + "\n" + big);
            }
            Path sub = replace ? dir.resolve("set") : dir.resolve(Integer.toString(i));
            ReportFiles.prepareDirectory("--out", sub);
            ReportFiles.writeAll(sub, files);
            Files.writeString(dir.resolve("progress"), Integer.toString(i));
        }
    }
}

package io.dpaudit.reports.report;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.nio.file.FileSystems;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermission;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Set;
import java.util.stream.Stream;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Report files are shareable (permissions as the umask gives any new file) and written all at once. */
class ReportFilesTest {
    @Test
    void reportFilesGetTheUmaskPermissionsOfAnyNewFileAndNoTemporaryFilesRemain(@TempDir Path dir)
            throws Exception {
        Assumptions.assumeTrue(FileSystems.getDefault().supportedFileAttributeViews().contains("posix"));
        Path reference = Files.createFile(dir.resolve("reference"));
        Set<PosixFilePermission> expected = Files.getPosixFilePermissions(reference);
        Files.delete(reference);
        Map<String, String> files = new LinkedHashMap<>();
        files.put("report.json", "{}");
        files.put("report.md", "# r");
        ReportFiles.writeAll(dir, files);
        for (String name : files.keySet()) {
            assertEquals(expected, Files.getPosixFilePermissions(dir.resolve(name)), name);
            assertEquals(files.get(name), Files.readString(dir.resolve(name)));
        }
        // Files.createTempFile would have made them rw------- whatever the umask: under the usual 022 this
        // comparison fails for it (expected rw-r--r--).
        try (Stream<Path> s = Files.list(dir)) {
            assertEquals(2, s.count(), "only the report files remain");
        }
    }
}

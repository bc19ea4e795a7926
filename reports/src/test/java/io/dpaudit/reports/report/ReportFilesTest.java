package io.dpaudit.reports.report;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.FileSystems;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermission;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Set;
import java.util.stream.Stream;
import org.junit.jupiter.api.Assumptions;
import io.dpaudit.core.InvalidInputException;
import java.util.List;
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

    @Test
    void aSetReplacingAnotherInANonEmptyDirectoryLeavesNoStagingBehind(@TempDir Path dir) throws Exception {
        Files.writeString(dir.resolve("notes.txt"), "the user's");
        ReportFiles.writeAll(dir, Map.of("report.json", "{\"v\": 1}", "report.md", "one"));
        ReportFiles.writeAll(dir, Map.of("report.json", "{\"v\": 2}", "report.md", "two"));
        assertEquals("{\"v\": 2}", Files.readString(dir.resolve("report.json")));
        assertEquals("two", Files.readString(dir.resolve("report.md")));
        assertEquals("the user's", Files.readString(dir.resolve("notes.txt")));
        try (Stream<Path> s = Files.list(dir)) {
            assertEquals(3, s.count(), "no staging directory left");
        }
    }

    @Test
    void aDirectoryInTheWayIsRefusedBeforeAnythingIsWritten(@TempDir Path dir) throws Exception {
        Files.createDirectory(dir.resolve("report.html"));
        InvalidInputException e = assertThrows(InvalidInputException.class,
                () -> ReportFiles.prepareDirectory("--out", dir, "report.json", "report.html"));
        assertTrue(e.getMessage().contains("holds a directory named report.html"), e.getMessage());
        assertThrows(InvalidInputException.class, () -> ReportFiles.writeAll(dir, Map.of("report.json", "{}",
                "report.html", "<html>")));
        assertFalse(Files.exists(dir.resolve("report.json")), "nothing written");
        Path file = Files.writeString(dir.resolve("plain"), "x");
        assertTrue(assertThrows(InvalidInputException.class, () -> ReportFiles.prepareDirectory("--out", file))
                .getMessage().contains("is a file, not a directory"));
    }

    @Test
    void staleStagingOfADeadProcessIsRemoved(@TempDir Path dir) throws Exception {
        Path stale = Files.createDirectories(dir.resolve(".dp-audit-staging-999999999-abc"));
        Files.writeString(stale.resolve("report.json"), "{}");
        ReportFiles.writeAll(dir, Map.of("report.json", "{}"));
        assertFalse(Files.exists(stale));
    }

    /**
     * {@code kill -9} at random moments while a process writes report sets into fresh folders: every folder that
     * exists afterwards holds the whole set of one write or nothing (never a part, never a mix), and the next write into the
     * same parent removes any staging directory the killed process left. Ten kills at random delays.
     */
    @Test
    void killDashNineNeverLeavesAPartialSet(@TempDir Path dir) throws Exception {
        String javaBin = Path.of(System.getProperty("java.home"), "bin", "java").toString();
        java.util.Random delays = new java.util.Random(11);
        for (int round = 0; round < 10; round++) {
            Path out = Files.createDirectories(dir.resolve("r" + round));
            Process p = new ProcessBuilder(javaBin, "-cp", System.getProperty("java.class.path"),
                    ReportFilesKillTarget.class.getName(), out.toString()).redirectErrorStream(true).start();
            long deadline = System.nanoTime() + 30_000_000_000L;
            while (!Files.exists(out.resolve("progress")) && System.nanoTime() < deadline && p.isAlive()) {
                Thread.sleep(5);
            }
            Thread.sleep(delays.nextInt(200));
            p.destroyForcibly(); // SIGKILL on Linux
            assertTrue(p.waitFor(30, java.util.concurrent.TimeUnit.SECONDS));
            try (Stream<Path> s = Files.list(out)) {
                for (Path sub : s.filter(Files::isDirectory).filter(q -> !q.getFileName().toString().startsWith("."))
                        .toList()) {
                    try (Stream<Path> files = Files.list(sub)) {
                        List<Path> names = files.toList();
                        // Empty (killed after the folder was prepared, before the set was renamed onto it) or whole.
                        assertTrue(names.isEmpty() || names.size() == 6, "a partial set in " + sub + ": " + names);
                        for (Path f : names) {
                            assertTrue(Files.readString(f).startsWith(f.getFileName() + " of set "
                                    + sub.getFileName() + "\n"), "a file of another set in " + sub);
                        }
                    }
                }
            }
            ReportFiles.writeAll(Files.createDirectories(out.resolve("next")), Map.of("report.json", "{}"));
            try (Stream<Path> s = Files.list(out)) {
                assertTrue(s.noneMatch(q -> q.getFileName().toString().contains("dp-audit-staging")),
                        "staging left behind");
            }
        }
    }

    /**
     * {@code kill -9} at random moments while a process replaces one report set by the next in the same folder, which
     * also holds a file of the user's: after the next use of that folder (as a following run would prepare it), the
     * folder holds one whole set — all six files of the same write — and the user's file, unchanged, and nothing is
     * left beside it. Ten kills at random delays.
     */
    @Test
    void killDashNineNeverTearsAReplacedSet(@TempDir Path dir) throws Exception {
        String javaBin = Path.of(System.getProperty("java.home"), "bin", "java").toString();
        java.util.Random delays = new java.util.Random(12);
        for (int round = 0; round < 10; round++) {
            Path out = Files.createDirectories(dir.resolve("r" + round));
            Path set = Files.createDirectories(out.resolve("set"));
            Files.writeString(set.resolve("notes.txt"), "the user's own file");
            Process p = new ProcessBuilder(javaBin, "-cp", System.getProperty("java.class.path"),
                    ReportFilesKillTarget.class.getName(), out.toString(), "replace").redirectErrorStream(true).start();
            long deadline = System.nanoTime() + 30_000_000_000L;
            while (!Files.exists(out.resolve("progress")) && System.nanoTime() < deadline && p.isAlive()) {
                Thread.sleep(5);
            }
            Thread.sleep(delays.nextInt(300));
            p.destroyForcibly(); // SIGKILL on Linux
            assertTrue(p.waitFor(30, java.util.concurrent.TimeUnit.SECONDS));
            ReportFiles.prepareDirectory("--out", set);
            List<Path> names;
            try (Stream<Path> files = Files.list(set)) { // hidden staging of a killed writer: removed by the next write
                names = files.filter(q -> !q.getFileName().toString().startsWith(".")).toList();
            }
            assertEquals("the user's own file", Files.readString(set.resolve("notes.txt")));
            String first = null;
            int reports = 0;
            for (Path f : names) {
                if (f.getFileName().toString().equals("notes.txt")) {
                    continue;
                }
                reports++;
                String head = Files.readString(f).lines().findFirst().orElse("");
                String which = head.substring(head.indexOf(" of set ") + 8);
                assertTrue(first == null || first.equals(which), "a mix of sets " + first + " and " + which + " in "
                        + names);
                first = which;
            }
            assertEquals(6, reports, "a partial set: " + names);
            ReportFiles.writeAll(set, Map.of("report.json", "{}"));
            try (Stream<Path> s = Files.list(out)) {
                assertTrue(s.noneMatch(q -> q.getFileName().toString().contains("dp-audit-")), "left beside");
            }
        }
    }

    @Test
    void aReplacedSetKeepsTheFolderItsPermissionsAndTheUsersFiles(@TempDir Path dir) throws Exception {
        Assumptions.assumeTrue(FileSystems.getDefault().supportedFileAttributeViews().contains("posix"));
        Path out = Files.createDirectories(dir.resolve("out"));
        Files.writeString(out.resolve("report.json"), "old");
        Files.writeString(out.resolve("mine.txt"), "keep me");
        Set<PosixFilePermission> perms = java.nio.file.attribute.PosixFilePermissions.fromString("rwx------");
        Files.setPosixFilePermissions(out, perms);
        ReportFiles.writeAll(out, Map.of("report.json", "new", "report.md", "# new"));
        assertEquals(perms, Files.getPosixFilePermissions(out));
        assertEquals("new", Files.readString(out.resolve("report.json")));
        assertEquals("keep me", Files.readString(out.resolve("mine.txt")));
        try (Stream<Path> s = Files.list(dir)) {
            assertEquals(List.of(out), s.toList());
        }
    }

    @Test
    void aSwitchInterruptedBetweenItsRenamesIsUndoneByTheNextUse(@TempDir Path dir) throws Exception {
        Process gone = new ProcessBuilder("true").start();
        gone.waitFor();
        long deadPid = gone.pid();
        Path aside = Files.createDirectories(dir.resolve(".out.dp-audit-aside-" + deadPid + "-1f"));
        Files.writeString(aside.resolve("report.json"), "old");
        Path staged = Files.createDirectories(dir.resolve(".out.dp-audit-staging-" + deadPid + "-1f"));
        Files.writeString(staged.resolve("report.json"), "new, never switched in");
        Path out = dir.resolve("out");
        ReportFiles.prepareDirectory("--out", out);
        assertEquals("old", Files.readString(out.resolve("report.json")));
        assertFalse(Files.exists(aside));
        ReportFiles.writeAll(out, Map.of("report.json", "newer"));
        assertEquals("newer", Files.readString(out.resolve("report.json")));
        assertFalse(Files.exists(staged));
    }
}

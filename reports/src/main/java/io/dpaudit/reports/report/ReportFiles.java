package io.dpaudit.reports.report;

import io.dpaudit.core.InvalidInputException;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.AtomicMoveNotSupportedException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * Writes report files atomically: every file is first written in full to a temporary file in the target directory,
 * and only when all of them are written are they moved into place, each by an atomic rename. A failure before the
 * renames leaves no report file behind.
 */
public final class ReportFiles {
    private ReportFiles() {
    }

    /**
     * Checks that {@code dir} exists or can be created and is writable, before any work is done.
     *
     * @throws InvalidInputException naming {@code field} when it is not usable
     */
    public static Path prepareDirectory(String field, Path dir) {
        try {
            Files.createDirectories(dir);
        } catch (IOException | SecurityException e) {
            throw new InvalidInputException(field, dir, "cannot create the directory (" + e.getMessage() + ")");
        }
        if (!Files.isDirectory(dir) || !Files.isWritable(dir)) {
            throw new InvalidInputException(field, dir, "is not a writable directory");
        }
        return dir;
    }

    /** Deletes {@code dir} if it is an empty directory (best effort: it is only tidying up). */
    public static void removeIfEmpty(Path dir) {
        try (java.util.stream.Stream<Path> s = Files.list(dir)) {
            if (s.findAny().isEmpty()) {
                Files.delete(dir);
            }
        } catch (IOException | RuntimeException e) {
            // leave it: an empty directory is untidy, not wrong
        }
    }

    /** Writes {@code files} (name to content) into {@code dir}, all or nothing up to the final renames. */
    public static void writeAll(Path dir, Map<String, String> files) {
        Map<Path, Path> staged = new LinkedHashMap<>();
        try {
            for (Map.Entry<String, String> e : files.entrySet()) {
                Path tmp = createStagingFile(dir, e.getKey());
                staged.put(tmp, dir.resolve(e.getKey()));
                Files.writeString(tmp, e.getValue(), StandardCharsets.UTF_8);
            }
            List<Path> moved = new ArrayList<>();
            for (Map.Entry<Path, Path> e : staged.entrySet()) {
                move(e.getKey(), e.getValue());
                moved.add(e.getKey());
            }
            staged.keySet().removeAll(moved);
        } catch (IOException e) {
            throw new UncheckedIOException("writing the report to " + dir + " failed", e);
        } finally {
            for (Path tmp : staged.keySet()) {
                try {
                    Files.deleteIfExists(tmp);
                } catch (IOException ignored) {
                    // best effort: a stray temporary file is not a report file
                }
            }
        }
    }

    /**
     * A new, uniquely named hidden file in {@code dir} created with default attributes, so that its permissions
     * follow the umask like any file the user creates ({@code -rw-r--r--} under umask 022), unlike
     * {@code Files.createTempFile}, which makes it readable by its owner only.
     */
    private static Path createStagingFile(Path dir, String name) throws IOException {
        String base = "." + name + "." + ProcessHandle.current().pid() + ".";
        for (int attempt = 0; ; attempt++) {
            Path tmp = dir.resolve(base + Long.toHexString(System.nanoTime()) + "-" + attempt + ".tmp");
            try {
                return Files.createFile(tmp);
            } catch (java.nio.file.FileAlreadyExistsException e) {
                if (attempt >= 100) {
                    throw e;
                }
            }
        }
    }

    private static void move(Path from, Path to) throws IOException {
        try {
            Files.move(from, to, StandardCopyOption.ATOMIC_MOVE, StandardCopyOption.REPLACE_EXISTING);
        } catch (AtomicMoveNotSupportedException e) {
            Files.move(from, to, StandardCopyOption.REPLACE_EXISTING);
        }
    }
}

package io.dpaudit.reports.report;

import io.dpaudit.core.InvalidInputException;
import io.dpaudit.runner.output.OutputTargets;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.AtomicMoveNotSupportedException;
import java.nio.file.DirectoryNotEmptyException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;

/**
 * Writes a set of report files so that a reader never sees part of it.
 *
 * <p>Every file is first written in full into a hidden staging directory. When the target directory is empty (a fresh
 * {@code --out}, which {@link #prepareDirectory} created), the staging directory, a sibling of the target, is renamed
 * onto it: one atomic {@code rename(2)}, so the set appears whole or not at all, even under {@code kill -9}. When the
 * target already holds regular files only (an earlier report set, the user's files), the new set is staged beside it,
 * the target's other files are hard-linked into the staging directory (same file system: the same files, not
 * copies), and the two directories are switched by two renames — the target aside, the staging directory onto its
 * name — so that the target's name shows the old set or the new one, never a mix. A kill between the two renames
 * leaves the name absent for a moment, the old directory aside and the new one staged; the next use of the same
 * {@code --out} (preparing it or writing into it) renames the old directory back and removes the staging, so the old
 * set is what survives. When the target holds a subdirectory (a directory run's index and scenario folders), or hard
 * links are not possible, the staging directory is made inside it and its files are renamed into place one by one,
 * {@code report.json} last; a kill between those renames can leave a mix of the old and the new set, each file whole.
 * Any failure removes what was staged and is bad input (exit 2): the path is the user's. A staging directory left by a
 * killed process is removed by the next write into the same place (its process id is no longer alive).
 *
 * <p>Files are created with default attributes, so their permissions follow the umask ({@code -rw-r--r--} under 022).
 */
public final class ReportFiles {
    private static final String STAGING = ".dp-audit-staging-";
    private static final Pattern STAGING_NAME = Pattern.compile("\\.(?:.*\\.)?dp-audit-staging-(\\d+)-.*");
    private static final String ASIDE = "dp-audit-aside-";

    private ReportFiles() {
    }

    /**
     * Checks, before any work, that {@code dir} exists or can be created, is a writable directory, and that none of
     * {@code names} is taken by a directory inside it; creates it if needed.
     *
     * @throws InvalidInputException naming {@code field} when it is not usable
     */
    public static Path prepareDirectory(String field, Path dir, String... names) {
        recoverInterruptedSwitch(dir);
        if (Files.exists(dir) && !Files.isDirectory(dir)) {
            throw new InvalidInputException(field, dir, notADirectory(dir));
        }
        try {
            Files.createDirectories(dir);
        } catch (IOException | SecurityException e) {
            throw new InvalidInputException(field, dir, "cannot create the directory (" + e.getMessage() + ")");
        }
        if (!Files.isDirectory(dir) || !Files.isWritable(dir)) {
            throw new InvalidInputException(field, dir, "is not a writable directory");
        }
        refuseUnreplaceable(field, dir, names);
        return dir;
    }

    /**
     * The report directory {@code --out} names, or {@code fallback} when it is absent; an empty or blank value is
     * refused (it would mean the working directory, which nobody asks for by typing {@code --out ""}).
     */
    public static Path outDirectory(String value, String fallback) {
        if (value == null) {
            return Path.of(fallback);
        }
        if (value.isBlank()) {
            throw new InvalidInputException("--out", "\"" + value + "\"", "is empty; give a directory");
        }
        try {
            return Path.of(value);
        } catch (java.nio.file.InvalidPathException e) {
            throw new InvalidInputException("--out", value, "is not a valid path (" + e.getReason() + ")");
        }
    }

    /**
     * Checks, without creating anything, that {@code dir} could be prepared: an existing writable directory without a
     * directory in the way of {@code names}, or a path whose nearest existing ancestor is a writable directory. For
     * commands that must not create the output directory before their long validation is over.
     */
    public static void checkDirectory(String field, Path dir, String... names) {
        recoverInterruptedSwitch(dir);
        if (Files.exists(dir)) {
            if (!Files.isDirectory(dir)) {
                throw new InvalidInputException(field, dir, notADirectory(dir));
            }
            if (!Files.isWritable(dir)) {
                throw new InvalidInputException(field, dir, "is not a writable directory");
            }
            refuseUnreplaceable(field, dir, names);
            return;
        }
        Path ancestor = dir.toAbsolutePath().getParent();
        while (ancestor != null && !Files.exists(ancestor)) {
            ancestor = ancestor.getParent();
        }
        if (ancestor == null || !Files.isDirectory(ancestor) || !Files.isWritable(ancestor)) {
            throw new InvalidInputException(field, dir, "cannot be created (" + (ancestor == null ? "no existing "
                    + "parent" : ancestor + " is not a writable directory") + ")");
        }
    }

    /**
     * Refuses a report set's target names inside {@code dir} that are neither absent nor regular files: a directory
     * (which a file cannot replace), a device, a FIFO, a socket or a symbolic link (which the rename would replace).
     */
    private static void refuseUnreplaceable(String field, Path dir, String... names) {
        for (String name : names) {
            Path target = dir.resolve(name);
            if (Files.isDirectory(target, java.nio.file.LinkOption.NOFOLLOW_LINKS)) {
                throw new InvalidInputException(field, dir, "holds a directory named " + name + ", which a report "
                        + "file cannot replace");
            }
            OutputTargets.requireReplaceable(field, target);
        }
    }

    /** What an existing non-directory {@code dir} is, for the message that refuses it as a report directory. */
    private static String notADirectory(Path dir) {
        return Files.isRegularFile(dir) ? "is a file, not a directory" : "is not a directory (a device, pipe or "
                + "socket)";
    }

    /** Deletes {@code dir} if it is an empty directory (best effort: it is only tidying up). */
    public static void removeIfEmpty(Path dir) {
        try (Stream<Path> s = Files.list(dir)) {
            if (s.findAny().isEmpty()) {
                Files.delete(dir);
            }
        } catch (IOException | RuntimeException e) {
            // leave it: an empty directory is untidy, not wrong
        }
    }

    /**
     * Writes {@code files} (name to content) into {@code dir}, which exists: all of them or none (see the class
     * comment for what a kill can leave).
     *
     * @throws InvalidInputException when a file cannot be written (the directory is named)
     */
    public static void writeAll(Path dir, Map<String, String> files) {
        Path parent = dir.toAbsolutePath().getParent();
        recoverInterruptedSwitch(dir);
        removeStaleStaging(dir);
        if (parent != null) {
            removeStaleStaging(parent);
        }
        refuseUnreplaceable("--out", dir, files.keySet().toArray(String[]::new)); // again, just before writing
        boolean empty = isEmpty(dir);
        String tag = STAGING + ProcessHandle.current().pid() + "-" + Long.toHexString(System.nanoTime());
        boolean switchable = parent != null && !Files.isSymbolicLink(dir) && (empty || onlyRegularFiles(dir));
        Path staging = switchable ? parent.resolve("." + dir.getFileName() + "." + tag.substring(1))
                : dir.resolve(tag);
        try {
            Files.createDirectory(staging);
            for (Map.Entry<String, String> e : files.entrySet()) {
                Files.writeString(staging.resolve(e.getKey()), e.getValue(), StandardCharsets.UTF_8);
            }
            if (empty && parent != null) {
                try {
                    Files.move(staging, dir, StandardCopyOption.ATOMIC_MOVE, StandardCopyOption.REPLACE_EXISTING);
                    return;
                } catch (DirectoryNotEmptyException | AtomicMoveNotSupportedException raced) {
                    // Something appeared in the directory, or the file system cannot rename onto it: file by file.
                }
            }
            if (switchable && switchDirectories(dir, parent, staging, files.keySet(), tag)) {
                return;
            }
            List<String> names = new ArrayList<>(files.keySet());
            names.sort(Comparator.comparing(n -> n.equals("report.json"))); // report.json last
            for (String name : names) {
                move(staging.resolve(name), dir.resolve(name));
            }
        } catch (IOException e) {
            throw new InvalidInputException("--out", dir, "the report could not be written (" + OutputTargets.reason(e)
                    + ")");
        } finally {
            deleteTree(staging);
        }
    }

    /**
     * Replaces {@code dir} by {@code staging} (a sibling holding the new set) after hard-linking {@code dir}'s other
     * files into it: {@code dir} is renamed aside, {@code staging} onto its name, the old directory removed. False,
     * with {@code dir} untouched, when {@code dir} holds anything but regular files or a link cannot be made; then the
     * caller falls back to renaming file by file.
     */
    private static boolean switchDirectories(Path dir, Path parent, Path staging, java.util.Set<String> names,
            String tag) throws IOException {
        if (!parent.equals(staging.getParent())) {
            return false;
        }
        List<Path> others = new ArrayList<>();
        try (Stream<Path> s = Files.list(dir)) {
            for (Path p : s.toList()) {
                if (!Files.isRegularFile(p, java.nio.file.LinkOption.NOFOLLOW_LINKS)) {
                    return false;
                }
                if (!names.contains(name(p))) {
                    others.add(p);
                }
            }
        }
        try {
            for (Path p : others) {
                Files.createLink(staging.resolve(p.getFileName()), p);
            }
        } catch (IOException | UnsupportedOperationException | SecurityException e) {
            for (Path p : others) {
                Files.deleteIfExists(staging.resolve(p.getFileName()));
            }
            return false;
        }
        try { // the folder keeps its permissions (other attributes, such as ACLs, are not carried over)
            Files.setPosixFilePermissions(staging, Files.getPosixFilePermissions(dir));
        } catch (UnsupportedOperationException | IOException e) {
            // not a POSIX file system: default attributes
        }
        Path aside = parent.resolve("." + dir.getFileName() + "." + ASIDE + tag.substring(STAGING.length()));
        try {
            Files.move(dir, aside, StandardCopyOption.ATOMIC_MOVE);
        } catch (IOException e) {
            for (Path p : others) {
                Files.deleteIfExists(staging.resolve(p.getFileName()));
            }
            return false;
        }
        try {
            Files.move(staging, dir, StandardCopyOption.ATOMIC_MOVE);
        } catch (IOException e) {
            Files.move(aside, dir, StandardCopyOption.ATOMIC_MOVE); // put the old set back
            throw e;
        }
        deleteTree(aside);
        return true;
    }

    /**
     * Undoes a switch that a killed process left half done: when {@code dir} is absent and a directory set aside from it
     * by a process no longer alive exists, that directory is renamed back to {@code dir}; one left beside a present
     * {@code dir} (killed after the second rename) is removed.
     */
    static void recoverInterruptedSwitch(Path dir) {
        Path abs = dir.toAbsolutePath();
        Path parent = abs.getParent();
        if (parent == null || abs.getFileName() == null || !Files.isDirectory(parent)) {
            return;
        }
        String prefix = "." + abs.getFileName() + "." + ASIDE;
        try (Stream<Path> s = Files.list(parent)) {
            for (Path p : s.toList()) {
                String n = name(p);
                if (!n.startsWith(prefix) || !Files.isDirectory(p, java.nio.file.LinkOption.NOFOLLOW_LINKS)) {
                    continue;
                }
                String pid = n.substring(prefix.length()).split("-", 2)[0];
                boolean dead;
                try {
                    dead = ProcessHandle.of(Long.parseLong(pid)).map(h -> !h.isAlive()).orElse(true);
                } catch (NumberFormatException e) {
                    continue;
                }
                if (!dead) {
                    continue;
                }
                if (!Files.exists(abs, java.nio.file.LinkOption.NOFOLLOW_LINKS)) {
                    Files.move(p, abs, StandardCopyOption.ATOMIC_MOVE);
                } else {
                    deleteTree(p);
                }
            }
        } catch (IOException | RuntimeException e) {
            // best effort: the old set stays aside under its name, where the user can find it
        }
    }

    private static boolean onlyRegularFiles(Path dir) {
        try (Stream<Path> s = Files.list(dir)) {
            return s.allMatch(p -> Files.isRegularFile(p, java.nio.file.LinkOption.NOFOLLOW_LINKS));
        } catch (IOException e) {
            return false;
        }
    }

    private static boolean isEmpty(Path dir) {
        try (Stream<Path> s = Files.list(dir)) {
            return s.findAny().isEmpty();
        } catch (IOException e) {
            return false;
        }
    }

    private static void move(Path from, Path to) throws IOException {
        try {
            Files.move(from, to, StandardCopyOption.ATOMIC_MOVE, StandardCopyOption.REPLACE_EXISTING);
        } catch (AtomicMoveNotSupportedException e) {
            Files.move(from, to, StandardCopyOption.REPLACE_EXISTING);
        }
    }

    /** The last element of {@code p}'s name, empty for a root. */
    private static String name(Path p) {
        Path n = p.getFileName();
        return n == null ? "" : n.toString();
    }

    /** Removes staging directories in {@code dir} left by processes that are no longer alive. */
    private static void removeStaleStaging(Path dir) {
        try (Stream<Path> s = Files.list(dir)) {
            for (Path p : s.toList()) {
                Matcher m = STAGING_NAME.matcher(name(p));
                if (m.matches() && Files.isDirectory(p)
                        && ProcessHandle.of(Long.parseLong(m.group(1))).map(h -> !h.isAlive()).orElse(true)) {
                    deleteTree(p);
                }
            }
        } catch (IOException | RuntimeException e) {
            // tidying only
        }
    }

    private static void deleteTree(Path p) {
        if (!Files.exists(p)) {
            return;
        }
        try (Stream<Path> s = Files.walk(p)) {
            for (Path q : s.sorted(Comparator.reverseOrder()).toList()) {
                Files.deleteIfExists(q);
            }
        } catch (IOException | RuntimeException e) {
            // best effort
        }
    }
}

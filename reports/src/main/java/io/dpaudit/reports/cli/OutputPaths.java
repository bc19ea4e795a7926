package io.dpaudit.reports.cli;

import io.dpaudit.core.InvalidInputException;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

/**
 * Keeps a command's outputs off its inputs: no file a command writes (a checkpoint, a report file of {@code --out}, an
 * index) may be one of the files it reads (a scenario, a score file), reached by any path — a relative name, a
 * symbolic link, a hard link, {@code ..}. Checked before any work, so that a refused command has written nothing.
 *
 * <p>Two paths name the same file when {@link Files#isSameFile} says so (both exist: same device and inode, so hard
 * links are caught), or, when the output does not exist yet, when their canonical forms are equal (the output's
 * nearest existing ancestor resolved through its links, then the rest appended).
 */
final class OutputPaths {
    private final List<Path> inputs = new ArrayList<>();
    private final List<String> inputFields = new ArrayList<>();

    /** Records an input file ({@code field} names it in messages). Directories are expanded by the caller. */
    OutputPaths input(String field, Path file) {
        inputs.add(file);
        inputFields.add(field);
        return this;
    }

    /**
     * Refuses {@code output}, written by {@code field}, when it is one of the inputs.
     *
     * @throws InvalidInputException naming {@code field}, the path and the input it would overwrite
     */
    void refuseFile(String field, Path output) {
        for (int i = 0; i < inputs.size(); i++) {
            if (same(output, inputs.get(i))) {
                throw new InvalidInputException(field, output, "is the " + inputFields.get(i) + " file "
                        + inputs.get(i) + ": an output must never overwrite an input");
            }
        }
    }

    /**
     * Refuses an output directory {@code dir} when it is an input file, or when one of {@code names} inside it (the
     * files and folders the command writes there) is an input file or holds one.
     */
    void refuseDirectory(String field, Path dir, List<String> names) {
        refuseFile(field, dir);
        for (String name : names) {
            Path written = dir.resolve(name);
            for (int i = 0; i < inputs.size(); i++) {
                Path in = inputs.get(i);
                if (same(written, in) || inside(in, written)) {
                    throw new InvalidInputException(field, dir, "would overwrite the " + inputFields.get(i) + " file "
                            + in + " (written as " + written + "): an output must never overwrite an input");
                }
            }
        }
    }

    /** Whether {@code a} and {@code b} name the same file. */
    static boolean same(Path a, Path b) {
        try {
            if (Files.exists(a) && Files.exists(b)) {
                return Files.isSameFile(a, b);
            }
        } catch (IOException | SecurityException e) {
            // fall through to the canonical comparison
        }
        return canonical(a).equals(canonical(b));
    }

    /** Whether {@code file} lies strictly inside the directory {@code dir} (canonical paths). */
    static boolean inside(Path file, Path dir) {
        Path f = canonical(file);
        Path d = canonical(dir);
        return !f.equals(d) && f.startsWith(d);
    }

    /**
     * The absolute, normalised path with its nearest existing ancestor resolved through symbolic links, the rest
     * appended: two spellings of one place get one canonical form whether or not the place exists yet.
     */
    static Path canonical(Path p) {
        Path abs = p.toAbsolutePath().normalize();
        Path existing = abs;
        List<Path> rest = new ArrayList<>();
        while (existing != null && !Files.exists(existing, LinkOption.NOFOLLOW_LINKS)) {
            rest.add(0, existing.getFileName());
            existing = existing.getParent();
        }
        if (existing == null) {
            return abs;
        }
        Path real;
        try {
            real = existing.toRealPath();
        } catch (IOException | SecurityException e) {
            real = existing;
        }
        for (Path r : rest) {
            real = real.resolve(r);
        }
        return real.normalize();
    }
}

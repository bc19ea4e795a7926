package io.dpaudit.runner.output;

import io.dpaudit.core.InvalidInputException;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.Path;
import java.nio.file.attribute.BasicFileAttributes;

/**
 * Guards the names dp-audit writes to. Every output file (a checkpoint, a report file, an index) is written in full
 * under a temporary name and renamed onto its target; {@code rename(2)} replaces whatever directory entry holds that
 * name. Onto a device node, a FIFO or a socket that would destroy the node (as root, {@code --checkpoint /dev/full}
 * replaced the device by a regular file), and onto a symbolic link it would replace the link, not the file it leads
 * to. So a target must be absent or a regular file (not followed through links); anything else is refused in one line
 * that names the option, the path and what the path is, before anything is written.
 */
public final class OutputTargets {
    /** The file-type bits of a Unix mode ({@code S_IFMT}) and the types they name. */
    private static final int S_IFMT = 0170000;
    private static final int S_IFSOCK = 0140000;
    private static final int S_IFBLK = 0060000;
    private static final int S_IFCHR = 0020000;
    private static final int S_IFIFO = 0010000;

    private OutputTargets() {
    }

    /**
     * Refuses {@code target} unless it is absent or a regular file (the link itself is examined, not what it leads
     * to).
     *
     * @param field the option or field that names the output, for the message (e.g. {@code --checkpoint})
     * @throws InvalidInputException naming {@code field}, the path and what it is
     */
    public static void requireReplaceable(String field, Path target) {
        String what = describeIfNotReplaceable(target);
        if (what != null) {
            throw new InvalidInputException(field, target, what + "; dp-audit writes only to a new name or over a "
                    + "regular file");
        }
    }

    /**
     * Null when {@code target} is absent or a regular file; otherwise what it is, as a phrase ({@code "is a
     * character device, not a regular file"}).
     */
    static String describeIfNotReplaceable(Path target) {
        BasicFileAttributes a;
        try {
            a = Files.readAttributes(target, BasicFileAttributes.class, LinkOption.NOFOLLOW_LINKS);
        } catch (java.nio.file.NoSuchFileException e) {
            return null;
        } catch (IOException | SecurityException e) {
            return "cannot be examined (" + e.getMessage() + ")";
        }
        if (a.isRegularFile()) {
            return null;
        }
        if (a.isDirectory()) {
            return "is a directory, not a file";
        }
        if (a.isSymbolicLink()) {
            return "is a symbolic link (writing would replace the link, not the file it leads to); name the file "
                    + "itself";
        }
        return "is " + specialKind(target) + ", not a regular file";
    }

    /**
     * Why a write failed, for a one-line message: the operating system's reason ({@code "No space left on device"}),
     * never an exception's class name.
     */
    public static String reason(IOException e) {
        String r = e instanceof java.nio.file.FileSystemException f && f.getReason() != null ? f.getReason()
                : e.getMessage();
        if (r == null || r.isBlank()) {
            return "an input/output error";
        }
        return r.replace('\n', ' ').replace('\r', ' ');
    }

    /** What kind of special file {@code p} is, from its Unix mode where the platform gives it. */
    private static String specialKind(Path p) {
        try {
            Object mode = Files.getAttribute(p, "unix:mode", LinkOption.NOFOLLOW_LINKS);
            if (mode instanceof Integer m) {
                switch (m & S_IFMT) {
                    case S_IFCHR:
                        return "a character device";
                    case S_IFBLK:
                        return "a block device";
                    case S_IFIFO:
                        return "a FIFO (named pipe)";
                    case S_IFSOCK:
                        return "a socket";
                    default:
                        break;
                }
            }
        } catch (IOException | UnsupportedOperationException | IllegalArgumentException | SecurityException e) {
            // not a Unix file system: the general phrase below
        }
        return "a device, pipe or socket";
    }
}

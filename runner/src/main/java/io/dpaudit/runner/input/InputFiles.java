package io.dpaudit.runner.input;

import io.dpaudit.core.InvalidInputException;
import java.io.IOException;
import java.io.InputStream;
import java.nio.ByteBuffer;
import java.nio.charset.CharacterCodingException;
import java.nio.charset.CodingErrorAction;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.util.Locale;

/**
 * Reads a text file a user names, refusing in one line what is not one: a path that is not a regular file (a
 * directory, a FIFO with no writer that would block forever, {@code /dev/zero} that would never end, a symbolic-link
 * loop), a file over a size cap (checked before reading and again while reading, so a file that grows is caught), and
 * bytes that are not UTF-8.
 */
public final class InputFiles {
    /** Size cap of scenario, checkpoint and report files: 64 MiB, far above any that dp-audit writes. */
    public static final long MAX_TEXT_BYTES = 64L << 20;

    private InputFiles() {
    }

    /**
     * The file's text.
     *
     * @param field what the file is, for messages (e.g. {@code scenario}, {@code --resume})
     * @throws InvalidInputException naming {@code field} and the path
     */
    public static String readText(String field, Path path, long maxBytes) {
        checkRegular(field, path);
        byte[] bytes;
        try (InputStream in = Files.newInputStream(path)) {
            bytes = in.readNBytes((int) Math.min(Integer.MAX_VALUE - 8, maxBytes + 1));
        } catch (NoSuchFileException e) {
            throw new InvalidInputException(field, path, "file not found");
        } catch (IOException | SecurityException e) {
            throw new InvalidInputException(field, path, "cannot be read (" + e.getMessage() + ")");
        }
        if (bytes.length > maxBytes) {
            throw new InvalidInputException(field, path, String.format(Locale.ROOT, "is larger than %d MiB, the "
                    + "most a %s file may hold", maxBytes >> 20, field.replaceFirst("^--", "")));
        }
        try {
            return StandardCharsets.UTF_8.newDecoder().onMalformedInput(CodingErrorAction.REPORT)
                    .onUnmappableCharacter(CodingErrorAction.REPORT).decode(ByteBuffer.wrap(bytes)).toString();
        } catch (CharacterCodingException e) {
            throw new InvalidInputException(field, path, "is not UTF-8 text (a binary file?)");
        }
    }

    /**
     * Refuses a path that is not an existing regular file (following links), without opening it: opening a FIFO with
     * no writer blocks, and a device such as {@code /dev/zero} never ends.
     */
    public static void checkRegular(String field, Path path) {
        if (Files.isRegularFile(path)) {
            return;
        }
        String what;
        if (Files.isDirectory(path)) {
            what = "is a directory, not a file";
        } else if (Files.isSymbolicLink(path) && !Files.exists(path)) {
            what = "is a symbolic link that leads nowhere (dangling, or a loop)";
        } else if (Files.exists(path)) {
            what = "is not a regular file (a pipe, a device or a socket); give a file";
        } else {
            what = "file not found";
        }
        throw new InvalidInputException(field, path, what);
    }
}

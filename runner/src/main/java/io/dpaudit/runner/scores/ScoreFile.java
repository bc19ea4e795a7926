package io.dpaudit.runner.scores;

import io.dpaudit.core.InvalidInputException;
import java.io.BufferedInputStream;
import java.io.BufferedReader;
import java.io.EOFException;
import java.io.IOException;
import java.io.InputStream;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.security.DigestInputStream;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.HexFormat;
import java.util.zip.GZIPInputStream;

/**
 * A file of per-trial scores of one world. Its format is read off its first bytes, not its name: gzip (1f 8b) is
 * decompressed on the fly, then {@code \x93NUMPY} is a NumPy array ({@link NpyScoreReader}), anything else text or
 * CSV ({@link TextScoreReader}). Reading streams: memory does not grow with the file.
 *
 * @param option the command-line option that named it ({@code --with}, {@code --without}), for messages
 * @param path the file
 * @param column the CSV column holding the scores, or null
 */
public record ScoreFile(String option, Path path, String column) {
    private static final int BUFFER = 1 << 16;

    /** Checks that the file exists and is a readable regular file. */
    public ScoreFile {
        if (!Files.exists(path)) {
            throw new InvalidInputException(option, path, "file not found");
        }
        if (!Files.isRegularFile(path) || !Files.isReadable(path)) {
            throw new InvalidInputException(option, path, "is not a readable file");
        }
    }

    /** The name shown in messages and reports. */
    String name() {
        return path.toString();
    }

    /** The file's size in bytes. */
    long size() {
        try {
            return Files.size(path);
        } catch (IOException e) {
            throw new InvalidInputException(option, path, "cannot be read (" + e.getMessage() + ")");
        }
    }

    /**
     * Opens the scores. When {@code digest} is not null every byte of the file as stored (before decompression) goes
     * through it.
     */
    /**
     * The next score of {@code in}, read from this file: false at the end; a non-UTF-8 text file or a read error is
     * bad input naming the file and the position.
     */
    boolean next(ScoreReader in) {
        try {
            return in.next();
        } catch (java.nio.charset.CharacterCodingException e) {
            throw new io.dpaudit.core.InvalidInputException(name() + ", after " + in.position(), "(binary)",
                    "is not UTF-8 text");
        } catch (java.io.IOException e) {
            throw new io.dpaudit.core.InvalidInputException(name() + ", after " + in.position(), "(read error)",
                    e.getMessage());
        }
    }

    ScoreReader open(MessageDigest digest) {
        try {
            InputStream raw = Files.newInputStream(path);
            if (digest != null) {
                raw = new DigestInputStream(raw, digest);
            }
            BufferedInputStream in = new BufferedInputStream(raw, BUFFER);
            in.mark(2);
            int a = in.read();
            int b = in.read();
            in.reset();
            InputStream content = in;
            if (a == 0x1f && b == 0x8b) {
                content = new BufferedInputStream(new GZIPInputStream(in, BUFFER), BUFFER);
            }
            content.mark(NpyScoreReader.MAGIC.length);
            byte[] head = content.readNBytes(NpyScoreReader.MAGIC.length);
            content.reset();
            if (java.util.Arrays.equals(head, NpyScoreReader.MAGIC)) {
                return new NpyScoreReader(name(), content);
            }
            java.nio.charset.CharsetDecoder utf8 = StandardCharsets.UTF_8.newDecoder()
                    .onMalformedInput(java.nio.charset.CodingErrorAction.REPORT)
                    .onUnmappableCharacter(java.nio.charset.CodingErrorAction.REPORT);
            return new TextScoreReader(name(), new BufferedReader(new InputStreamReader(content, utf8), BUFFER),
                    column);
        } catch (NoSuchFileException e) {
            throw new InvalidInputException(option, path, "file not found");
        } catch (java.nio.charset.CharacterCodingException e) {
            throw new InvalidInputException(name(), "(binary)", "is neither a .npy file nor UTF-8 text");
        } catch (EOFException e) {
            throw new InvalidInputException(name(), "(truncated)", "ends inside its header");
        } catch (java.util.zip.ZipException e) {
            throw new InvalidInputException(name(), "(gzip)", "is not valid gzip data (" + e.getMessage() + ")");
        } catch (IOException e) {
            throw new InvalidInputException(option, path, "cannot be read (" + e.getMessage() + ")");
        }
    }

    /** A fresh SHA-256 digest. */
    static MessageDigest sha256() {
        try {
            return MessageDigest.getInstance("SHA-256");
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException("SHA-256 is missing from this Java runtime", e);
        }
    }

    /** Hexadecimal form of a digest. */
    static String hex(byte[] digest) {
        return HexFormat.of().formatHex(digest);
    }
}

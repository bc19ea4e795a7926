package io.dpaudit.runner.output;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.dpaudit.core.InvalidInputException;
import java.io.IOException;
import java.nio.file.FileSystemException;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** What may be written over, and the one-line reasons for what may not. */
class OutputTargetsTest {
    @TempDir
    Path dir;

    @Test
    void absentNamesAndRegularFilesMayBeReplaced() throws IOException {
        assertNull(OutputTargets.describeIfNotReplaceable(dir.resolve("new")));
        assertNull(OutputTargets.describeIfNotReplaceable(Files.writeString(dir.resolve("old"), "x")));
        OutputTargets.requireReplaceable("--checkpoint", dir.resolve("new"));
    }

    @Test
    void directoriesAndLinksAreRefusedNamingTheField() throws IOException {
        InvalidInputException e = assertThrows(InvalidInputException.class,
                () -> OutputTargets.requireReplaceable("--checkpoint", dir));
        assertEquals("--checkpoint = " + dir + ": is a directory, not a file; dp-audit writes only to a new name or "
                + "over a regular file", e.getMessage());
        Path dangling = Files.createSymbolicLink(dir.resolve("dangling"), dir.resolve("nowhere"));
        assertTrue(OutputTargets.describeIfNotReplaceable(dangling).startsWith("is a symbolic link"));
        assertEquals("--out", assertThrows(InvalidInputException.class,
                () -> OutputTargets.requireReplaceable("--out", dangling)).field());
    }

    @Test
    void reasonsAreTheSystemsWordsWithoutClassNames() {
        assertEquals("No space left on device", OutputTargets.reason(new IOException("No space left on device")));
        assertEquals("No space left on device", OutputTargets.reason(new FileSystemException("/x/.tmp", null,
                "No space left on device")));
        assertEquals("an input/output error", OutputTargets.reason(new IOException()));
        assertEquals("a b", OutputTargets.reason(new IOException("a\nb")));
    }
}

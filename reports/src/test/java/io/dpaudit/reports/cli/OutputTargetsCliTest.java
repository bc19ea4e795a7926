package io.dpaudit.reports.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.net.StandardProtocolFamily;
import java.net.UnixDomainSocketAddress;
import java.nio.channels.ServerSocketChannel;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * No output path that is not a regular file or a new name is ever written: a checkpoint, a report file or an index file
 * named by a character device, a FIFO, a socket or a symbolic link is refused in one line (exit 2) before anything is
 * written, and the node keeps its type. As root, {@code run s.json --checkpoint /dev/full} used to exit 0 and replace
 * the device node by a regular file (issue 60); the device here is a private copy made with {@code mknod}, never a
 * system one.
 */
class OutputTargetsCliTest {
    @TempDir
    Path dir;

    private Path scenario(String name) throws IOException {
        return Files.writeString(dir.resolve(name), "{\"mechanism\": {\"type\": \"gaussian\", \"sigma\": 1}, "
                + "\"trials\": 20000, \"claims\": [{\"epsilon\": 5, \"delta\": 1e-5}]}");
    }

    /** A FIFO made by {@code mkfifo}; the test is skipped where the command is missing. */
    private Path fifo(Path p) throws Exception {
        Files.createDirectories(p.getParent());
        int exit;
        try {
            Process pr = new ProcessBuilder("mkfifo", p.toString()).redirectErrorStream(true).start();
            exit = pr.waitFor(30, TimeUnit.SECONDS) ? pr.exitValue() : -1;
        } catch (IOException e) {
            exit = -1;
        }
        Assumptions.assumeTrue(exit == 0 && Files.exists(p, LinkOption.NOFOLLOW_LINKS), "mkfifo is not available");
        return p;
    }

    private static void assertRefused(CliRunner.Result r, String fragment) {
        assertEquals(2, r.exit(), r.err());
        assertEquals(1, r.err().strip().lines().count(), r.err());
        assertTrue(r.err().contains(fragment), r.err());
        assertFalse(r.err().contains("Exception"), r.err());
    }

    private static boolean isFifo(Path p) throws IOException {
        return !Files.isRegularFile(p, LinkOption.NOFOLLOW_LINKS) && !Files.isDirectory(p, LinkOption.NOFOLLOW_LINKS)
                && !Files.isSymbolicLink(p) && Files.exists(p, LinkOption.NOFOLLOW_LINKS);
    }

    @Test
    void aCheckpointOnAFifoIsRefusedAndTheFifoKept() throws Exception {
        Path s = scenario("s.json");
        Path f = fifo(dir.resolve("pipe"));
        Path out = dir.resolve("out");
        CliRunner.Result r = CliRunner.run("run", s.toString(), "--checkpoint", f.toString(), "--out", out.toString(),
                "--quiet");
        assertRefused(r, "--checkpoint = " + f + ": is a FIFO (named pipe), not a regular file");
        assertTrue(isFifo(f), "the FIFO was replaced");
        assertFalse(Files.exists(out), "a refused run wrote " + out);
    }

    @Test
    void aCheckpointOnACharacterDeviceIsRefusedAndTheNodeKept() throws Exception {
        Path node = dir.resolve("full");
        int exit;
        try {
            Process pr = new ProcessBuilder("mknod", node.toString(), "c", "1", "7").redirectErrorStream(true).start();
            exit = pr.waitFor(30, TimeUnit.SECONDS) ? pr.exitValue() : -1;
        } catch (IOException e) {
            exit = -1;
        }
        Assumptions.assumeTrue(exit == 0, "mknod needs root (CAP_MKNOD)");
        Path s = scenario("s.json");
        Path out = dir.resolve("out");
        CliRunner.Result r = CliRunner.run("run", s.toString(), "--checkpoint", node.toString(), "--out",
                out.toString(), "--quiet");
        assertRefused(r, "is a character device, not a regular file");
        assertEquals(Integer.valueOf(0020000), (Integer) Files.getAttribute(node, "unix:mode",
                LinkOption.NOFOLLOW_LINKS) & 0170000, "the device node was replaced");
        assertFalse(Files.exists(out));
    }

    @Test
    void aCheckpointOnASocketOrALinkIsRefused() throws Exception {
        Path s = scenario("s.json");
        Path sock = dir.resolve("sock");
        try (ServerSocketChannel ch = ServerSocketChannel.open(StandardProtocolFamily.UNIX)) {
            ch.bind(UnixDomainSocketAddress.of(sock));
            assertRefused(CliRunner.run("run", s.toString(), "--checkpoint", sock.toString(), "--out",
                    dir.resolve("o1").toString(), "--quiet"), "is a socket, not a regular file");
        }
        Path target = Files.writeString(dir.resolve("kept.json"), "kept");
        Path link = Files.createSymbolicLink(dir.resolve("link"), target);
        assertRefused(CliRunner.run("run", s.toString(), "--checkpoint", link.toString(), "--out",
                dir.resolve("o2").toString(), "--quiet"), "is a symbolic link");
        assertTrue(Files.isSymbolicLink(link));
        assertEquals("kept", Files.readString(target));
        assertFalse(Files.exists(dir.resolve("o1")) || Files.exists(dir.resolve("o2")));
    }

    @Test
    void aReportFileOnAFifoIsRefusedBeforeAnyWork() throws Exception {
        Path s = scenario("s.json");
        Path out = Files.createDirectories(dir.resolve("out"));
        Path f = fifo(out.resolve("report.md"));
        assertRefused(CliRunner.run("run", s.toString(), "--out", out.toString(), "--quiet"),
                "--out = " + out.resolve("report.md") + ": is a FIFO (named pipe)");
        assertTrue(isFifo(f));
        assertEquals(List.of(f), list(out), "a refused run wrote into " + out);
        Path scores = Files.writeString(dir.resolve("with.txt"), "1\n2\n3\n");
        assertRefused(CliRunner.run("scores", "--with", scores.toString(), "--without", scores.toString(), "--out",
                out.toString(), "--quiet"), "is a FIFO (named pipe)");
        assertEquals(List.of(f), list(out));
    }

    /** A directory run checks every report folder's targets before it writes the first folder. */
    @Test
    void aDirectoryRunChecksEveryFolderBeforeWritingAny() throws Exception {
        Path scenarios = Files.createDirectories(dir.resolve("scenarios"));
        Files.copy(scenario("a.json"), scenarios.resolve("a.json"));
        Files.copy(scenario("b.json"), scenarios.resolve("b.json"));
        Path out = dir.resolve("out");
        Path f = fifo(out.resolve("b").resolve("report.json"));
        assertRefused(CliRunner.run("run", scenarios.toString(), "--out", out.toString(), "--quiet"),
                "is a FIFO (named pipe)");
        assertTrue(isFifo(f));
        assertFalse(Files.exists(out.resolve("a")), "folder a was written before b was refused");
        assertFalse(Files.exists(out.resolve("index.json")));
    }

    private static List<Path> list(Path d) throws IOException {
        try (var s = Files.list(d)) {
            return s.sorted().toList();
        }
    }
}

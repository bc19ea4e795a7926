package io.dpaudit.reports.cli;

import io.dpaudit.runner.text.Format;

import io.dpaudit.core.engine.ProgressListener;
import java.io.PrintStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Locale;

/**
 * Progress on standard error: each phase as it starts (pilot, selection, evaluation, estimate, bounds), then its
 * fraction done, trials per second and time left. On a terminal one line is rewritten in place at most four times a
 * second; otherwise (a CI log, a file, a pipe) plain newline-terminated lines at most every ten seconds. Each phase
 * ends with a line of its own.
 */
final class ConsoleProgress implements ProgressListener {
    private static final long INTERVAL_NANOS = 250_000_000L;
    private static final long LOG_INTERVAL_NANOS = 10_000_000_000L;

    private final PrintStream err;
    private final boolean terminal;
    private long lastPrint;
    private boolean midLine;
    private volatile long lastOutputNanos = System.nanoTime();

    ConsoleProgress(PrintStream err, boolean terminal) {
        this.err = err;
        this.terminal = terminal;
    }

    /** Progress on the process's standard error, rewritten in place only when standard error is a terminal. */
    static ConsoleProgress forStandardError(PrintStream err) {
        return new ConsoleProgress(err, err == System.err && standardErrorIsTerminal());
    }

    /**
     * Whether file descriptor 2 is a terminal. {@code System.console()} only says that standard input and output are
     * (a run with {@code 2> log} still has a console), so on Linux the descriptor's target is read from
     * {@code /proc/self/fd/2}: a terminal is a {@code /dev/pts/N} or {@code /dev/ttyN} device. Elsewhere, or when
     * {@code /proc} cannot be read, the console decides; {@code TERM=dumb} is never a terminal.
     */
    static boolean standardErrorIsTerminal() {
        if ("dumb".equals(System.getenv("TERM")) || System.console() == null) {
            return false;
        }
        try {
            String target = Files.readSymbolicLink(Path.of("/proc/self/fd/2")).toString();
            return target.startsWith("/dev/pts/") || target.startsWith("/dev/tty");
        } catch (java.io.IOException | UnsupportedOperationException | SecurityException e) {
            return true; // no /proc: the console is the best evidence there is
        }
    }

    @Override
    public synchronized void onPhase(String phase, String message) {
        endLine();
        err.println(String.format(Locale.ROOT, "  %-10s %s", phase, message));
        err.flush();
        lastOutputNanos = System.nanoTime();
    }

    /** When this listener last printed ({@link System#nanoTime}). */
    long lastOutputNanos() {
        return lastOutputNanos;
    }

    @Override
    public synchronized void onProgress(String phase, long done, long total, long elapsedNanos) {
        boolean finished = done >= total;
        if (!finished && elapsedNanos - lastPrint < (terminal ? INTERVAL_NANOS : LOG_INTERVAL_NANOS)) {
            return;
        }
        lastPrint = finished ? 0 : elapsedNanos;
        double seconds = elapsedNanos / 1e9;
        double rate = seconds > 0 ? done / seconds : 0;
        double eta = rate > 0 ? (total - done) / rate : Double.NaN;
        err.print(String.format(Locale.ROOT, (terminal ? "\r" : "")
                + "  %-10s %6.2f%%  %.3g / %.3g trials per world  %16s  %s", phase,
                100.0 * done / total, (double) done, (double) total, Format.perSecond(rate, "trials"), finished
                        ? String.format(Locale.ROOT, "done in %.1f s", seconds)
                        : "ETA " + (Double.isNaN(eta) ? "?" : String.format(Locale.ROOT, "%.1f s", eta))));
        if (finished || !terminal) {
            err.println();
            midLine = false;
        } else {
            midLine = true;
        }
        err.flush();
        lastOutputNanos = System.nanoTime();
    }

    /** Ends a progress line being rewritten in place, so that a phase message starts on a line of its own. */
    private void endLine() {
        if (midLine) {
            err.println();
            midLine = false;
        }
    }
}

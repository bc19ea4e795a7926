package io.dpaudit.reports.cli;

import io.dpaudit.core.engine.ProgressListener;
import java.io.PrintStream;
import java.util.Locale;

/**
 * Progress on standard error: phase, fraction done, trials per second and time left. On a terminal one line is
 * rewritten in place at most four times a second; otherwise (a CI log, a file) plain newline-terminated lines at most
 * every ten seconds. Each phase ends with a line of its own.
 */
final class ConsoleProgress implements ProgressListener {
    private static final long INTERVAL_NANOS = 250_000_000L;
    private static final long LOG_INTERVAL_NANOS = 10_000_000_000L;

    private final PrintStream err;
    private final boolean terminal;
    private long lastPrint;

    /** Progress for a terminal when the process has a console, else plain lines. */
    ConsoleProgress(PrintStream err) {
        this(err, System.console() != null);
    }

    ConsoleProgress(PrintStream err, boolean terminal) {
        this.err = err;
        this.terminal = terminal;
    }

    @Override
    public synchronized void onProgress(String phase, long done, long total, long elapsedNanos) {
        boolean finished = done >= total;
        if (!finished && elapsedNanos - lastPrint < (terminal ? INTERVAL_NANOS : LOG_INTERVAL_NANOS)) {
            return;
        }
        lastPrint = elapsedNanos;
        double seconds = elapsedNanos / 1e9;
        double rate = seconds > 0 ? done / seconds : 0;
        double eta = rate > 0 ? (total - done) / rate : Double.NaN;
        err.print(String.format(Locale.ROOT, (terminal ? "\r" : "") + "  %-10s %6.2f%%  %.3g / %.3g trials per world  %6.1f M trials/s  ETA %s",
                phase, 100.0 * done / total, (double) done, (double) total, rate / 1e6,
                Double.isNaN(eta) ? "?" : String.format(Locale.ROOT, "%.1f s", eta)));
        if (finished || !terminal) {
            err.println();
        }
        err.flush();
    }
}

package io.dpaudit.reports.cli;

import io.dpaudit.core.engine.ProgressListener;
import java.io.PrintStream;
import java.util.Locale;

/**
 * A progress line on standard error: phase, fraction done, trials per second and time left, rewritten in place
 * at most four times a second, and finished with a newline at the end of each phase.
 */
final class ConsoleProgress implements ProgressListener {
    private static final long INTERVAL_NANOS = 250_000_000L;

    private final PrintStream err;
    private long lastPrint;

    ConsoleProgress(PrintStream err) {
        this.err = err;
    }

    @Override
    public synchronized void onProgress(String phase, long done, long total, long elapsedNanos) {
        boolean finished = done >= total;
        if (!finished && elapsedNanos - lastPrint < INTERVAL_NANOS) {
            return;
        }
        lastPrint = elapsedNanos;
        double seconds = elapsedNanos / 1e9;
        double rate = seconds > 0 ? done / seconds : 0;
        double eta = rate > 0 ? (total - done) / rate : Double.NaN;
        err.print(String.format(Locale.ROOT, "\r  %-10s %6.2f%%  %.3g / %.3g trials per world  %6.1f M trials/s  ETA %s",
                phase, 100.0 * done / total, (double) done, (double) total, rate / 1e6,
                Double.isNaN(eta) ? "?" : String.format(Locale.ROOT, "%.1f s", eta)));
        if (finished) {
            err.println();
        }
        err.flush();
    }
}

package io.dpaudit.reports.cli;

import io.dpaudit.core.engine.RunControl;
import java.io.PrintStream;
import java.util.Locale;
import java.util.function.LongSupplier;

/**
 * A line on standard error whenever a command has printed nothing for {@value #INTERVAL_SECONDS} seconds, saying what
 * it is on (the run control's status: the phase and step it last reported): no input makes a command compute for
 * minutes in silence. Short commands print nothing.
 */
final class StillWorking implements AutoCloseable {
    static final int INTERVAL_SECONDS = 10;
    private static final long INTERVAL_NANOS = INTERVAL_SECONDS * 1_000_000_000L;

    private final Thread thread;
    private volatile boolean done;

    /**
     * Starts the reminder on {@code err}; null for none ({@code --quiet}).
     *
     * @param lastOutput when the command's other output was last printed ({@link System#nanoTime}), or null
     */
    StillWorking(String command, PrintStream err, RunControl control, LongSupplier lastOutput) {
        long start = System.nanoTime();
        if (err == null) {
            thread = null;
            return;
        }
        thread = new Thread(() -> {
            long printed = start;
            while (true) {
                try {
                    Thread.sleep(500);
                } catch (InterruptedException e) {
                    return;
                }
                if (done) {
                    return;
                }
                long now = System.nanoTime();
                long last = Math.max(printed, lastOutput == null ? start : lastOutput.getAsLong());
                if (now - last >= INTERVAL_NANOS) {
                    err.println(String.format(Locale.ROOT, "dp-audit %s: still working on %s (%.0f s)", command,
                            control.status(), (now - start) / 1e9));
                    err.flush();
                    printed = now;
                }
            }
        }, "dp-audit-still-working");
        thread.setDaemon(true);
        thread.start();
    }

    @Override
    public void close() {
        done = true;
        if (thread != null) {
            thread.interrupt();
        }
    }
}

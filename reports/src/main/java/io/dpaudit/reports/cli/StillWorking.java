package io.dpaudit.reports.cli;

import java.io.PrintStream;
import java.util.Locale;

/**
 * A line on standard error every {@value #INTERVAL_SECONDS} seconds while a command that prints nothing else until
 * it is done ({@code bound}, {@code calibrate}) is still computing, saying what it is on: no input makes a command
 * compute for minutes in silence. Short commands print nothing.
 */
final class StillWorking implements AutoCloseable {
    static final int INTERVAL_SECONDS = 10;

    private final Thread thread;
    private volatile String status = "starting";
    private volatile boolean done;

    /** Starts the reminder on {@code err}; null for none ({@code --quiet}). */
    StillWorking(String command, PrintStream err) {
        long start = System.nanoTime();
        if (err == null) {
            thread = null;
            return;
        }
        thread = new Thread(() -> {
            while (true) {
                try {
                    Thread.sleep(INTERVAL_SECONDS * 1000L);
                } catch (InterruptedException e) {
                    return;
                }
                if (done) {
                    return;
                }
                err.println(String.format(Locale.ROOT, "dp-audit %s: still working on %s (%.0f s)", command, status,
                        (System.nanoTime() - start) / 1e9));
                err.flush();
            }
        }, "dp-audit-still-working");
        thread.setDaemon(true);
        thread.start();
    }

    /** What the command is doing now. */
    void status(String what) {
        status = what;
    }

    @Override
    public void close() {
        done = true;
        if (thread != null) {
            thread.interrupt();
        }
    }
}

package io.dpaudit.core.engine;

import io.dpaudit.core.Checks;
import io.dpaudit.core.InvalidInputException;
import io.dpaudit.core.numerics.Interruption;
import java.util.Locale;

/**
 * The control of one run: its time budget, what it is doing now, and the listener its progress goes to. One object per
 * command, created by the front end and passed in where the listener goes — there is no process-wide state.
 *
 * <p><b>Budget.</b> {@link #check} is called where the work can stop cleanly (between shards, pilot batches, bounds,
 * passes over score files) and throws {@link Stopped} — a one-line {@link InvalidInputException}, exit 2, nothing
 * written — once the budget is spent. Numerical loops that run where no control reaches (a privacy-loss distribution
 * being composed inside a bound, a calibration inside a bound family) check their thread's interrupt flag instead
 * ({@link Interruption#check}); {@link #watch} interrupts the calling thread when the budget runs out, and
 * {@link #stoppedAt} turns the resulting {@link Interruption.Interrupted} into the same message.
 *
 * <p><b>Status.</b> Every phase and progress report passes through here on its way to the display listener; the last
 * phase message is the run's {@link #status}, and {@link #quietNanos} says how long nothing has been reported, so that
 * a front end can print a "still working" line when a step is silent for long.
 */
public final class RunControl implements ProgressListener {
    private final ProgressListener display;
    private final String option;
    private final double seconds;
    private final long budgetNanos;
    private final long startNanos = System.nanoTime();
    /** A run the time model expects to take longer than this is refused (see {@link #expect}). */
    public static final double DURATION_CAP_SECONDS = 30 * 86_400.0;
    private volatile double durationCap = DURATION_CAP_SECONDS;
    private volatile String status = "starting";
    private volatile long lastReportNanos = startNanos;

    private RunControl(ProgressListener display, String option, double seconds) {
        this.display = display;
        this.option = option;
        this.seconds = seconds;
        this.budgetNanos = seconds >= 9e9 ? Long.MAX_VALUE : (long) (seconds * 1e9);
    }

    /** A run without a budget, its progress shown by {@code display}. */
    public static RunControl unlimited(ProgressListener display) {
        return new RunControl(display, null, Double.POSITIVE_INFINITY);
    }

    /**
     * A run that must finish within {@code seconds} from now.
     *
     * @param option the option that set the budget, named in the message (e.g. {@code --max-seconds})
     */
    public static RunControl withBudget(ProgressListener display, String option, double seconds) {
        Checks.positive(option, seconds);
        return new RunControl(display, option, seconds);
    }

    /** The control a listener carries: the listener itself when it is one, else an unlimited control around it. */
    public static RunControl of(ProgressListener listener) {
        return listener instanceof RunControl c ? c : unlimited(listener);
    }

    @Override
    public void onProgress(String phase, long doneTrials, long totalTrials, long elapsedNanos) {
        lastReportNanos = System.nanoTime();
        display.onProgress(phase, doneTrials, totalTrials, elapsedNanos);
    }

    @Override
    public void onPhase(String phase, String message) {
        status = phase + ": " + message;
        lastReportNanos = System.nanoTime();
        display.onPhase(phase, message);
    }

    /**
     * Throws {@link Stopped} when the budget is spent or the calling thread was interrupted; otherwise returns at the
     * cost of a clock read.
     *
     * @param where what the work is doing, for the message (e.g. "evaluation, shard 12 of 40")
     */
    @Override
    public void check(String where) {
        if (Thread.currentThread().isInterrupted() || (budgetNanos != Long.MAX_VALUE
                && System.nanoTime() - startNanos > budgetNanos)) {
            throw stoppedAt(where);
        }
    }

    /** The one-line refusal of a run stopped at {@code where}. */
    public Stopped stoppedAt(String where) {
        return new Stopped(option == null ? "run" : option, option == null ? "interrupted" : Checks.format(seconds),
                option == null ? "the work was interrupted (it was at: " + where + "); nothing was written"
                        : String.format(Locale.ROOT, "the work did not finish within %s s (it was at: %s); nothing "
                                + "was written", Checks.format(seconds), where));
    }

    /** This control without the duration cap of the time model ({@code --no-limit}). */
    public RunControl withoutDurationCap() {
        durationCap = Double.POSITIVE_INFINITY;
        return this;
    }

    /**
     * The time model's expectation, before the long work starts: shown as a phase message, and refused in one line
     * when it exceeds {@link #DURATION_CAP_SECONDS} (unless the cap was lifted); an explicit budget is enforced as
     * the work goes ({@link #check}).
     *
     * @param seconds the expected duration of what follows
     * @param field what sets the work's size (e.g. {@code trials}), for the message
     * @param value its value
     * @param basis how the expectation was obtained, for the message
     */
    public void expect(double seconds, String field, Object value, String basis) {
        String duration = describe(seconds);
        onPhase("plan", "expected to take about " + duration + " (" + basis + ")");
        if (seconds > durationCap) {
            throw new InvalidInputException(field, value, "would take about " + duration + " (" + basis + "), over "
                    + "the " + describe(durationCap) + " cap; --no-limit runs it anyway");
        }
    }

    private static String describe(double seconds) {
        if (seconds < 120) {
            return String.format(Locale.ROOT, "%.3g s", seconds);
        }
        if (seconds < 7200) {
            return String.format(Locale.ROOT, "%.3g minutes", seconds / 60);
        }
        if (seconds < 3 * 86_400) {
            return String.format(Locale.ROOT, "%.3g hours", seconds / 3600);
        }
        if (seconds < 730 * 86_400) {
            return String.format(Locale.ROOT, "%.3g days", seconds / 86_400);
        }
        return String.format(Locale.ROOT, "%.3g years", seconds / (365.25 * 86_400));
    }

    /** The last phase message: what the run is doing. */
    public String status() {
        return status;
    }

    /** Nanoseconds since the last progress or phase report (or since the start). */
    public long quietNanos() {
        return System.nanoTime() - lastReportNanos;
    }

    /** Seconds since the control was created. */
    public double elapsedSeconds() {
        return (System.nanoTime() - startNanos) / 1e9;
    }

    /**
     * Interrupts the calling thread when the budget runs out, until closed (which clears an interrupt it caused, so
     * that the thread can write its refusal). A no-op for an unlimited run.
     */
    public Watch watch() {
        return new Watch(this, Thread.currentThread());
    }

    /** The timer of {@link #watch}. */
    public static final class Watch implements AutoCloseable {
        private final Thread timer;

        private Watch(RunControl c, Thread target) {
            if (c.budgetNanos == Long.MAX_VALUE) {
                timer = null;
                return;
            }
            timer = new Thread(() -> {
                long left = c.budgetNanos - (System.nanoTime() - c.startNanos);
                try {
                    if (left > 0) {
                        Thread.sleep(left / 1_000_000L, (int) (left % 1_000_000L));
                    }
                } catch (InterruptedException closed) {
                    return;
                }
                target.interrupt();
            }, "dp-audit-budget");
            timer.setDaemon(true);
            timer.start();
        }

        @Override
        public void close() {
            if (timer != null) {
                timer.interrupt();
                try {
                    timer.join();
                } catch (InterruptedException e) {
                    // the budget ran out while closing: the flag is cleared below
                }
                Thread.interrupted();
            }
        }
    }

    /** A run stopped by its budget (or an interrupt): one line, exit 2, nothing written. */
    public static final class Stopped extends InvalidInputException {
        private static final long serialVersionUID = 1L;

        Stopped(String option, String value, String rule) {
            super(option, value, rule);
        }
    }
}

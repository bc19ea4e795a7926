package io.dpaudit.core;

import java.util.Locale;

/**
 * A time budget for the work of one command ({@code --max-seconds}): long loops — the engine's shards, the pilot,
 * calibration steps, accountant compositions, bound evaluations, passes over score files — call {@link #check} at
 * points where stopping is clean, and past the budget it throws a one-line {@link InvalidInputException} (exit 2)
 * that names the option, the budget and where the work stood. Nothing is written: reports are written only after all
 * work is done.
 *
 * <p>One budget per process (a command line runs one command); {@link #clear} removes it. Without a budget a check
 * costs a volatile read.
 */
public final class Deadline {
    private static volatile long startNanos;
    private static volatile long budgetNanos = Long.MAX_VALUE;
    private static volatile double budgetSeconds;
    private static volatile String option = "--max-seconds";

    private Deadline() {
    }

    /** Starts a budget of {@code seconds} from now, named {@code optionName} in messages. */
    public static void start(String optionName, double seconds) {
        option = optionName;
        budgetSeconds = seconds;
        startNanos = System.nanoTime();
        budgetNanos = seconds >= 9e9 ? Long.MAX_VALUE : (long) (seconds * 1e9);
    }

    /** Removes the budget. */
    public static void clear() {
        budgetNanos = Long.MAX_VALUE;
    }

    /**
     * Throws when the budget is spent.
     *
     * @param where what the work was doing, for the message (e.g. "evaluation, shard 12 of 40")
     */
    public static void check(String where) {
        long budget = budgetNanos;
        if (budget != Long.MAX_VALUE && System.nanoTime() - startNanos > budget) {
            throw new Exceeded(option, budgetSeconds, where);
        }
    }

    /** The budget ran out. */
    public static final class Exceeded extends InvalidInputException {
        private static final long serialVersionUID = 1L;

        Exceeded(String option, double seconds, String where) {
            super(option, Checks.format(seconds), String.format(Locale.ROOT, "the work did not finish within %s s "
                    + "(it was at: %s); nothing was written", Checks.format(seconds), where));
        }
    }
}

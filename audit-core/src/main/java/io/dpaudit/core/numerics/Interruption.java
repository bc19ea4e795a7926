package io.dpaudit.core.numerics;

/**
 * Cooperative cancellation of long numerical loops that no run control reaches (a privacy-loss distribution composed
 * inside a bound, a calibration inside a bound family): they call {@link #check} where stopping is clean, and it throws
 * when their thread has been interrupted — by a run's budget ({@code RunControl.watch}) or by whoever owns the thread.
 * The state is the thread's own interrupt flag; this class holds none.
 */
public final class Interruption {
    private Interruption() {
    }

    /**
     * Throws {@link Interrupted} when the current thread's interrupt flag is set (leaving it set).
     *
     * @param where what the loop was doing, for the message
     */
    public static void check(String where) {
        if (Thread.currentThread().isInterrupted()) {
            throw new Interrupted(where);
        }
    }

    /** A loop stopped because its thread was interrupted. */
    public static final class Interrupted extends RuntimeException {
        private static final long serialVersionUID = 1L;
        private final String where;

        /** @param where what was running, for the message ("interrupted while ..."). */
        public Interrupted(String where) {
            super("interrupted while " + where);
            this.where = where;
        }

        /** What the loop was doing. */
        public String where() {
            return where;
        }
    }
}

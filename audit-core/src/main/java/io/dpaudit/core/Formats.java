package io.dpaudit.core;

/** How numbers are written in messages: the one rule {@link Checks} and {@link InvalidInputException} share. */
public final class Formats {
    private Formats() {
    }

    /**
     * A number as messages write it: {@code nan}, {@code inf} and {@code -inf} for the non-finite, integers without a
     * fraction (below 10^15), everything else as Java's shortest round-trip representation.
     */
    public static String number(double value) {
        if (Double.isNaN(value)) {
            return "nan";
        }
        if (Double.isInfinite(value)) {
            return value > 0 ? "inf" : "-inf";
        }
        if (value == Math.rint(value) && Math.abs(value) < 1e15) {
            return Long.toString((long) value);
        }
        return Double.toString(value);
    }
}

package io.dpaudit.core;

import java.util.Locale;

/**
 * Validation of parameters, one rule per method. Every check is NaN-safe (NaN fails every rule), returns the
 * validated value and throws {@link InvalidInputException} with a one-line message naming the field, the value and
 * the rule. Messages are formatted with {@link Locale#ROOT}.
 */
public final class Checks {
    private Checks() {
    }

    /** Requires a finite value. */
    public static double finite(String field, double value) {
        if (!Double.isFinite(value)) {
            throw new InvalidInputException(field, value, "must be finite");
        }
        return value;
    }

    /** Requires {@code value > 0} and finite (noise scales, sensitivities, clipping norms). */
    public static double positive(String field, double value) {
        if (!(value > 0) || value == Double.POSITIVE_INFINITY) {
            throw new InvalidInputException(field, value, "must be > 0 and finite");
        }
        return value;
    }

    /** Requires {@code value >= 0} and finite (privacy parameter ε). */
    public static double nonNegative(String field, double value) {
        if (!(value >= 0) || value == Double.POSITIVE_INFINITY) {
            throw new InvalidInputException(field, value, "must be >= 0 and finite");
        }
        return value;
    }

    /** Requires a sampling probability {@code q in (0, 1]}. */
    public static double samplingProbability(String field, double value) {
        if (!(value > 0 && value <= 1)) {
            throw new InvalidInputException(field, value, "must be in (0, 1]");
        }
        return value;
    }

    /** Requires a failure probability {@code delta in (0, 1)}. */
    public static double delta(String field, double value) {
        if (!(value > 0 && value < 1)) {
            throw new InvalidInputException(field, value, "must be in (0, 1)");
        }
        return value;
    }

    /**
     * Requires δ in [0, 1): a claim or a reporting grid may ask about pure differential privacy (δ = 0), which a test
     * refutes when its true-positive rate provably exceeds e^ε times its false-positive rate.
     */
    public static double deltaOrZero(String field, double value) {
        if (!(value >= 0 && value < 1)) {
            throw new InvalidInputException(field, value, "must be in [0, 1)");
        }
        return value;
    }

    /**
     * The most trials per world (or scores per file) an audit may count, 10^13: beyond, its Clopper–Pearson limits are
     * not computed on their safe side ({@code ClopperPearson.MAX_TRIALS} is this).
     */
    public static final long MAX_TRIALS = 10_000_000_000_000L;

    /** Requires a number of trials (per world, or scores per file) from 1 to {@link #MAX_TRIALS} (10^13). */
    public static long trials(String field, long value) {
        atLeast(field, value, 1);
        if (value > MAX_TRIALS) {
            throw new InvalidInputException(field, value, "must be at most 10^13 per world: beyond, the "
                    + "Clopper-Pearson limits are not computed to the precision that keeps them on their safe side");
        }
        return value;
    }

    /** Requires a confidence level in (0, 1), e.g. 0.95. */
    public static double confidence(String field, double value) {
        if (!(value > 0 && value < 1)) {
            throw new InvalidInputException(field, value, "must be in (0, 1), e.g. 0.95");
        }
        return value;
    }

    /** Requires {@code value in (0, 1)} (open interval), e.g. a hold-out fraction. */
    public static double openUnitInterval(String field, double value) {
        if (!(value > 0 && value < 1)) {
            throw new InvalidInputException(field, value, "must be in (0, 1)");
        }
        return value;
    }

    /** Requires an integer {@code >= min}. */
    public static long atLeast(String field, long value, long min) {
        if (value < min) {
            throw new InvalidInputException(field, value, "must be >= " + min);
        }
        return value;
    }

    /** Requires an integer {@code >= min}. */
    public static int atLeast(String field, int value, int min) {
        if (value < min) {
            throw new InvalidInputException(field, value, "must be >= " + min);
        }
        return value;
    }

    /** Requires an integer in {@code [min, max]}. */
    public static int inRange(String field, int value, int min, int max) {
        if (value < min || value > max) {
            throw new InvalidInputException(field, value, "must be in [" + min + ", " + max + "]");
        }
        return value;
    }

    /**
     * Converts a double that must hold a whole number (as JSON and {@code key=value} arguments deliver it) to a long.
     */
    public static long wholeNumber(String field, double value) {
        if (!Double.isFinite(value) || value != Math.rint(value)) {
            throw new InvalidInputException(field, value, "must be a whole number");
        }
        if (Math.abs(value) > 0x1p53) { // beyond it a double no longer holds every whole number: the value given is lost
            throw new InvalidInputException(field, value, "must be a whole number of magnitude at most 2^53 = "
                    + "9007199254740992 (numbers read as doubles are exact only up to there)");
        }
        return (long) value;
    }

    /** Formats a double for messages: shortest round-trip form, {@code inf}/{@code -inf}/{@code nan} for non-finite. */
    public static String format(double value) {
        return Formats.number(value);
    }
}

package io.dpaudit.core.estimate.onerun;

import io.dpaudit.core.InvalidInputException;

/**
 * Which guesses a one-run audit makes (Steinke, Nasr &amp; Jagielski 2023, Theorem 3.1, guesses in {-1, 0, +1}).
 */
public enum GuessSides {
    /** "Included" for the {@code k} highest-scoring canaries, no guess for the others. */
    ONE_SIDED("one-sided"),
    /**
     * "Included" for the {@code ceil(k/2)} highest-scoring canaries and "excluded" for the {@code floor(k/2)} lowest, no
     * guess for the others.
     */
    TWO_SIDED("two-sided");

    private final String label;

    GuessSides(String label) {
        this.label = label;
    }

    /** The name used on the command line and in reports. */
    public String label() {
        return label;
    }

    /** The value named {@code label}. */
    public static GuessSides of(String field, String label) {
        for (GuessSides s : values()) {
            if (s.label.equals(label)) {
                return s;
            }
        }
        throw new InvalidInputException(field, label, "must be one-sided or two-sided");
    }
}

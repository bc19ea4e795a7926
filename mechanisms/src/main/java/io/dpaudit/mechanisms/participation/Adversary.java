package io.dpaudit.mechanisms.participation;

import io.dpaudit.core.InvalidInputException;
import java.util.Arrays;
import java.util.Locale;

/**
 * Named worst-case datasets for random participation: what the gradients of the canary client's other d records are,
 * relative to the canary's gradient {@code x'} (all clipped to norm C; other clients' gradients are orthogonal to
 * both directions used here, so they do not change the privacy).
 */
public enum Adversary {
    /** Other records' gradients equal {@code x'}'s direction: the configuration the paper's Eq. (27) assumes. */
    ALIGNED,
    /** Other records' gradients all point along one direction orthogonal to {@code x'}. */
    ORTHOGONAL,
    /** Other records' gradients are zero: random participation then equals central shuffling exactly. */
    ZERO;

    /** The scenario name. */
    public String label() {
        return name().toLowerCase(Locale.ROOT);
    }

    static Adversary parse(String field, String value) {
        return Arrays.stream(values()).filter(a -> a.label().equals(value)).findFirst().orElseThrow(() ->
                new InvalidInputException(field, value, "must be one of aligned, orthogonal, zero"));
    }
}

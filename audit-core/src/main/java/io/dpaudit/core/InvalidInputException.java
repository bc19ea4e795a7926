package io.dpaudit.core;

import java.util.Locale;

/**
 * Bad user input: a parameter outside its domain, a malformed value, an unknown name.
 *
 * <p>The message is a single line that names the field and the offending value, e.g.
 * {@code mechanism.sigma = -1: must be > 0}. Command-line front ends print it as is and exit with
 * code 2; no stack trace is shown to the user for this exception type.
 */
public class InvalidInputException extends IllegalArgumentException {
    private static final long serialVersionUID = 1L;

    private final String field;

    /**
     * @param field name of the offending field, as the user wrote it (scenario key or CLI option)
     * @param value the offending value, rendered for the message
     * @param rule what the value must satisfy, e.g. {@code "must be in (0, 1]"}
     */
    public InvalidInputException(String field, Object value, String rule) {
        super(String.format(Locale.ROOT, "%s = %s: %s", field, render(value), rule));
        this.field = field;
    }

    private InvalidInputException(String message, String field) {
        super(message);
        this.field = field;
    }

    /**
     * The same error located in {@code where} (e.g. one scenario file of several): the message is prefixed with it,
     * {@code "scenarios/a.json: mechanism.sigma = -1: must be > 0"}.
     */
    public static InvalidInputException in(String where, InvalidInputException e) {
        String w = render(where);
        return new InvalidInputException(w + ": " + e.getMessage(), e.field());
    }

    /** A message that names the field but has no single value (e.g. a missing field). */
    public static InvalidInputException missing(String field) {
        return new InvalidInputException(field, "(missing)", "is required");
    }

    /** The field the message is about. */
    public String field() {
        return field;
    }

    private static String render(Object value) {
        if (value instanceof Double d) {
            return Formats.number(d);
        }
        String s = String.valueOf(value);
        // Keep the message on one line whatever the user typed.
        return s.replace('\n', ' ').replace('\r', ' ');
    }
}

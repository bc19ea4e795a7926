package io.dpaudit.reports.cli;

import io.dpaudit.core.Checks;
import io.dpaudit.core.InvalidInputException;
import io.dpaudit.core.model.Parameters;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.regex.Pattern;

/**
 * Values of command-line options and {@code key=value} parameters, parsed with the messages of the rest of the tool
 * ({@code --trials = 2.5: must be a whole number}). Options are declared as strings to picocli and parsed here, so
 * that a bad value is reported like a bad scenario field: naming the option and the value.
 */
final class OptionValues {
    /** Plain decimal numbers only: Java's parser would also take "NaN", "Infinity" and hexadecimal floats. */
    private static final Pattern DECIMAL = Pattern.compile("[+-]?(\\d+\\.?\\d*|\\.\\d+)([eE][+-]?\\d+)?");
    /** Most worker threads a run accepts. */
    static final int MAX_THREADS = 1024;

    private OptionValues() {
    }

    /** A decimal number. */
    static double number(String option, String text) {
        if (text == null || !DECIMAL.matcher(text).matches()) {
            throw new InvalidInputException(option, text, "must be a number");
        }
        return Double.parseDouble(text);
    }

    /** A whole number, written as an integer or as a decimal with an integral value ({@code 1e7}). */
    static long wholeNumber(String option, String text) {
        try {
            return Long.parseLong(text);
        } catch (NumberFormatException e) {
            if (text != null && text.matches("[+-]?\\d+")) { // an integer, too long for a long
                throw new InvalidInputException(option, text, "must fit in a 64-bit integer");
            }
            return Checks.wholeNumber(option, number(option, text));
        }
    }

    /** {@code --threads}: the number of processors when absent, else a whole number in [1, 1024]. */
    static int threads(String text) {
        if (text == null) {
            return Runtime.getRuntime().availableProcessors();
        }
        long t = Checks.atLeast("--threads", wholeNumber("--threads", text), 1);
        if (t > MAX_THREADS) {
            throw new InvalidInputException("--threads", t, "must be <= " + MAX_THREADS);
        }
        return (int) t;
    }

    /**
     * Mechanism parameters from {@code key=value} words: a plain decimal value is a number, anything else a string.
     *
     * @throws UsageException for a word without '=' or a key given twice
     */
    static Parameters mechanismParameters(String type, List<String> words) {
        Map<String, Object> m = new LinkedHashMap<>();
        m.put("type", type);
        for (String w : words) {
            int eq = w.indexOf('=');
            if (eq <= 0) {
                throw new UsageException("expected key=value, got " + w);
            }
            String key = w.substring(0, eq);
            String value = w.substring(eq + 1);
            if (key.equals("type") || m.put(key, DECIMAL.matcher(value).matches() ? (Object) Double.parseDouble(value)
                    : value) != null) {
                throw new UsageException("parameter " + key + " given twice");
            }
        }
        return new Parameters("", m);
    }
}

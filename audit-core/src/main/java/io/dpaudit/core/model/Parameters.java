package io.dpaudit.core.model;

import io.dpaudit.core.Checks;
import io.dpaudit.core.InvalidInputException;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;

/**
 * Named parameters of a mechanism, as written in a scenario's {@code mechanism} object or as {@code key=value}
 * arguments: numbers or strings. Error messages name the field with a prefix such as {@code mechanism.}.
 */
public final class Parameters {
    private final String prefix;
    private final Map<String, Object> values;

    /**
     * @param prefix prefix of field names in messages, e.g. {@code "mechanism."}
     * @param values {@link Double} or {@link String} values, in the user's order
     */
    public Parameters(String prefix, Map<String, Object> values) {
        this.prefix = prefix;
        this.values = Collections.unmodifiableMap(new LinkedHashMap<>(values));
        for (Map.Entry<String, Object> e : values.entrySet()) {
            if (!(e.getValue() instanceof Double) && !(e.getValue() instanceof String)) {
                throw new InvalidInputException(prefix + e.getKey(), e.getValue(), "must be a number or a string");
            }
        }
    }

    /** The values, in the user's order. */
    public Map<String, Object> values() {
        return values;
    }

    /** Full field name for messages. */
    public String field(String name) {
        return prefix + name;
    }

    /** Rejects any parameter not in {@code allowed}, naming it. */
    public Parameters allowOnly(Set<String> allowed) {
        for (Map.Entry<String, Object> e : values.entrySet()) {
            String k = e.getKey();
            if (!allowed.contains(k)) {
                throw new InvalidInputException(field(k), e.getValue(),
                        "unknown parameter (known: " + String.join(", ", new TreeSet<>(allowed)) + ")");
            }
        }
        return this;
    }

    /** Whether a parameter is present. */
    public boolean has(String name) {
        return values.containsKey(name);
    }

    /** A required number. */
    public double number(String name) {
        Object v = values.get(name);
        if (v == null) {
            throw InvalidInputException.missing(field(name));
        }
        if (!(v instanceof Double d)) {
            throw new InvalidInputException(field(name), v, "must be a number");
        }
        return d;
    }

    /** An optional number. */
    public double number(String name, double defaultValue) {
        return has(name) ? number(name) : defaultValue;
    }

    /** A required whole number {@code >= min}. */
    public long wholeNumber(String name, long min) {
        long v = Checks.wholeNumber(field(name), number(name));
        return Checks.atLeast(field(name), v, min);
    }

    /** An optional whole number {@code >= min}. */
    public long wholeNumber(String name, long defaultValue, long min) {
        return has(name) ? wholeNumber(name, min) : defaultValue;
    }

    /** An optional string. */
    public String text(String name, String defaultValue) {
        Object v = values.get(name);
        if (v == null) {
            return defaultValue;
        }
        if (!(v instanceof String s)) {
            throw new InvalidInputException(field(name), v, "must be a string");
        }
        return s;
    }
}

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
 *
 * <p><b>One name for the number of releases.</b> The federated families call it {@code rounds}, the DP-SGD batch
 * samplers {@code steps}; every family takes either (a family reading {@code rounds} finds a given {@code steps}, and
 * the other way round), and messages name the key as the user wrote it. Giving both is refused.
 */
public final class Parameters {
    /** Names that stand for each other: the number of releases (no family takes both). */
    private static final Map<String, String> ALIASES = Map.of("rounds", "steps", "steps", "rounds");

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

    /** Full field name for messages (the key as given, when the parameter was given under its alias). */
    public String field(String name) {
        return prefix + key(name);
    }

    /** The key {@code name} was given under: itself, or its alias ({@code rounds} for {@code steps} and back). */
    private String key(String name) {
        if (values.containsKey(name)) {
            return name;
        }
        String alias = ALIASES.get(name);
        return alias != null && values.containsKey(alias) ? alias : name;
    }

    /** Rejects any parameter not in {@code allowed}, naming it. */
    public Parameters allowOnly(Set<String> allowed) {
        for (Map.Entry<String, Object> e : values.entrySet()) {
            String k = e.getKey();
            String alias = ALIASES.get(k);
            if (alias != null && values.containsKey(alias)) {
                Object other = values.get(alias);
                throw new InvalidInputException(field(k), e.getValue(), "names the same thing as " + alias + " ("
                        + (other instanceof Double d ? Checks.format(d) : other) + "): give one");
            }
            if (!allowed.contains(k) && !(alias != null && allowed.contains(alias))) {
                throw new InvalidInputException(field(k), e.getValue(),
                        "unknown parameter (known: " + String.join(", ", new TreeSet<>(allowed)) + ")");
            }
        }
        return this;
    }

    /** The same parameters without the keys in {@code names} (same prefix): a family's part another family parses. */
    public Parameters without(Set<String> names) {
        Map<String, Object> kept = new LinkedHashMap<>(values);
        kept.keySet().removeAll(names);
        return new Parameters(prefix, kept);
    }

    /** Whether a parameter is present. */
    public boolean has(String name) {
        return values.containsKey(key(name));
    }

    /** A required number. */
    public double number(String name) {
        Object v = values.get(key(name));
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
        Object v = values.get(key(name));
        if (v == null) {
            return defaultValue;
        }
        if (!(v instanceof String s)) {
            throw new InvalidInputException(field(name), v, "must be a string");
        }
        return s;
    }
}

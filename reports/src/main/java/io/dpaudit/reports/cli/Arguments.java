package io.dpaudit.reports.cli;

import io.dpaudit.core.Checks;
import io.dpaudit.core.InvalidInputException;
import io.dpaudit.core.model.Parameters;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * Command-line arguments of one command: positional words, {@code key=value} parameters and {@code --options}
 * (with a value, as {@code --opt v} or {@code --opt=v}, or as flags).
 */
final class Arguments {
    private final List<String> positional = new ArrayList<>();
    private final Map<String, Object> parameters = new LinkedHashMap<>();
    private final Map<String, String> options = new LinkedHashMap<>();

    /**
     * @param args the arguments after the command name
     * @param valued options that take a value
     * @param flags options without a value
     * @param acceptParameters whether {@code key=value} words are parameters (else they are positional)
     */
    Arguments(List<String> args, Set<String> valued, Set<String> flags, boolean acceptParameters) {
        for (int i = 0; i < args.size(); i++) {
            String a = args.get(i);
            if (a.startsWith("--")) {
                String name = a;
                String value = null;
                int eq = a.indexOf('=');
                if (eq > 0) {
                    name = a.substring(0, eq);
                    value = a.substring(eq + 1);
                }
                if (flags.contains(name) && value == null) {
                    options.put(name, "true");
                } else if (valued.contains(name)) {
                    if (value == null) {
                        if (i + 1 >= args.size()) {
                            throw new UsageException("option " + name + " needs a value");
                        }
                        value = args.get(++i);
                    }
                    if (options.put(name, value) != null) {
                        throw new UsageException("option " + name + " given twice");
                    }
                } else {
                    throw new UsageException("unknown option " + name);
                }
            } else if (acceptParameters && a.indexOf('=') > 0) {
                String key = a.substring(0, a.indexOf('='));
                String value = a.substring(a.indexOf('=') + 1);
                if (parameters.put(key, parseValue(value)) != null) {
                    throw new UsageException("parameter " + key + " given twice");
                }
            } else {
                positional.add(a);
            }
        }
    }

    private static Object parseValue(String v) {
        try {
            double d = Double.parseDouble(v);
            // Java accepts "NaN", "Infinity" and hex floats; only plain decimal numbers count as numbers here.
            if (v.matches("[+-]?(\\d+\\.?\\d*|\\.\\d+)([eE][+-]?\\d+)?")) {
                return d;
            }
        } catch (NumberFormatException ignored) {
            // a string parameter
        }
        return v;
    }

    List<String> positional() {
        return positional;
    }

    Parameters parameters(String type) {
        Map<String, Object> m = new LinkedHashMap<>();
        m.put("type", type);
        m.putAll(parameters);
        return new Parameters("", m);
    }

    boolean has(String option) {
        return options.containsKey(option);
    }

    String text(String option) {
        return options.get(option);
    }

    double number(String option) {
        String v = options.get(option);
        try {
            double d = Double.parseDouble(v);
            if (!v.matches("[+-]?(\\d+\\.?\\d*|\\.\\d+)([eE][+-]?\\d+)?")) {
                throw new NumberFormatException();
            }
            return d;
        } catch (NumberFormatException e) {
            throw new InvalidInputException(option, v, "must be a number");
        }
    }

    long wholeNumber(String option) {
        String v = options.get(option);
        try {
            return Long.parseLong(v);
        } catch (NumberFormatException e) {
            return Checks.wholeNumber(option, number(option));
        }
    }
}

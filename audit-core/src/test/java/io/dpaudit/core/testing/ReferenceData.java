package io.dpaudit.core.testing;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;

/** Loads reference values shipped as test resources under {@code /reference} (see its README for recipes). */
public final class ReferenceData {
    private static final ObjectMapper MAPPER = new ObjectMapper();

    private ReferenceData() {
    }

    /** Parses {@code /reference/<name>}. */
    public static JsonNode load(String name) {
        try (InputStream in = ReferenceData.class.getResourceAsStream("/reference/" + name)) {
            if (in == null) {
                throw new IllegalStateException("missing test resource /reference/" + name);
            }
            return MAPPER.readTree(in);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /** A number that may be encoded as "inf", "-inf" or "nan". */
    public static double number(JsonNode n) {
        if (n.isNumber()) {
            return n.doubleValue();
        }
        return switch (n.asText()) {
            case "inf" -> Double.POSITIVE_INFINITY;
            case "-inf" -> Double.NEGATIVE_INFINITY;
            case "nan" -> Double.NaN;
            default -> throw new IllegalArgumentException(n.toString());
        };
    }

    /** Asserts {@code |actual - expected| <= tol * |expected|}, with a message. */
    public static void assertRelative(double expected, double actual, double tol, String what) {
        double err = Math.abs(actual - expected);
        if (!(err <= tol * Math.abs(expected))) {
            throw new AssertionError(what + ": expected " + expected + " got " + actual + " (relative error "
                    + err / Math.abs(expected) + " > " + tol + ")");
        }
    }
}

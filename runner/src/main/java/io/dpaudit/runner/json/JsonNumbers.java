package io.dpaudit.runner.json;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.DoubleNode;
import com.fasterxml.jackson.databind.node.TextNode;

/**
 * The report's encoding of doubles: finite values as JSON numbers (shortest round-trip form), non-finite values as
 * the strings {@code "inf"}, {@code "-inf"} and {@code "nan"} (JSON has no literal for them). The same convention as
 * the reference values shipped with the project.
 */
public final class JsonNumbers {
    private JsonNumbers() {
    }

    /** Encodes a double. */
    public static JsonNode encode(double value) {
        if (Double.isNaN(value)) {
            return TextNode.valueOf("nan");
        }
        if (Double.isInfinite(value)) {
            return TextNode.valueOf(value > 0 ? "inf" : "-inf");
        }
        return DoubleNode.valueOf(value);
    }

    /** Decodes a node written by {@link #encode}. */
    public static double decode(JsonNode node) {
        if (node.isNumber()) {
            return node.doubleValue();
        }
        switch (node.asText()) {
            case "inf":
                return Double.POSITIVE_INFINITY;
            case "-inf":
                return Double.NEGATIVE_INFINITY;
            case "nan":
                return Double.NaN;
            default:
                throw new IllegalArgumentException("not an encoded number: " + node);
        }
    }
}

package io.dpaudit.reports.input;

import com.fasterxml.jackson.core.JsonParser;
import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.DeserializationFeature;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.json.JsonMapper;
import io.dpaudit.core.InvalidInputException;
import java.nio.file.Path;
import java.util.Set;
import io.dpaudit.runner.input.InputFiles;

/**
 * A {@code report.json} read back as untrusted input (by {@code compare}): one strict JSON object (no trailing content,
 * no duplicate keys), and every field that is read checked against what report.schema.json says of it, so that a
 * corrupted or hand-edited report is refused in one line rather than compared as if it were sound.
 */
public final class ReportInput {
    private static final ObjectMapper STRICT = JsonMapper.builder()
            .enable(JsonParser.Feature.STRICT_DUPLICATE_DETECTION)
            .enable(DeserializationFeature.FAIL_ON_TRAILING_TOKENS)
            .build();
    private static final Set<String> VERDICTS = Set.of("violated", "consistent", "inconclusive");
    private static final Set<String> NON_FINITE = Set.of("inf", "-inf", "nan");

    private ReportInput() {
    }

    /** The file as one strict JSON value. */
    public static JsonNode read(String field, Path path) {
        String text = InputFiles.readText(field, path, InputFiles.MAX_TEXT_BYTES);
        try {
            JsonNode n = STRICT.readTree(text);
            if (n == null || n.isMissingNode()) {
                throw new InvalidInputException(field, path, "is empty");
            }
            return n;
        } catch (JsonProcessingException e) {
            throw new InvalidInputException(field, path, "is not one well-formed JSON value ("
                    + e.getOriginalMessage().lines().findFirst().orElse("") + ")");
        }
    }

    /**
     * Checks what {@code compare} reads: a dp-audit report object (tool name, schema version 1 or 2), {@code claims} an
     * array of objects each with a string label, a known verdict and numeric fields that are numbers (or the strings
     * inf, -inf, nan), and the same for {@code tradeOff.claims} when present.
     */
    public static void checkReport(String file, JsonNode r) {
        if (!r.isObject() || !"dp-audit".equals(r.path("tool").path("name").asText(null))) {
            throw new InvalidInputException("report", file, "is not a dp-audit report.json (no tool.name "
                    + "\"dp-audit\")");
        }
        JsonNode version = r.get("schemaVersion");
        if (version == null || !version.isInt() || version.intValue() < 1 || version.intValue() > 2) {
            throw new InvalidInputException("report", file, "schemaVersion = " + version + ": this dp-audit reads "
                    + "versions 1 and 2");
        }
        if (r.has("kind") && "one-run".equals(r.get("kind").asText(null))) {
            throw new InvalidInputException("report", file, "is a one-run audit's report (kind one-run), which "
                    + "compare does not read: compare its epsilonLowerBounds directly");
        }
        claims(file, "claims", r.get("claims"), new String[] {"epsilon", "delta", "tightness",
            "empiricalDeltaLowerBound", "empiricalEpsilonLowerBound"});
        JsonNode t = r.get("tradeOff");
        if (t != null && !t.isNull()) {
            if (!t.isObject()) {
                throw new InvalidInputException(file + ": tradeOff", t.getNodeType(), "must be an object");
            }
            if (t.has("claims")) {
                claims(file, "tradeOff.claims", t.get("claims"), new String[] {"gdpMuLowerBound", "tightness"});
            }
        }
    }

    private static void claims(String file, String field, JsonNode claims, String[] numbers) {
        if (claims == null || !claims.isArray()) {
            throw new InvalidInputException(file + ": " + field, claims == null ? "absent" : claims.getNodeType()
                    .toString().toLowerCase(java.util.Locale.ROOT), "must be an array of claims");
        }
        for (int i = 0; i < claims.size(); i++) {
            JsonNode c = claims.get(i);
            String at = file + ": " + field + "[" + i + "]";
            if (!c.isObject()) {
                throw new InvalidInputException(at, c.getNodeType().toString().toLowerCase(java.util.Locale.ROOT),
                        "must be a claim object");
            }
            if (!c.path("label").isTextual()) {
                throw new InvalidInputException(at + ".label", c.get("label"), "must be a string");
            }
            if (!c.path("verdict").isTextual() || !VERDICTS.contains(c.get("verdict").asText())) {
                throw new InvalidInputException(at + ".verdict", c.get("verdict"), "must be one of " + VERDICTS);
            }
            for (String n : numbers) {
                JsonNode v = c.get(n);
                if (v != null && !v.isNull() && !v.isNumber() && !(v.isTextual() && NON_FINITE.contains(v.asText()))) {
                    throw new InvalidInputException(at + "." + n, v, "must be a number (or \"inf\", \"-inf\", "
                            + "\"nan\")");
                }
            }
        }
    }
}

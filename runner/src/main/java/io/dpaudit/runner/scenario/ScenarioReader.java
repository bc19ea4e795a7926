package io.dpaudit.runner.scenario;

import com.fasterxml.jackson.core.JsonParseException;
import com.fasterxml.jackson.core.JsonParser;
import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.json.JsonMapper;
import io.dpaudit.attacks.AttackCatalog;
import io.dpaudit.core.Checks;
import io.dpaudit.core.InvalidInputException;
import io.dpaudit.core.audit.AuditSettings;
import io.dpaudit.core.audit.Stopping;
import io.dpaudit.core.estimate.ThresholdSelection;
import io.dpaudit.core.estimate.tradeoff.TradeOffCertification;
import io.dpaudit.core.model.Parameters;
import io.dpaudit.runner.input.InputFiles;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;

/**
 * Reads and validates scenario files (format in the README, "Scenario format"). Every error is an
 * {@link InvalidInputException} whose one-line message names the field and the value.
 */
public final class ScenarioReader {
    private static final Set<String> TOP_LEVEL = Set.of("name", "description", "mechanism", "simulator", "attack",
            "trials", "seed", "confidence", "thresholdSelection", "histogramBins", "deltas", "epsilons", "claims",
            "tradeOff", "estimate", "pairSearch", "stopping");
    /** {@code simulator.coupling}: each world's trials drawn apart (the default). */
    public static final String INDEPENDENT = "independent";
    /**
     * {@code simulator.coupling}: both worlds of each trial on common random numbers, ε certified by the paired bound
     * (black-box mechanisms only; {@code io.dpaudit.core.engine.TrialKind#COUPLED}).
     */
    public static final String COMMON_RANDOM_NUMBERS = "common-random-numbers";
    private static final List<Double> DEFAULT_DELTAS = List.of(1e-5);
    private static final List<Double> DEFAULT_EPSILONS = List.of(0.0, 0.5, 1.0, 2.0);
    private static final long DEFAULT_TRIALS = 10_000_000L;
    /** Most entries of {@code deltas}, {@code epsilons} and {@code claims} (each is evaluated and reported). */
    public static final int MAX_LIST = 1000;

    private static final ObjectMapper MAPPER = JsonMapper.builder()
            .enable(JsonParser.Feature.STRICT_DUPLICATE_DETECTION)
            // A scenario is one JSON value: trailing garbage or a second object is an error, not dropped.
            .enable(com.fasterxml.jackson.databind.DeserializationFeature.FAIL_ON_TRAILING_TOKENS)
            .build();

    private ScenarioReader() {
    }

    /**
     * Reads a scenario file: a regular file of at most {@value io.dpaudit.runner.input.InputFiles#MAX_TEXT_BYTES}
     * bytes of UTF-8 ({@link InputFiles}), then {@link #parse}.
     */
    public static Scenario read(Path path) {
        String text = InputFiles.readText("scenario", path, InputFiles.MAX_TEXT_BYTES);
        Path fileName = path.getFileName();
        String file = fileName == null ? "scenario" : fileName.toString();
        return parse(text, file.endsWith(".json") ? file.substring(0, file.length() - 5) : file, path.toString());
    }

    /** Parses scenario text; {@code defaultName} is used when the scenario has no {@code name}. */
    public static Scenario parse(String text, String defaultName) {
        return parse(text, defaultName, "(file)");
    }

    /** Parses scenario text read from {@code source} (named in messages about the file as a whole). */
    private static Scenario parse(String text, String defaultName, String source) {
        if (text.startsWith("\uFEFF")) {
            text = text.substring(1); // a UTF-8 byte-order mark, as some editors write, is not content
        }
        JsonNode root;
        try {
            root = MAPPER.readTree(text);
        } catch (JsonParseException e) {
            throw new InvalidInputException("scenario", source, "malformed JSON at line "
                    + e.getLocation().getLineNr() + ", column " + e.getLocation().getColumnNr() + ": "
                    + e.getOriginalMessage().lines().findFirst().orElse(""));
        } catch (JsonProcessingException e) {
            throw new InvalidInputException("scenario", source,
                    "malformed JSON: " + e.getOriginalMessage().lines().findFirst().orElse(""));
        }
        if (root == null || !root.isObject()) {
            throw new InvalidInputException("scenario", source, (root == null || root.isMissingNode() ? "is empty"
                    : "holds a JSON " + root.getNodeType().toString().toLowerCase(java.util.Locale.ROOT))
                    + "; a scenario must be a JSON object");
        }
        for (Iterator<String> it = root.fieldNames(); it.hasNext(); ) {
            String k = it.next();
            if (!TOP_LEVEL.contains(k)) {
                throw new InvalidInputException(k, compact(root.get(k)),
                        "unknown field (known: " + String.join(", ", new TreeSet<>(TOP_LEVEL)) + ")");
            }
        }
        String name = root.has("name") ? text(root, "name") : defaultName;
        String description = root.has("description") ? text(root, "description") : "";
        if (!root.has("mechanism")) {
            throw InvalidInputException.missing("mechanism");
        }
        Parameters mechanism = parameters(root.get("mechanism"), "mechanism");
        Parameters simulator = simulator(root.get("simulator"));
        String attack = root.has("attack") ? text(root, "attack") : AttackCatalog.DEFAULT;
        if (AttackCatalog.entries().stream().noneMatch(e -> e.name().equals(attack))) {
            throw new InvalidInputException("attack", attack, "unknown attack (known: " + String.join(", ",
                    AttackCatalog.entries().stream().map(AttackCatalog.Entry::name).toList()) + ")");
        }
        long trials = root.has("trials") ? wholeNumber(root.get("trials"), "trials") : DEFAULT_TRIALS;
        Checks.trials("trials", trials);
        Stopping stopping = Stopping.FIXED;
        if (root.has("stopping")) {
            stopping = stopping(root.get("stopping"));
            JsonNode max = root.get("stopping").get("maxTrials");
            if (max != null) {
                long budget = wholeNumber(max, "stopping.maxTrials");
                Checks.trials("stopping.maxTrials", budget);
                if (root.has("trials") && budget != trials) {
                    throw new InvalidInputException("trials", trials, "conflicts with stopping.maxTrials = " + budget
                            + " (a sequential audit's budget; give one of them)");
                }
                trials = budget;
            }
            if (root.get("stopping").has("firstStageTrials") && stopping.firstStageTrials() > trials) {
                throw new InvalidInputException("stopping.firstStageTrials", stopping.firstStageTrials(),
                        "exceeds the budget of " + trials + " trials per world");
            }
        }
        long seed = root.has("seed") ? wholeNumber(root.get("seed"), "seed") : 0L;
        double confidence = root.has("confidence") ? number(root.get("confidence"), "confidence")
                : AuditSettings.DEFAULT_CONFIDENCE;
        Checks.confidence("confidence", confidence);
        ThresholdSelection selection = selection(root.get("thresholdSelection"));
        int bins = AuditSettings.DEFAULT_BINS;
        if (root.has("histogramBins")) {
            long b = wholeNumber(root.get("histogramBins"), "histogramBins");
            bins = (int) Math.max(Integer.MIN_VALUE, Math.min(Integer.MAX_VALUE, b));
            Checks.inRange("histogramBins", bins, 16, 1 << 20);
        }
        List<Double> deltas = root.has("deltas") ? numbers(root.get("deltas"), "deltas") : DEFAULT_DELTAS;
        for (int i = 0; i < deltas.size(); i++) {
            Checks.deltaOrZero("deltas[" + i + "]", deltas.get(i));
        }
        List<Double> epsilons = root.has("epsilons") ? numbers(root.get("epsilons"), "epsilons") : DEFAULT_EPSILONS;
        for (int i = 0; i < epsilons.size(); i++) {
            Checks.nonNegative("epsilons[" + i + "]", epsilons.get(i));
        }
        List<ClaimSpec> claims = root.has("claims") ? claims(root.get("claims")) : List.of();
        AuditSettings.TradeOffSettings tradeOff = tradeOff(root.get("tradeOff"));
        boolean estimate = false;
        String estimateMethod = "auto";
        long estimateSamples = 0;
        if (root.has("estimate")) {
            JsonNode e = root.get("estimate");
            if (e.isObject()) {
                estimate = true;
                var names = e.fieldNames();
                while (names.hasNext()) {
                    String k = names.next();
                    if (!k.equals("method") && !k.equals("samples")) {
                        throw new InvalidInputException("estimate." + k, compact(e.get(k)),
                                "unknown key (estimate takes method and samples)");
                    }
                }
                if (e.has("method")) {
                    JsonNode m = e.get("method");
                    if (!m.isTextual() || !Scenario.ESTIMATE_METHODS.contains(m.textValue())) {
                        throw new InvalidInputException("estimate.method", compact(m),
                                "must be one of " + String.join(", ", Scenario.ESTIMATE_METHODS));
                    }
                    estimateMethod = m.textValue();
                }
                if (e.has("samples")) {
                    JsonNode s = e.get("samples");
                    if (!s.isNumber() || !(s.doubleValue() >= 100 && s.doubleValue() <= 1e10)
                            || s.doubleValue() != Math.rint(s.doubleValue())) {
                        throw new InvalidInputException("estimate.samples", compact(s),
                                "must be a whole number in [100, 1e10]");
                    }
                    estimateSamples = (long) s.doubleValue();
                }
            } else if (e.isBoolean()) {
                estimate = e.booleanValue();
            } else {
                throw new InvalidInputException("estimate", compact(e),
                        "must be true, false or {\"method\": \"auto\" | \"plain\" | \"importance\", \"samples\": N}");
            }
        }
        return new Scenario(root, name, description, mechanism, simulator, attack, new AuditSpec(trials, seed,
                confidence, selection, bins, deltas, epsilons, tradeOff, new AuditSpec.EstimateSpec(estimate,
                estimateMethod, estimateSamples), stopping), claims);
    }

    /**
     * {@code "stopping": {"rule": "fixed" | "sequential", "maxTrials": N, "firstStageTrials": n}}: the rule, and for a
     * sequential one its first stage (the budget, {@code maxTrials}, is read by the caller as the scenario's trials).
     */
    private static Stopping stopping(JsonNode node) {
        if (!node.isObject()) {
            throw new InvalidInputException("stopping", compact(node), "must be an object {\"rule\": \"fixed\" | "
                    + "\"sequential\", \"maxTrials\": N, \"firstStageTrials\": n}");
        }
        for (Iterator<String> it = node.fieldNames(); it.hasNext(); ) {
            String k = it.next();
            if (!Set.of("rule", "maxTrials", "firstStageTrials").contains(k)) {
                throw new InvalidInputException("stopping." + k, compact(node.get(k)),
                        "unknown key (stopping takes rule, maxTrials and firstStageTrials)");
            }
        }
        JsonNode rule = node.get("rule");
        if (rule == null) {
            throw InvalidInputException.missing("stopping.rule");
        }
        if (!rule.isTextual() || !Set.of("fixed", "sequential").contains(rule.textValue())) {
            throw new InvalidInputException("stopping.rule", compact(rule), "must be \"fixed\" or \"sequential\"");
        }
        if (rule.textValue().equals("fixed")) {
            for (String k : List.of("maxTrials", "firstStageTrials")) {
                if (node.has(k)) {
                    throw new InvalidInputException("stopping." + k, compact(node.get(k)),
                            "applies to the sequential rule (a fixed design runs its trials)");
                }
            }
            return Stopping.FIXED;
        }
        long first = node.has("firstStageTrials") ? wholeNumber(node.get("firstStageTrials"),
                "stopping.firstStageTrials") : Stopping.DEFAULT_FIRST_STAGE;
        return Stopping.sequentialFrom(first);
    }

    private static Parameters parameters(JsonNode node, String field) {
        if (!node.isObject()) {
            throw new InvalidInputException(field, compact(node), "must be a JSON object");
        }
        Map<String, Object> values = new LinkedHashMap<>();
        for (Iterator<Map.Entry<String, JsonNode>> it = node.fields(); it.hasNext(); ) {
            Map.Entry<String, JsonNode> e = it.next();
            JsonNode v = e.getValue();
            if (v.isNumber()) {
                values.put(e.getKey(), v.doubleValue());
            } else if (v.isTextual()) {
                values.put(e.getKey(), v.textValue());
            } else {
                throw new InvalidInputException(field + "." + e.getKey(), compact(v), "must be a number or a string");
            }
        }
        return new Parameters(field + ".", values);
    }

    private static Parameters simulator(JsonNode node) {
        if (node == null) {
            return new Parameters("simulator.", Map.of("kind", "reduced"));
        }
        Parameters p;
        if (node.isTextual()) {
            p = new Parameters("simulator.", Map.of("kind", node.textValue()));
        } else {
            p = parameters(node, "simulator");
        }
        String kind = p.text("kind", "reduced");
        if (!kind.equals("reduced") && !kind.equals("faithful")) {
            throw new InvalidInputException("simulator.kind", kind, "must be \"reduced\" or \"faithful\"");
        }
        if (kind.equals("reduced")) {
            p.allowOnly(Set.of("kind", "coupling"));
        } else if (p.has("coupling")) {
            throw new InvalidInputException("simulator.coupling", p.text("coupling", ""), "applies to black-box "
                    + "mechanisms, whose simulator is reduced; a faithful simulator runs its worlds apart");
        }
        String coupling = p.text("coupling", INDEPENDENT);
        if (!coupling.equals(INDEPENDENT) && !coupling.equals(COMMON_RANDOM_NUMBERS)) {
            throw new InvalidInputException("simulator.coupling", coupling, "must be \"" + INDEPENDENT + "\" or \""
                    + COMMON_RANDOM_NUMBERS + "\"");
        }
        return p;
    }

    private static ThresholdSelection selection(JsonNode node) {
        if (node == null) {
            return new ThresholdSelection.HeldOut(ThresholdSelection.HeldOut.DEFAULT_FRACTION);
        }
        Parameters p = parameters(node, "thresholdSelection");
        String method = p.text("method", "held-out");
        switch (method) {
            case "held-out" -> {
                p.allowOnly(Set.of("method", "holdoutFraction"));
                return new ThresholdSelection.HeldOut(
                        p.number("holdoutFraction", ThresholdSelection.HeldOut.DEFAULT_FRACTION));
            }
            case "bonferroni" -> {
                p.allowOnly(Set.of("method", "grid"));
                long grid = p.wholeNumber("grid", ThresholdSelection.Bonferroni.DEFAULT_GRID, 1);
                if (grid > 4096) {
                    throw new InvalidInputException("thresholdSelection.grid", grid, "must be <= 4096");
                }
                return new ThresholdSelection.Bonferroni((int) grid);
            }
            default -> throw new InvalidInputException("thresholdSelection.method", method,
                    "must be \"held-out\" or \"bonferroni\"");
        }
    }

    private static AuditSettings.TradeOffSettings tradeOff(JsonNode node) {
        if (node == null) {
            return AuditSettings.TradeOffSettings.DEFAULT;
        }
        Parameters p = parameters(node, "tradeOff");
        p.allowOnly(Set.of("method", "grid"));
        String m = p.text("method", TradeOffCertification.Method.BONFERRONI.label());
        TradeOffCertification.Method method = TradeOffCertification.Method.of(m);
        if (method == null) {
            throw new InvalidInputException("tradeOff.method", m, "must be \"bonferroni\" or \"dkw\"");
        }
        long grid = p.wholeNumber("grid", TradeOffCertification.DEFAULT_GRID, 1);
        if (grid > 4096) {
            throw new InvalidInputException("tradeOff.grid", grid, "must be <= 4096");
        }
        return new AuditSettings.TradeOffSettings(method, (int) grid);
    }

    private static List<ClaimSpec> claims(JsonNode node) {
        if (!node.isArray()) {
            throw new InvalidInputException("claims", compact(node), "must be an array");
        }
        if (node.size() > MAX_LIST) {
            throw new InvalidInputException("claims", "(array of " + node.size() + " claims)", "at most " + MAX_LIST
                    + " entries");
        }
        List<ClaimSpec> out = new ArrayList<>();
        for (int i = 0; i < node.size(); i++) {
            String f = "claims[" + i + "]";
            JsonNode c = node.get(i);
            if (!c.isObject()) {
                throw new InvalidInputException(f, compact(c), "must be an object");
            }
            for (Iterator<String> it = c.fieldNames(); it.hasNext(); ) {
                String k = it.next();
                if (!Set.of("label", "bound", "epsilon", "delta", "gdpMu", "kind", "assuming").contains(k)) {
                    throw new InvalidInputException(f + "." + k, compact(c.get(k)),
                            "unknown field (known: assuming, bound, delta, epsilon, gdpMu, kind, label)");
                }
            }
            String label = c.has("label") ? text(c, "label", f + ".label") : null;
            Parameters assuming = null;
            if (c.has("assuming")) {
                if (!c.has("bound")) {
                    throw new InvalidInputException(f + ".assuming", compact(c.get("assuming")), "applies to a bound "
                            + "claim: it names the parameters the bound is evaluated with");
                }
                assuming = parameters(c.get("assuming"), f + ".assuming");
                if (assuming.values().isEmpty() || assuming.has("type")) {
                    throw new InvalidInputException(f + ".assuming", compact(c.get("assuming")), "must override at "
                            + "least one mechanism parameter, and not the type");
                }
            }
            String kind = c.has("kind") ? text(c, "kind", f + ".kind") : "privacy-profile";
            if (!kind.equals("privacy-profile") && !kind.equals("trade-off")) {
                throw new InvalidInputException(f + ".kind", kind, "must be \"privacy-profile\" or \"trade-off\"");
            }
            if (c.has("gdpMu") || kind.equals("trade-off")) {
                for (String k : List.of("epsilon", "delta")) {
                    if (c.has(k)) {
                        throw new InvalidInputException(f + "." + k, compact(c.get(k)), "an f-DP claim (gdpMu, or "
                                + "kind \"trade-off\") claims a whole trade-off curve, not one " + k);
                    }
                }
                if (c.has("gdpMu") == c.has("bound")) {
                    throw new InvalidInputException(f, compact(c), "an f-DP claim needs exactly one of gdpMu, bound");
                }
                double mu = c.has("gdpMu") ? number(c.get("gdpMu"), f + ".gdpMu") : Double.NaN;
                if (c.has("gdpMu")) {
                    Checks.positive(f + ".gdpMu", mu);
                    if (!Double.isFinite(mu)) {
                        throw new InvalidInputException(f + ".gdpMu", mu, "must be finite");
                    }
                }
                String b = c.has("bound") ? text(c, "bound", f + ".bound") : null;
                out.add(new ClaimSpec(label, b, Double.NaN, Double.NaN, f, true, mu, assuming));
                continue;
            }
            String bound = c.has("bound") ? text(c, "bound", f + ".bound") : null;
            double eps = c.has("epsilon") ? number(c.get("epsilon"), f + ".epsilon") : Double.NaN;
            double del = c.has("delta") ? number(c.get("delta"), f + ".delta") : Double.NaN;
            if (c.has("epsilon")) {
                Checks.nonNegative(f + ".epsilon", eps);
            }
            if (c.has("delta")) {
                Checks.deltaOrZero(f + ".delta", del);
            }
            if (bound == null && (Double.isNaN(eps) || Double.isNaN(del))) {
                throw new InvalidInputException(f, compact(c), "needs both epsilon and delta, or a bound with one");
            }
            if (bound != null && Double.isNaN(eps) == Double.isNaN(del)) {
                throw new InvalidInputException(f, compact(c), "a bound claim needs exactly one of epsilon, delta");
            }
            out.add(new ClaimSpec(label, bound, eps, del, f, false, Double.NaN, assuming));
        }
        return out;
    }

    private static String text(JsonNode parent, String field) {
        return text(parent, field, field);
    }

    private static String text(JsonNode parent, String key, String field) {
        JsonNode v = parent.get(key);
        if (!v.isTextual()) {
            throw new InvalidInputException(field, compact(v), "must be a string");
        }
        return v.textValue();
    }

    private static double number(JsonNode v, String field) {
        if (!v.isNumber()) {
            throw new InvalidInputException(field, compact(v), "must be a number");
        }
        return v.doubleValue();
    }

    private static long wholeNumber(JsonNode v, String field) {
        if (v.isIntegralNumber()) {
            if (!v.canConvertToLong()) {
                throw new InvalidInputException(field, compact(v), "must fit in a 64-bit integer");
            }
            return v.longValue();
        }
        return Checks.wholeNumber(field, number(v, field));
    }

    private static List<Double> numbers(JsonNode v, String field) {
        if (!v.isArray()) {
            throw new InvalidInputException(field, compact(v), "must be an array of numbers");
        }
        if (v.size() > MAX_LIST) {
            throw new InvalidInputException(field, "(array of " + v.size() + " numbers)", "at most " + MAX_LIST
                    + " entries");
        }
        List<Double> out = new ArrayList<>();
        for (int i = 0; i < v.size(); i++) {
            out.add(number(v.get(i), field + "[" + i + "]"));
        }
        return out;
    }

    private static String compact(JsonNode n) {
        String s = n == null ? "null" : n.toString();
        return s.length() > 60 ? s.substring(0, 57) + "..." : s;
    }
}

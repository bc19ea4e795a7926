package io.dpaudit.reports.cli;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.SerializationFeature;
import com.fasterxml.jackson.databind.json.JsonMapper;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.dpaudit.core.Checks;
import io.dpaudit.core.InvalidInputException;
import io.dpaudit.core.accounting.AccountingLimitException;
import io.dpaudit.core.bounds.BoundFamily;
import io.dpaudit.core.bounds.PrivacyBound;
import io.dpaudit.core.model.AuditableMechanism;
import io.dpaudit.core.model.MechanismType;
import io.dpaudit.core.model.Parameters;
import io.dpaudit.mechanisms.MechanismCatalog;
import io.dpaudit.reports.report.Format;
import io.dpaudit.reports.report.JsonNumbers;
import java.io.PrintStream;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;

/** {@code dp-audit bound} and {@code dp-audit calibrate}. */
final class BoundCommand {
    private static final ObjectMapper MAPPER = JsonMapper.builder().enable(SerializationFeature.INDENT_OUTPUT)
            .build();

    private BoundCommand() {
    }

    static int bound(List<String> args, PrintStream out) {
        Arguments a = new Arguments(args, Set.of("--delta", "--epsilon"), Set.of("--json"), true);
        AuditableMechanism m = mechanism(a, "bound", false);
        if (a.has("--delta") == a.has("--epsilon")) {
            throw new UsageException("bound needs exactly one of --delta D and --epsilon E");
        }
        ObjectNode root = MAPPER.createObjectNode();
        ArrayNode list = root.putArray("bounds");
        StringBuilder text = new StringBuilder();
        double delta = a.has("--delta") ? Checks.delta("--delta", a.number("--delta")) : Double.NaN;
        double epsilon = a.has("--epsilon") ? Checks.nonNegative("--epsilon", a.number("--epsilon")) : Double.NaN;
        List<PrivacyBound> bounds = m.bounds();
        for (PrivacyBound b : bounds) {
            ObjectNode o = list.addObject();
            o.put("name", b.name());
            o.put("source", b.source());
            o.put("certified", b.certified());
            o.put("kind", b.kind().name().toLowerCase(Locale.ROOT).replace('_', '-'));
            String note = b.certified() ? "" : "  (" + b.kind().description() + ")";
            try {
                double e = Double.isNaN(epsilon) ? b.epsilon(delta) : epsilon;
                double d = Double.isNaN(delta) ? b.delta(epsilon) : delta;
                o.set("epsilon", JsonNumbers.encode(e));
                o.set("delta", JsonNumbers.encode(d));
                text.append(String.format(Locale.ROOT, "%-48s epsilon = %-12s delta = %-12s%s%n    source: %s%n",
                        b.name(), Format.g(e), Format.g(d), note, b.source()));
            } catch (AccountingLimitException ex) {
                o.set("epsilon", JsonNumbers.encode(Double.POSITIVE_INFINITY));
                o.set("delta", JsonNumbers.encode(delta));
                o.put("note", ex.getMessage());
                text.append(String.format(Locale.ROOT, "%-48s no finite epsilon: %s%n", b.name(), ex.getMessage()));
            }
        }
        if (bounds.isEmpty()) {
            text.append("No analytic bound applies to ").append(m.type()).append(" with these parameters.\n");
        }
        ArrayNode notes = root.putArray("notes");
        for (String n : m.notes()) {
            notes.add(n);
            text.append("note: ").append(n).append('\n');
        }
        print(out, a, root, text);
        return Main.OK;
    }

    static int calibrate(List<String> args, PrintStream out) {
        Arguments a = new Arguments(args, Set.of("--delta", "--epsilon"), Set.of("--json"), true);
        AuditableMechanism m = mechanism(a, "calibrate", true);
        if (!a.has("--delta") || !a.has("--epsilon")) {
            throw new UsageException("calibrate needs both --epsilon E and --delta D");
        }
        double delta = Checks.delta("--delta", a.number("--delta"));
        double epsilon = Checks.nonNegative("--epsilon", a.number("--epsilon"));
        ObjectNode root = MAPPER.createObjectNode();
        ArrayNode list = root.putArray("calibrations");
        StringBuilder text = new StringBuilder();
        List<BoundFamily> families = m.boundFamilies();
        for (BoundFamily f : families) {
            ObjectNode o = list.addObject();
            String parameter = f.parameter().name();
            o.put("name", f.name());
            o.put("source", f.source());
            o.put("parameter", parameter);
            try {
                double value = f.calibrate(epsilon, delta);
                PrivacyBound at = f.at().apply(value);
                o.put("certified", at.certified());
                o.put("kind", at.kind().name().toLowerCase(Locale.ROOT).replace('_', '-'));
                o.set("value", JsonNumbers.encode(value));
                o.set(parameter, JsonNumbers.encode(value));
                text.append(String.format(Locale.ROOT, "%-48s %s = %s%s%n    source: %s%n", f.name(), parameter,
                        Double.toString(value), at.certified() ? "" : "  (" + at.kind().description() + ")",
                        f.source()));
            } catch (InvalidInputException e) {
                o.putNull("value");
                o.putNull(parameter);
                o.put("note", e.getMessage());
                text.append(String.format(Locale.ROOT, "%-48s no calibration: %s%n", f.name(), e.getMessage()));
            }
        }
        if (families.isEmpty()) {
            text.append("No analytic bound applies to ").append(m.type()).append(" with these parameters.\n");
        }
        print(out, a, root, text);
        return Main.OK;
    }

    private static AuditableMechanism mechanism(Arguments a, String command, boolean calibrating) {
        if (a.positional().size() != 1) {
            throw new UsageException(command + " needs exactly one mechanism TYPE followed by key=value parameters");
        }
        Parameters p = a.parameters(a.positional().get(0));
        MechanismType type = MechanismCatalog.find(p.text("type", ""));
        if (calibrating && type != null) {
            // Calibration replaces the calibrated parameter; any valid value lets the others parse.
            Map<String, Object> values = new LinkedHashMap<>(p.values());
            type.calibrationPlaceholders().apply(p.values()).forEach(values::putIfAbsent);
            p = new Parameters("", values);
        }
        return MechanismCatalog.parse(p);
    }

    private static void print(PrintStream out, Arguments a, ObjectNode root, StringBuilder text) {
        if (a.has("--json")) {
            try {
                out.println(MAPPER.writeValueAsString(root));
            } catch (com.fasterxml.jackson.core.JsonProcessingException e) {
                throw new IllegalStateException(e);
            }
        } else {
            out.print(text);
        }
    }
}

package io.dpaudit.reports.cli;

import com.fasterxml.jackson.databind.JsonNode;
import io.dpaudit.reports.input.ReportInput;
import io.dpaudit.runner.text.Format;
import io.dpaudit.runner.json.JsonNumbers;
import java.io.PrintStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;

/**
 * {@code dp-audit compare A B}: claim-by-claim changes between two {@code report.json} files (or report folders).
 * Claims are matched by label (the n-th claim of a label in A with the n-th in B), (ε, δ) claims and f-DP claims
 * separately. Exit 3 when a claim not violated in A is violated in B (or new in B and violated), else 0. Both files are
 * untrusted input ({@link ReportInput}): anything that is not a well-formed report is refused in one line.
 */
@Command(name = "compare", synopsisHeading = "usage: ", customSynopsis = "dp-audit compare A B (report.json files or "
        + "report folders)",
        descriptionHeading = "%n", description = {"Claim-by-claim changes between two report.json files.", "", "Claim-by-claim changes from A to B: verdicts, tightness, the empirical epsilon lower bound, "
            + "the estimate's verdict; f-DP claims separately. Claims are matched by label. Lines start with '=' "
            + "(verdict unchanged), '*' (changed), '!' (newly violated), '+' (only in B), '-' (only in A). A report "
            + "folder stands for its report.json. A warning says when the two reports audit different experiments "
            + "(mechanism, parameters, simulator, attack, scenario name or tool version differ).",
            "Exit: 3 when a claim is newly violated in B, 0 otherwise, 2 bad input.", ""})
final class CompareCommand implements Callable<Integer> {
    private final Main.Streams io;
    @Parameters(index = "0", paramLabel = "A", description = "the earlier report.json, or its folder")
    String first;
    @Parameters(index = "1", paramLabel = "B", description = "the later report.json, or its folder")
    String second;
    @Option(names = {"-h", "--help"}, usageHelp = true, description = "show this help")
    boolean help;

    CompareCommand(Main.Streams io) {
        this.io = io;
    }

    @Override
    public Integer call() {
        PrintStream out = io.out();
        String firstFile = reportFile(first);
        String secondFile = reportFile(second);
        JsonNode before = read(firstFile);
        JsonNode after = read(secondFile);
        out.printf(Locale.ROOT, "A: %s%nB: %s%n", describe(firstFile, before), describe(secondFile, after));
        for (String w : differences(before, after)) {
            io.err().println("warning: " + w);
            out.println("warning: " + w);
        }
        int regressions = 0;
        regressions += claims(out, "(epsilon, delta) claims", before.path("claims"), after.path("claims"), false);
        regressions += claims(out, "f-DP claims", before.path("tradeOff").path("claims"),
                after.path("tradeOff").path("claims"), true);
        out.printf(Locale.ROOT, "%d claim(s) newly violated in B%n", regressions);
        return regressions > 0 ? Main.VIOLATED : Main.OK;
    }

    /** A report folder stands for its report.json. */
    static String reportFile(String arg) {
        Path p = Path.of(arg);
        return Files.isDirectory(p) ? p.resolve("report.json").toString() : arg;
    }

    /**
     * What differs between the two audits besides seeds and trial counts (they are then not the same experiment):
     * the mechanism and its parameters, the simulator, the attack, the claims' labels, the tool version.
     */
    static List<String> differences(JsonNode a, JsonNode b) {
        List<String> out = new ArrayList<>();
        for (String[] f : new String[][] {{"mechanism", "type"}, {"mechanism", "parameters"},
            {"mechanism", "simulator"}, {"attack"}, {"scenarioName"}, {"tool", "version"}}) {
            JsonNode x = a;
            JsonNode y = b;
            for (String k : f) {
                x = x.path(k);
                y = y.path(k);
            }
            if (!x.equals(y)) {
                out.add(String.format(Locale.ROOT, "the two reports differ in %s (%s against %s): they audit "
                        + "different experiments, not the same one twice", String.join(".", f), compact(x),
                        compact(y)));
            }
        }
        return out;
    }

    private static String compact(JsonNode n) {
        String s = n.isMissingNode() ? "absent" : n.isTextual() ? n.asText() : n.toString();
        return s.length() > 120 ? s.substring(0, 119) + "…" : s;
    }

    private static JsonNode read(String file) {
        JsonNode n = ReportInput.read("report", Path.of(file));
        ReportInput.checkReport(file, n);
        return n;
    }

    private static String describe(String file, JsonNode r) {
        return String.format(Locale.ROOT, "%s (scenario %s, %s %s, %s trials per world, seed %s)", file,
                r.path("scenarioName").asText(r.path("scenario").path("name").asText("?")),
                r.path("tool").path("name").asText("?"),
                r.path("tool").path("version").asText("?"), r.path("trialsPerWorld").asText("?"),
                r.path("seed").asText("?"));
    }

    /** Prints one section; returns how many claims became violated. */
    private static int claims(PrintStream out, String title, JsonNode before, JsonNode after, boolean tradeOff) {
        Map<String, JsonNode> a = keyed(before);
        Map<String, JsonNode> b = keyed(after);
        if (a.isEmpty() && b.isEmpty()) {
            return 0;
        }
        out.println(title + ":");
        int regressions = 0;
        List<String> keys = new ArrayList<>(a.keySet());
        for (String k : b.keySet()) {
            if (!a.containsKey(k)) {
                keys.add(k);
            }
        }
        for (String k : keys) {
            JsonNode x = a.get(k);
            JsonNode y = b.get(k);
            String label = (x != null ? x : y).path("label").asText();
            if (x == null) {
                out.printf(Locale.ROOT, "  + %s: only in B, %s%n", label, summary(y, tradeOff));
                regressions += "violated".equals(y.path("verdict").asText()) ? 1 : 0;
                continue;
            }
            if (y == null) {
                out.printf(Locale.ROOT, "  - %s: only in A, %s%n", label, summary(x, tradeOff));
                continue;
            }
            String va = x.path("verdict").asText();
            String vb = y.path("verdict").asText();
            boolean regression = !"violated".equals(va) && "violated".equals(vb);
            regressions += regression ? 1 : 0;
            String mark = va.equals(vb) ? "=" : regression ? "!" : "*";
            StringBuilder line = new StringBuilder(String.format(Locale.ROOT, "  %s %s: verdict %s", mark, label,
                    va.equals(vb) ? va : va + " -> " + vb.toUpperCase(Locale.ROOT)));
            change(line, "tightness", x, y, "tightness");
            if (tradeOff) {
                change(line, "mu_lb", x, y, "gdpMuLowerBound");
                changeIn(line, "detectable mu", x, y, "mu");
            } else {
                changeIn(line, "detectable delta", x, y, "delta");
                change(line, "epsilon", x, y, "epsilon");
                change(line, "delta", x, y, "delta");
                change(line, "epsilon_lb", x, y, "empiricalEpsilonLowerBound");
                boolean ca = x.path("epsilonBoundAboveClaim").asBoolean(false);
                boolean cb = y.path("epsilonBoundAboveClaim").asBoolean(false);
                if (ca || cb) { // absent in reports written before contested claims: read as not contested
                    line.append(ca == cb ? ", contested" : cb ? ", now contested" : ", no longer contested");
                }
                String ea = x.path("estimateVerdict").asText("");
                String eb = y.path("estimateVerdict").asText("");
                if (!ea.isEmpty() || !eb.isEmpty()) {
                    line.append(", estimate ").append(ea.equals(eb) ? ea : (ea.isEmpty() ? "-" : ea) + " -> "
                            + (eb.isEmpty() ? "-" : eb));
                }
            }
            out.println(line);
        }
        return regressions;
    }

    /** A field of the claims' {@code power} objects (absent in reports of schema version 1). */
    private static void changeIn(StringBuilder line, String name, JsonNode x, JsonNode y, String field) {
        if (x.path("power").has(field) || y.path("power").has(field)) {
            change(line, name, x.path("power"), y.path("power"), field);
        }
    }

    private static void change(StringBuilder line, String name, JsonNode x, JsonNode y, String field) {
        if (!x.has(field) && !y.has(field)) {
            return;
        }
        double a = x.has(field) ? JsonNumbers.decode(x.get(field)) : Double.NaN;
        double b = y.has(field) ? JsonNumbers.decode(y.get(field)) : Double.NaN;
        line.append(", ").append(name).append(' ');
        if (Double.compare(a, b) == 0) {
            line.append(Format.g(a));
        } else {
            line.append(Format.g(a)).append(" -> ").append(Format.g(b));
        }
    }

    /** A claim found in one report only: its verdict, and its (ε, δ) printed as the matched claims' are. */
    private static String summary(JsonNode c, boolean tradeOff) {
        return "verdict " + c.path("verdict").asText() + (tradeOff ? "" : ", epsilon " + number(c.path("epsilon"))
                + ", delta " + number(c.path("delta")));
    }

    /** An encoded number as {@link Format#g}, or its text as written when it is not one. */
    private static String number(JsonNode n) {
        try {
            return Format.g(JsonNumbers.decode(n));
        } catch (IllegalArgumentException e) {
            return n.asText("?");
        }
    }

    /** Claims by label, the n-th repeat of a label keyed {@code label#n}. */
    private static Map<String, JsonNode> keyed(JsonNode claims) {
        Map<String, JsonNode> m = new LinkedHashMap<>();
        Map<String, Integer> seen = new LinkedHashMap<>();
        if (claims != null && claims.isArray()) {
            for (JsonNode c : claims) {
                String label = c.path("label").asText();
                int n = seen.merge(label, 1, Integer::sum);
                m.put(n == 1 ? label : label + "#" + n, c);
            }
        }
        return m;
    }
}

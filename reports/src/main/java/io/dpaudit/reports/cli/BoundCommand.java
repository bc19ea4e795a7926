package io.dpaudit.reports.cli;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.SerializationFeature;
import com.fasterxml.jackson.databind.json.JsonMapper;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.dpaudit.core.Checks;
import io.dpaudit.core.InvalidInputException;
import io.dpaudit.core.engine.ProgressListener;
import io.dpaudit.core.engine.RunControl;
import io.dpaudit.core.bounds.AccountingLimitException;
import io.dpaudit.core.bounds.BoundFamily;
import io.dpaudit.core.bounds.BoundKind;
import io.dpaudit.core.bounds.CalibrationParameter;
import io.dpaudit.core.bounds.PrivacyBound;
import io.dpaudit.core.model.AuditableMechanism;
import io.dpaudit.core.model.MechanismType;
import io.dpaudit.mechanisms.MechanismCatalog;
import io.dpaudit.runner.text.Format;
import io.dpaudit.runner.json.JsonNumbers;
import java.io.PrintStream;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;

/** {@code dp-audit bound} and {@code dp-audit calibrate}: what the mechanism's analytic bounds say. */
final class BoundCommand {
    private static final ObjectMapper MAPPER = JsonMapper.builder().enable(SerializationFeature.INDENT_OUTPUT)
            .build();

    private BoundCommand() {
    }

    /** The arguments both commands share: the mechanism, its parameters and {@code --json}. */
    abstract static class MechanismArguments {
        final Main.Streams io;
        @Parameters(index = "0", paramLabel = "TYPE", description = "mechanism type (dp-audit list shows them)")
        String type;
        @Parameters(index = "1..*", paramLabel = "key=value", description = "the mechanism's parameters, named as "
                + "in a scenario file")
        List<String> parameters = new ArrayList<>();
        @Option(names = "--json", description = "print JSON instead of text")
        boolean json;
        @Option(names = "--quiet", description = "no \"still working\" lines on standard error")
        boolean quiet;
        @Option(names = {"-h", "--help"}, usageHelp = true, description = "show this help")
        boolean help;
        @picocli.CommandLine.Mixin
        TimeBudget budget = new TimeBudget();

        MechanismArguments(Main.Streams io) {
            this.io = io;
        }
    }

    /** {@code dp-audit bound}. */
    @Command(name = "bound", synopsisHeading = "usage: ",
            customSynopsis = "dp-audit bound TYPE key=value... (--delta D | --epsilon E) [--json]",
            descriptionHeading = "%n", description = {"Every analytic bound that applies to a mechanism.", "",
                "Evaluates every analytic bound that applies to mechanism TYPE with these parameters "
                + "(the scenario file's names): epsilon at --delta, or delta at --epsilon. `dp-audit list` shows "
                + "types.", ""})
    static final class Bound extends MechanismArguments implements Callable<Integer> {
        @Option(names = "--delta", paramLabel = "D", description = "delta at which to give each bound's epsilon")
        String delta;
        @Option(names = "--epsilon", paramLabel = "E", description = "epsilon at which to give each bound's delta")
        String epsilon;

        Bound(Main.Streams io) {
            super(io);
        }

        @Override
        public Integer call() {
            return bound(this);
        }
    }

    /** {@code dp-audit calibrate}. */
    @Command(name = "calibrate", synopsisHeading = "usage: ",
            customSynopsis = "dp-audit calibrate TYPE key=value... --epsilon E --delta D [--json]",
            descriptionHeading = "%n", description = {"The noise (or local epsilon) each bound needs for a target (epsilon, delta).",
                "", "For each applicable bound, the value of the calibration parameter (smallest sigma, "
                + "largest eps0) at which the bound meets (E, D), rounded to the safe side. The calibrated "
                + "parameter may be left out.", ""})
    static final class Calibrate extends MechanismArguments implements Callable<Integer> {
        @Option(names = "--delta", paramLabel = "D", description = "target delta")
        String delta;
        @Option(names = "--epsilon", paramLabel = "E", description = "target epsilon")
        String epsilon;

        Calibrate(Main.Streams io) {
            super(io);
        }

        @Override
        public Integer call() {
            return calibrate(this);
        }
    }

    static int bound(Bound a) {
        return TimeBudget.guarded(a.budget.control(ProgressListener.NONE), c -> bound(a, c));
    }

    private static int bound(Bound a, RunControl control) {
        PrintStream out = a.io.out();
        AuditableMechanism m = mechanism(a, false);
        if ((a.delta != null) == (a.epsilon != null)) {
            throw new UsageException("bound needs exactly one of --delta D and --epsilon E");
        }
        ObjectNode root = MAPPER.createObjectNode();
        ArrayNode list = root.putArray("bounds");
        StringBuilder text = new StringBuilder();
        double delta = a.delta != null ? Checks.delta("--delta", OptionValues.number("--delta", a.delta)) : Double.NaN;
        double epsilon = a.epsilon != null
                ? Checks.nonNegative("--epsilon", OptionValues.number("--epsilon", a.epsilon)) : Double.NaN;
        StillWorking still = new StillWorking("bound", a.quiet ? null : a.io.err(), control, null);
        int index = 0;
        List<PrivacyBound> bounds;
        try (still) {
            control.onPhase("bound", "the analytic bounds of " + m.type());
            bounds = m.bounds();
            for (PrivacyBound b : bounds) {
                control.onPhase("bound", b.name() + " (" + (++index) + " of " + bounds.size() + ")");
                control.check("bound " + b.name());
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
                    if (b.certified()) {
                        bracket(b, epsilon, delta, e, d, o, text);
                    }
                } catch (AccountingLimitException ex) {
                    o.set("epsilon", JsonNumbers.encode(Double.POSITIVE_INFINITY));
                    o.set("delta", JsonNumbers.encode(delta));
                    o.put("note", ex.getMessage());
                    text.append(String.format(Locale.ROOT, "%-48s no finite epsilon: %s%n", b.name(), ex.getMessage()));
                }
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

    /**
     * A certified curve computed numerically (an accountant's composition) also states its numerical bracket: the exact
     * value of what it computes lies between the curve's lower end ({@code PrivacyBound.deltaLowerEnd},
     * {@code epsilonLowerEnd}) and the curve. Printed, and written as {@code epsilonLowerEnd} or {@code deltaLowerEnd},
     * where the two ends differ by more than a relative {@value #BRACKET_SHOWN_FROM} (a closed form's differ only by
     * the search's resolution, 1e-6).
     */
    private static final double BRACKET_SHOWN_FROM = 1e-5;

    private static void bracket(PrivacyBound b, double epsilon, double delta, double e, double d, ObjectNode o,
            StringBuilder text) {
        if (Double.isNaN(epsilon)) {
            if (!Double.isFinite(e)) {
                return;
            }
            double low = b.epsilonLowerEnd(delta);
            if (low < e * (1 - BRACKET_SHOWN_FROM)) {
                o.set("epsilonLowerEnd", JsonNumbers.encode(low));
                text.append(String.format(Locale.ROOT, "    bracket: the exact composition it discretises has epsilon in "
                        + "[%s, %s] at delta = %s (discretisation error at most %s, %.2g%%)%n", Format.g(low),
                        Format.g(e), Format.g(delta), Format.g(e - low), 100 * (e - low) / e));
            }
        } else {
            double low = b.deltaLowerEnd(epsilon);
            if (low < d * (1 - BRACKET_SHOWN_FROM)) {
                o.set("deltaLowerEnd", JsonNumbers.encode(low));
                text.append(String.format(Locale.ROOT, "    bracket: the exact composition it discretises has delta in "
                        + "[%s, %s] at epsilon = %s%n", Format.g(low), Format.g(d), Format.g(epsilon)));
            }
        }
    }

    static int calibrate(Calibrate a) {
        return TimeBudget.guarded(a.budget.control(ProgressListener.NONE), c -> calibrate(a, c));
    }

    private static int calibrate(Calibrate a, RunControl control) {
        PrintStream out = a.io.out();
        AuditableMechanism m = mechanism(a, true);
        if (a.delta == null || a.epsilon == null) {
            throw new UsageException("calibrate needs both --epsilon E and --delta D");
        }
        double delta = Checks.delta("--delta", OptionValues.number("--delta", a.delta));
        double epsilon = Checks.nonNegative("--epsilon", OptionValues.number("--epsilon", a.epsilon));
        if (epsilon > MAX_CALIBRATION_EPSILON) {
            throw new InvalidInputException("--epsilon", epsilon, "must be <= " + (int) MAX_CALIBRATION_EPSILON
                    + " for calibrate: the noise such a target allows is outside what the accountants compute within "
                    + "seconds (use bound at a given noise instead)");
        }
        ObjectNode root = MAPPER.createObjectNode();
        ArrayNode list = root.putArray("calibrations");
        StringBuilder text = new StringBuilder();
        List<BoundFamily> families = m.boundFamilies();
        StillWorking still = new StillWorking("calibrate", a.quiet ? null : a.io.err(), control, null);
        try (still) {
            List<Calibrated> results = calibrateAll(families, epsilon, delta, control);
            for (int i = 0; i < families.size(); i++) {
                BoundFamily f = families.get(i);
                Calibrated c = results.get(i);
                ObjectNode o = list.addObject();
                String parameter = f.parameter().name();
                o.put("name", f.name());
                o.put("source", f.source());
                o.put("parameter", parameter);
                if (c.failure() == null) {
                    double value = c.value();
                    PrivacyBound at = c.bound();
                    o.put("certified", at.certified());
                    o.put("kind", at.kind().name().toLowerCase(Locale.ROOT).replace('_', '-'));
                    o.set("value", JsonNumbers.encode(value));
                    o.set(parameter, JsonNumbers.encode(value));
                    String what = at.certified() ? "" : at.kind() == BoundKind.LOWER_BOUND
                            ? "  (a floor, from a proven lower bound: no correct accounting meets the target with a "
                                    + parameter + " on the less private side of it)"
                            : "  (" + at.kind().description() + ")";
                    text.append(String.format(Locale.ROOT, "%-48s %s = %s%s%n    source: %s%n", f.name(), parameter,
                            Double.toString(value), what, f.source()));
                } else {
                    o.putNull("value");
                    o.putNull(parameter);
                    o.put("note", c.failure().getMessage());
                    text.append(String.format(Locale.ROOT, "%-48s no calibration: %s%n", f.name(),
                            c.failure().getMessage()));
                }
            }
            recommend(families, results, epsilon, delta, root, text);
        }
        if (families.isEmpty()) {
            text.append("No analytic bound applies to ").append(m.type()).append(" with these parameters.\n");
        }
        print(out, a, root, text);
        return Main.OK;
    }

    /**
     * The value to use: among the certified upper bounds that calibrated, the least noise (the smallest σ, the largest
     * ε0): each is a proven bound, so the tightest one's value meets the target. Rounded to 5 significant digits on
     * the safe side (σ up, ε0 down). Approximations never decide it. Nothing is recommended when no certified bound
     * calibrated, or when the bounds calibrate different parameters.
     */
    private static void recommend(List<BoundFamily> families, List<Calibrated> results, double epsilon, double delta,
            ObjectNode root, StringBuilder text) {
        CalibrationParameter parameter = null;
        int best = -1;
        for (int i = 0; i < families.size(); i++) {
            Calibrated c = results.get(i);
            if (c.failure() != null || !c.bound().certified()) {
                continue;
            }
            CalibrationParameter p = families.get(i).parameter();
            if (parameter != null && !parameter.name().equals(p.name())) {
                return;
            }
            parameter = p;
            double v = c.value();
            if (best < 0 || (p.privateWhenLarger() ? v < results.get(best).value() : v > results.get(best).value())) {
                best = i;
            }
        }
        if (best < 0) {
            text.append("Recommended: none (no certified upper bound calibrated; an approximation is not a "
                    + "guarantee).\n");
            root.putNull("recommended");
            return;
        }
        double rounded = new java.math.BigDecimal(results.get(best).value()).round(new java.math.MathContext(5,
                parameter.privateWhenLarger() ? java.math.RoundingMode.CEILING : java.math.RoundingMode.FLOOR))
                .doubleValue();
        String name = families.get(best).name();
        ObjectNode r = root.putObject("recommended");
        r.put("parameter", parameter.name());
        r.set("value", JsonNumbers.encode(rounded));
        r.put("bound", name);
        text.append(String.format(Locale.ROOT, "Recommended: %s = %s (%s: %s among the certified upper bounds above, "
                + "each a proven bound, so this one meets (%s, %s); rounded %s to 5 significant digits)%n",
                parameter.name(), new java.math.BigDecimal(rounded).round(new java.math.MathContext(5))
                        .stripTrailingZeros().toPlainString(), name, parameter.extremum(), Checks.format(epsilon),
                Checks.format(delta), parameter.privateWhenLarger() ? "up" : "down"));
    }

    /** One family's calibration: its value and the bound there, or why there is none. */
    private record Calibrated(double value, PrivacyBound bound, InvalidInputException failure) {
    }

    /**
     * Calibrates the families concurrently on up to two threads (each is independent, and the results are put back in
     * the families' order, so the output does not depend on the scheduling). A spent time budget stops everything.
     */
    /**
     * Largest target epsilon {@code calibrate} accepts: up to it calibration was checked sound (first hostile-input
     * round) and answers within seconds; far beyond it (1e6) the accountants' evaluations at the tiny noise it calls
     * for took minutes.
     */
    static final double MAX_CALIBRATION_EPSILON = 1000;

    private static List<Calibrated> calibrateAll(List<BoundFamily> families, double epsilon, double delta,
            RunControl control) {
        int threads = Math.max(1, Math.min(Math.min(2, Runtime.getRuntime().availableProcessors()), families.size()));
        java.util.concurrent.ExecutorService pool = java.util.concurrent.Executors.newFixedThreadPool(threads, r -> {
            Thread t = new Thread(r, "dp-audit-calibrate");
            t.setDaemon(true);
            return t;
        });
        RunningFamilies running = new RunningFamilies(control);
        try {
            List<java.util.concurrent.Future<Calibrated>> futures = new ArrayList<>();
            for (BoundFamily f : families) {
                futures.add(pool.submit(() -> {
                    running.started(f.name());
                    try {
                        double value = f.calibrate(epsilon, delta);
                        return new Calibrated(value, f.at().apply(value), null);
                    } catch (io.dpaudit.core.engine.RunControl.Stopped e) {
                        throw e; // the time budget, not this bound: stop
                    } catch (InvalidInputException e) {
                        return new Calibrated(Double.NaN, null, e);
                    } finally {
                        running.finished(f.name());
                    }
                }));
            }
            List<Calibrated> out = new ArrayList<>();
            for (java.util.concurrent.Future<Calibrated> future : futures) {
                try {
                    out.add(future.get());
                } catch (InterruptedException e) {
                    throw new io.dpaudit.core.numerics.Interruption.Interrupted(control.status());
                } catch (java.util.concurrent.ExecutionException e) {
                    if (e.getCause() instanceof RuntimeException r) {
                        throw r;
                    }
                    if (e.getCause() instanceof Error err) {
                        throw err;
                    }
                    throw new IllegalStateException(e.getCause());
                }
            }
            return out;
        } finally {
            pool.shutdownNow();
        }
    }

    private static AuditableMechanism mechanism(MechanismArguments a, boolean calibrating) {
        io.dpaudit.core.model.Parameters p = OptionValues.mechanismParameters(a.type, a.parameters);
        MechanismType type = MechanismCatalog.find(p.text("type", ""));
        if (calibrating && type != null) {
            // Calibration replaces the calibrated parameter; any valid value lets the others parse.
            Map<String, Object> values = new LinkedHashMap<>(p.values());
            type.calibrationPlaceholders().apply(p.values()).forEach(values::putIfAbsent);
            p = new io.dpaudit.core.model.Parameters("", values);
        }
        return MechanismCatalog.parse(p);
    }

    private static void print(PrintStream out, MechanismArguments a, ObjectNode root, StringBuilder text) {
        if (a.json) {
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

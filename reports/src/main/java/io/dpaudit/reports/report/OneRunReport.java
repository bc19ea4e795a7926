package io.dpaudit.reports.report;

import io.dpaudit.runner.text.Format;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.SerializationFeature;
import com.fasterxml.jackson.databind.json.JsonMapper;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.dpaudit.core.Checks;
import io.dpaudit.core.estimate.onerun.GuessSides;
import io.dpaudit.core.ToolInfo;
import io.dpaudit.core.rng.RandomStreams;
import io.dpaudit.runner.scores.OneRunAudit;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * The report of a one-run audit ({@code dp-audit scores --one-run}): report.json ({@code "kind": "one-run"}) and
 * report.md and report.html (the same text as a page), written as one set. A claim {@code (eps, delta)} is violated when the ε lower bound at its δ exceeds its
 * ε; otherwise it is "not refuted", which says little: a one-run audit certifies far less than the same number of
 * independent runs would (Steinke et al. 2023, Section 6). The verdicts use the bound chosen before the run
 * ({@code --one-run-bound}): Steinke et al.'s (default) or the f-DP route's through the (ε, δ) trade-off function; both
 * are reported, each valid at the stated confidence on its own, with the μ-GDP bound and the ε it implies if the run's
 * trade-off curve is Gaussian.
 *
 * @param outcome what the audit found
 * @param direction {@code higher} or {@code lower}
 * @param confidence the stated confidence
 * @param seed the root seed (tie-breaking)
 * @param claims the claims, {@code {eps, delta}} each
 * @param verdictBound {@value #STEINKE} or {@value #FDP}: which ε lower bound decides the verdicts
 * @param provenance when and how the command ran
 */
public record OneRunReport(OneRunAudit.Outcome outcome, String direction, double confidence, long seed,
        List<double[]> claims, String verdictBound, Provenance provenance) {
    /** {@code --one-run-bound} value: verdicts by Steinke et al.'s bound. */
    public static final String STEINKE = "steinke";
    /** {@code --one-run-bound} value: verdicts by the f-DP route's (ε, δ) bound. */
    public static final String FDP = "fdp";
    /** What report.json's {@code fdp.method} says. */
    public static final String FDP_METHOD = "Mahloujifar, Melis & Chaudhuri, Auditing f-Differential Privacy in One "
            + "Run (2024, arXiv 2410.22235): the largest P(correct guesses >= v) an f-DP run allows, by the greedy "
            + "law of the paper's recursion, normalised by P(S_i = s) = 1/2 (io.dpaudit.core.estimate.onerun.OneRunFdpBound); "
            + "same guesses and grid as the Steinke et al. bound";
    /** What report.json's {@code fdp.method} says for two-sided guesses. */
    public static final String FDP_METHOD_TWO_SIDED = "Mahloujifar, Melis & Chaudhuri, Auditing f-Differential "
            + "Privacy in One Run (2024, arXiv 2410.22235): the largest P(correct guesses >= v) an f-DP run allows, by "
            + "the greedy law of the paper's recursion, with the two-sided normalisation 1/m (symmetric f; "
            + "io.dpaudit.core.estimate.onerun.OneRunFdpBound); same guesses and grid as the Steinke et al. bound";

    public OneRunReport {
        if (!STEINKE.equals(verdictBound) && !FDP.equals(verdictBound)) {
            throw new io.dpaudit.core.InvalidInputException("--one-run-bound", verdictBound, "must be " + STEINKE
                    + " or " + FDP);
        }
    }
    /** What report.json's {@code method} says. */
    public static final String METHOD = "Steinke, Nasr & Jagielski, Privacy Auditing with One (1) Training Run "
            + "(NeurIPS 2023, arXiv 2305.08846), Theorem 3.1 with its approximate-DP form: one-sided guesses for the "
            + "k highest-scoring canaries, k on a grid fixed by the number of canaries, Bonferroni over the grid";
    /** What report.json's {@code method} says for two-sided guesses. */
    public static final String METHOD_TWO_SIDED = "Steinke, Nasr & Jagielski, Privacy Auditing with One (1) Training "
            + "Run (NeurIPS 2023, arXiv 2305.08846), Theorem 3.1 with its approximate-DP form: two-sided guesses, "
            + "included for the ceil(k/2) highest-scoring canaries and excluded for the floor(k/2) lowest, k on a grid "
            + "fixed by the number of canaries, Bonferroni over the grid";

    private String method() {
        return outcome.sides() == GuessSides.ONE_SIDED ? METHOD : METHOD_TWO_SIDED;
    }

    private String fdpMethod() {
        return outcome.sides() == GuessSides.ONE_SIDED ? FDP_METHOD : FDP_METHOD_TWO_SIDED;
    }
    private static final ObjectMapper MAPPER = JsonMapper.builder().enable(SerializationFeature.INDENT_OUTPUT)
            .build();

    /** True when some claim is violated. */
    public boolean anyViolated() {
        for (double[] c : claims) {
            if (violated(c)) {
                return true;
            }
        }
        return false;
    }

    private boolean violated(double[] claim) {
        return verdictEpsilon(claim[1]) > claim[0];
    }

    /** The ε lower bound at δ that decides verdicts. */
    public double verdictEpsilon(double delta) {
        return (FDP.equals(verdictBound) ? boundAt(outcome.fdp().epsilon(), delta) : boundAt(delta)).epsilon();
    }

    private OneRunAudit.Bound boundAt(double delta) {
        return boundAt(outcome.bounds(), delta);
    }

    private static OneRunAudit.Bound boundAt(List<OneRunAudit.Bound> bounds, double delta) {
        for (OneRunAudit.Bound b : bounds) {
            if (b.delta() == delta) {
                return b;
            }
        }
        throw new IllegalArgumentException("no bound at delta " + delta);
    }

    /** The report's files by name. */
    public Map<String, String> files() {
        Map<String, String> files = new LinkedHashMap<>();
        String md = markdown();
        files.put("report.md", md);
        files.put("report.html", HtmlReportWriter.page("dp-audit: one-run audit", "", md));
        files.put("report.json", json());
        return files;
    }

    String json() {
        ObjectNode root = MAPPER.createObjectNode();
        root.put("schemaVersion", Provenance.SCHEMA_VERSION);
        root.put("kind", "one-run");
        root.putObject("tool").put("name", ToolInfo.NAME).put("version", ToolInfo.version());
        root.set("provenance", MAPPER.valueToTree(provenance));
        root.put("method", method());
        root.put("guessSides", outcome.sides().label());
        root.put("seed", seed);
        root.put("rng", RandomStreams.description());
        root.put("confidence", confidence);
        ObjectNode inputs = root.putObject("inputs");
        input(inputs.putObject("included"), outcome.included());
        input(inputs.putObject("excluded"), outcome.excluded());
        inputs.put("direction", direction);
        root.put("canaries", outcome.canaries());
        ArrayNode grid = root.putArray("guessCounts");
        for (long k : outcome.guessCounts()) {
            grid.add(k);
        }
        root.put("testLevel", outcome.level());
        ArrayNode bounds = root.putArray("epsilonLowerBounds");
        for (OneRunAudit.Bound b : outcome.bounds()) {
            bounds.addObject().put("delta", b.delta()).put("epsilon", b.epsilon()).put("guesses", b.guesses())
                    .put("correct", b.correct());
        }
        ObjectNode fdp = root.putObject("fdp");
        fdp.put("method", fdpMethod());
        OneRunAudit.MuBound mu = outcome.fdp().mu();
        fdp.putObject("gdpMuLowerBound").put("mu", mu.mu()).put("guesses", mu.guesses()).put("correct",
                mu.correct());
        bounds(fdp.putArray("epsilonLowerBounds"), outcome.fdp().epsilon());
        bounds(fdp.putArray("epsilonIfGaussian"), outcome.fdp().epsilonIfGaussian());
        root.put("verdictBound", verdictBound);
        ArrayNode cs = root.putArray("claims");
        for (double[] c : claims) {
            cs.addObject().put("epsilon", c[0]).put("delta", c[1]).put("verdict", violated(c) ? "violated"
                    : "not refuted").put("epsilonLowerBound", boundAt(c[1]).epsilon())
                    .put("epsilonLowerBoundFdp", boundAt(outcome.fdp().epsilon(), c[1]).epsilon());
        }
        ObjectNode env = root.putObject("environment");
        ToolInfo.environment().forEach(env::put);
        try {
            return MAPPER.writeValueAsString(root) + "\n";
        } catch (com.fasterxml.jackson.core.JsonProcessingException e) {
            throw new IllegalStateException(e);
        }
    }

    private static void bounds(ArrayNode into, List<OneRunAudit.Bound> bounds) {
        for (OneRunAudit.Bound b : bounds) {
            into.addObject().put("delta", b.delta()).put("epsilon", b.epsilon()).put("guesses", b.guesses())
                    .put("correct", b.correct());
        }
    }

    private static void input(ObjectNode node, OneRunAudit.Input in) {
        node.put("file", in.name()).put("scores", in.scores()).put("bytes", in.bytes()).put("sha256", in.sha256());
    }

    String markdown() {
        StringBuilder b = new StringBuilder();
        b.append("# One-run audit\n\n");
        b.append(String.format(Locale.ROOT, "%d canaries from one training run: %d included (`%s`), %d not (`%s`); "
                + "a %s score points to inclusion.%n%n", outcome.canaries(), outcome.included().scores(),
                outcome.included().name(), outcome.excluded().scores(), outcome.excluded().name(), direction));
        b.append("Method: ").append(method()).append(String.format(Locale.ROOT, ". Guess counts k: %d of them, from %d "
                + "down to %d; each test at level %.3g, so that every bound below holds with %s confidence.%n%n",
                outcome.guessCounts().length, outcome.guessCounts()[0],
                outcome.guessCounts()[outcome.guessCounts().length - 1], outcome.level(), pct(confidence)));
        b.append("| δ | ε lower bound (Steinke et al.) | k | correct | ε lower bound (f-DP route) | k | correct | "
                + "ε if Gaussian |\n|---|---|---|---|---|---|---|---|\n");
        for (int i = 0; i < outcome.bounds().size(); i++) {
            OneRunAudit.Bound x = outcome.bounds().get(i);
            OneRunAudit.Bound f = outcome.fdp().epsilon().get(i);
            OneRunAudit.Bound g = outcome.fdp().epsilonIfGaussian().get(i);
            b.append(String.format(Locale.ROOT, "| %s | %s | %d | %d | %s | %d | %d | %s |%n", delta(x.delta()),
                    lowerBound(x.epsilon()), x.guesses(), x.correct(), lowerBound(f.epsilon()), f.guesses(),
                    f.correct(), g.epsilon() >= io.dpaudit.core.estimate.onerun.OneRunFdpBound.MAX_EPSILON ? "unbounded"
                    : lowerBound(g.epsilon())));
        }
        OneRunAudit.MuBound mu = outcome.fdp().mu();
        b.append(String.format(Locale.ROOT, "%nμ-GDP refuted for every μ ≤ **%s** (%d guesses, %d correct). The f-DP "
                + "route: %s. \"ε if Gaussian\" is the ε of μ-GDP at that μ — a lower bound only if the run's "
                + "trade-off "
                + "curve is Gaussian; the other two columns assume nothing about its shape.%n",
                lowerBound(mu.mu()), mu.guesses(), mu.correct(), fdpMethod()));
        if (!claims.isEmpty()) {
            b.append(String.format(Locale.ROOT, "%nVerdicts by the %s bound (`--one-run-bound %s`, chosen before the "
                    + "run).%n%n", FDP.equals(verdictBound) ? "f-DP route's" : "Steinke et al.", verdictBound));
            b.append("| claim (ε, δ) | verdict | ε lower bound at its δ (Steinke et al.) | (f-DP route) |\n"
                    + "|---|---|---|---|\n");
            for (double[] c : claims) {
                b.append(String.format(Locale.ROOT, "| (%s, %s) | %s | %s | %s |%n", Checks.format(c[0]),
                        delta(c[1]), violated(c) ? "**violated**" : "not refuted",
                        lowerBound(boundAt(c[1]).epsilon()),
                        lowerBound(boundAt(outcome.fdp().epsilon(), c[1]).epsilon())));
            }
        }
        b.append("\nWhat this assumes: every canary was included independently with probability 1/2 (the labels are "
                + "that coin), the rest of the training data did not depend on the coins, and the scores are a "
                + "function of the trained model. \"Not refuted\" says little: one run certifies far less than the "
                + "same number of independent runs.\n\n");
        b.append(String.format(Locale.ROOT, "Seed %d (%s), %s %s; %s.%n", seed, RandomStreams.description(),
                ToolInfo.NAME, ToolInfo.version(), provenance.commandLine()));
        return b.toString();
    }

    /** A lower bound shown to 4 significant digits, rounded down (never above the bound). */
    public static String lowerBound(double x) {
        if (x == 0 || !Double.isFinite(x)) {
            return Checks.format(x);
        }
        return new java.math.BigDecimal(x).round(new java.math.MathContext(4, java.math.RoundingMode.DOWN))
                .stripTrailingZeros().toPlainString();
    }

    /** A δ as every other report and console line prints it ({@link Format#g}: {@code 1.000e-05}). */
    public static String delta(double d) {
        return Format.g(d);
    }

    private static String pct(double c) {
        return String.format(Locale.ROOT, "%.4g%%", 100 * c);
    }
}

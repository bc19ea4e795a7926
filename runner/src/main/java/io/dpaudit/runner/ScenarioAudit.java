package io.dpaudit.runner;

import io.dpaudit.core.Checks;
import io.dpaudit.core.InvalidInputException;
import io.dpaudit.core.ToolInfo;
import io.dpaudit.core.audit.AuditPlan;
import io.dpaudit.core.audit.AuditResult;
import io.dpaudit.core.audit.AuditSettings;
import io.dpaudit.core.audit.Auditor;
import io.dpaudit.core.audit.Claim;
import io.dpaudit.core.audit.ProfileEstimation;
import io.dpaudit.core.audit.TradeOffClaim;
import io.dpaudit.core.blackbox.TrainableScorer;
import io.dpaudit.core.bounds.BoundKind;
import io.dpaudit.core.bounds.PrivacyBound;
import io.dpaudit.core.engine.ShardedPhase;
import io.dpaudit.core.engine.ProgressListener;
import io.dpaudit.core.engine.Scorer;
import io.dpaudit.core.fdp.BoundTradeOff;
import io.dpaudit.core.fdp.TradeOffFunction;
import io.dpaudit.core.model.AuditableMechanism;
import io.dpaudit.core.model.MechanismSimulator;
import io.dpaudit.core.rng.RandomStreams;
import io.dpaudit.mechanisms.MechanismCatalog;
import io.dpaudit.runner.scenario.ClaimSpec;
import io.dpaudit.runner.scenario.Scenario;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.TreeSet;

/**
 * Turns a scenario into an audit and runs it. {@link #prepare} does all validation (mechanism, simulator, attack,
 * claims, settings) before any trial runs, so bad input fails fast and leaves no output; {@link #audit} runs it on any
 * engine and returns plain values ({@link AuditResult}). Reports are assembled elsewhere (the reports module), so
 * that every engine and front end — the command line, the Spark runner, a test — shares this one path.
 */
public final class ScenarioAudit {
    private ScenarioAudit() {
    }

    /**
     * A validated, ready-to-run audit.
     *
     * @param scenario the scenario
     * @param mechanism the mechanism
     * @param simulator the simulator that will produce outputs
     * @param scorer the attack
     * @param settings engine and estimator settings
     * @param bounds the analytic bounds that apply, computed once
     * @param claims resolved privacy-profile claims
     * @param tradeOffClaims resolved f-DP claims
     * @param lossScorer the exact-LLR scorer of the plain two-sided privacy-loss estimate, or null
     * @param profileEstimation the importance-sampled estimate, or null
     * @param trainable the learned distinguisher that replaces {@code scorer} after training, or null
     * @param trainingTrials outputs per world the learned distinguisher learns from (0 without one)
     * @param pairSearch the search that chose the audited pair ({@code "pairSearch"}), or null
     */
    public record Prepared(Scenario scenario, AuditableMechanism mechanism, MechanismSimulator simulator,
            Scorer scorer, AuditSettings settings, List<PrivacyBound> bounds, List<Claim> claims,
            List<TradeOffClaim> tradeOffClaims, Scorer lossScorer, ProfileEstimation profileEstimation,
            TrainableScorer trainable, int trainingTrials, PairSearch.Result pairSearch) {
    }

    /**
     * Validates everything and resolves claims.
     *
     * @param trials trials per world (scenario value or command-line override)
     * @param seed root seed
     * @param threads worker threads
     */
    public static Prepared prepare(Scenario scenario, long trials, long seed, int threads) {
        return prepare(scenario, trials, seed, threads, ProgressListener.NONE);
    }

    /**
     * {@link #prepare(Scenario, long, long, int)}, telling {@code progress} each step (phase {@code prepare}: every
     * bound computed, every claim resolved) and checking it between steps, since composing bounds and tabulating
     * trade-off functions can take seconds each.
     */
    public static Prepared prepare(Scenario scenario, long trials, long seed, int threads,
            ProgressListener progress) {
        return prepare(scenario, trials, seed, threads, progress, null);
    }

    /**
     * {@link #prepare(Scenario, long, long, int, ProgressListener)} taking the bounds from {@code cache} when another
     * scenario of the run has the same mechanism configuration.
     *
     * @param cache the run's bounds, or null to compute them here
     */
    public static Prepared prepare(Scenario stated, long trials, long seed, int threads,
            ProgressListener progress, BoundCache cache) {
        long start = System.nanoTime();
        PairSearch.Result search = PairSearch.run(stated, seed, threads, progress);
        Scenario scenario = search == null ? stated : PairSearch.chosen(stated, search);
        progress.onPhase("prepare", "the mechanism, its simulator and the attack");
        ScenarioTrials.Prepared t = ScenarioTrials.prepare(scenario, trials, seed);
        AuditableMechanism mechanism = t.mechanism();
        AuditSettings settings = new AuditSettings(trials, seed, threads, scenario.confidence(),
                scenario.selection(), scenario.histogramBins(), ScenarioTrials.pilotTrials(trials),
                ShardedPhase.shardTrialsFor(t.simulator().outputLength()), scenario.deltas(), scenario.epsilons(),
                scenario.tradeOff());
        List<PrivacyBound> bounds = cache != null ? cache.bounds(mechanism, progress) : mechanism.bounds(progress);
        List<Claim> claims = new ArrayList<>();
        List<TradeOffClaim> tradeOffClaims = new ArrayList<>();
        List<ClaimSpec> specs = scenario.claims();
        for (int i = 0; i < specs.size(); i++) {
            ClaimSpec c = specs.get(i);
            progress.check("resolving " + c.field());
            progress.onPhase("prepare", String.format(Locale.ROOT, "claim %d of %d%s (%.1f s so far)", i + 1,
                    specs.size(), c.bound() == null ? "" : ": " + c.bound() + (c.tradeOff() ? ", its trade-off "
                            + "function" : ""), (System.nanoTime() - start) / 1e9));
            if (c.tradeOff()) {
                tradeOffClaims.add(resolveTradeOff(c, mechanism, bounds));
            } else {
                claims.add(resolve(c, mechanism, bounds));
            }
        }
        Prepared prepared = new Prepared(scenario, mechanism, t.simulator(), t.scorer(), settings, bounds, claims,
                tradeOffClaims, t.lossScorer(), t.profileEstimation(), t.trainable(), t.trainingTrials(), search);
        plan(prepared, prepared.scorer()).validate(); // the plan as a whole (a sequential one needs a claim, ...)
        return prepared;
    }

    /** Resolves an f-DP claim: {@code mu}-GDP, or a bound's whole trade-off function ({@link BoundTradeOff}). */
    public static TradeOffClaim resolveTradeOff(ClaimSpec c, AuditableMechanism mechanism, List<PrivacyBound> bounds) {
        if (c.bound() == null) {
            String label = c.label() != null ? c.label() : "gdp(" + Checks.format(c.gdpMu()) + ")";
            return TradeOffClaim.gdp(label, c.gdpMu(), "stated");
        }
        PrivacyBound b = bound(c, mechanism, bounds);
        String assumed = assumption(c, mechanism);
        String label = c.label() != null ? c.label() : b.name() + " (trade-off)" + assumed;
        String kind = b.certified() ? "" : " (" + b.kind().description() + ")";
        String how = Double.isNaN(b.gdpMu()) ? "its trade-off function, from its profile"
                : "G_mu with mu = " + Checks.format(b.gdpMu());
        boolean ordered = BoundTradeOff.isOrderedPair(b);
        String order = ordered ? "; a curve of the ordered pair (D, D'), so reversed tests are held to its inverse"
                : "";
        TradeOffFunction f = BoundTradeOff.of(b);
        return new TradeOffClaim(label, f, ordered ? BoundTradeOff.reverseOf(b) : f, b.gdpMu(), b.name() + kind
                + assumed + ", " + how + order + ": " + b.source());
    }

    /**
     * The bound a claim names: among the run's bounds, or, when the claim says what it assumes, among the bounds of the
     * mechanism with those parameters (the mechanism as claimed, not as run).
     */
    private static PrivacyBound bound(ClaimSpec c, AuditableMechanism mechanism, List<PrivacyBound> bounds) {
        if (c.assuming() != null) {
            java.util.Map<String, Object> values = new java.util.LinkedHashMap<>(mechanism.parameters().values());
            values.putAll(c.assuming().values());
            AuditableMechanism claimed;
            try {
                claimed = MechanismCatalog.parse(new io.dpaudit.core.model.Parameters(c.field() + ".assuming.",
                        values));
            } catch (InvalidInputException e) {
                throw InvalidInputException.in(c.field() + ".assuming", e);
            }
            return lookUp(c, claimed, claimed.bounds());
        }
        return lookUp(c, mechanism, bounds);
    }

    /** What a claim that assumes other parameters says it assumes, for labels and sources. */
    public static String assumption(ClaimSpec c, AuditableMechanism mechanism) {
        if (c.assuming() == null) {
            return "";
        }
        StringBuilder b = new StringBuilder(" assuming ");
        boolean first = true;
        for (java.util.Map.Entry<String, Object> e : c.assuming().values().entrySet()) {
            Object actual = mechanism.parameters().values().get(e.getKey());
            b.append(first ? "" : ", ").append(e.getKey()).append(" = ").append(value(e.getValue()))
                    .append(" (the run: ").append(actual == null ? "default" : value(actual)).append(')');
            first = false;
        }
        return b.toString();
    }

    private static String value(Object v) {
        return v instanceof Double d ? Checks.format(d) : String.valueOf(v);
    }

    private static PrivacyBound lookUp(ClaimSpec c, AuditableMechanism mechanism, List<PrivacyBound> bounds) {
        return bounds.stream().filter(x -> x.name().equals(c.bound())).findFirst().orElseThrow(() ->
                new InvalidInputException(c.field() + ".bound", c.bound(), "no such bound for mechanism "
                        + mechanism.type() + " with these parameters (applicable: "
                        + String.join(", ", new TreeSet<>(bounds.stream().map(PrivacyBound::name).toList()))
                        + ")"));
    }

    /** Resolves a claim spec against the mechanism's bounds. */
    public static Claim resolve(ClaimSpec c, AuditableMechanism mechanism, List<PrivacyBound> bounds) {
        if (c.bound() == null) {
            String label = c.label() != null ? c.label()
                    : String.format(Locale.ROOT, "(%s, %s)", Checks.format(c.epsilon()), Checks.format(c.delta()));
            return new Claim(label, c.epsilon(), c.delta(), "stated");
        }
        PrivacyBound b = bound(c, mechanism, bounds);
        double eps = c.epsilon();
        double del = c.delta();
        if (Double.isNaN(eps)) {
            try {
                eps = PrivacyBound.epsilonAt(b, del);
            } catch (io.dpaudit.core.bounds.AccountingLimitException e) {
                // bad input (one line, exit 2), located at the claim that asked for it
                throw InvalidInputException.in(c.field() + ".bound = " + c.bound(), e);
            }
            if (!Double.isFinite(eps)) {
                throw new InvalidInputException(c.field() + ".bound", c.bound(),
                        "gives no finite epsilon at delta = " + Checks.format(del));
            }
        } else {
            del = b.delta(eps);
            if (!(del > 0 && del < 1)) {
                throw new InvalidInputException(c.field() + ".bound", c.bound(),
                        "gives delta = " + Checks.format(del) + " at epsilon = " + Checks.format(eps)
                                + ", which is not a claim in (0, 1)");
            }
        }
        String assumed = assumption(c, mechanism);
        String label = c.label() != null ? c.label() : b.name() + assumed;
        String kind = b.certified() ? "" : " (" + b.kind().description() + ")";
        return new Claim(label, eps, del, b.name() + kind + assumed + ": " + b.source());
    }

    /** Runs a prepared audit on the local engine: the learned distinguisher's training (if any), then the phases. */
    public static AuditResult audit(Prepared p, ProgressListener progress) {
        return audit(p, progress, null, null);
    }

    /**
     * Runs a prepared audit on an engine, keeping phase states in a store (checkpoint and resume). The result is
     * plain values; {@link io.dpaudit.runner.analysis.AuditRunner} adds the analytic findings.
     *
     * @param engine the engine of the counted phases, or null for the local one
     * @param store phase states to resume from and keep, or null
     */
    public static AuditResult audit(Prepared p, ProgressListener progress, io.dpaudit.core.engine.PhaseEngine engine,
            io.dpaudit.core.engine.PhaseStore store) {
        Scorer scorer = p.scorer();
        if (p.trainable() != null) {
            scorer = p.trainable().train(p.simulator(), p.trainingTrials(),
                    RandomStreams.training(p.settings().seed()), progress);
        }
        if (store != null && engine != null) {
            throw new IllegalArgumentException("checkpoint and resume need the local engine");
        }
        io.dpaudit.core.engine.PhaseEngine phases = engine != null ? engine
                : new io.dpaudit.core.engine.LocalEngine(p.settings().threads(), p.settings().shardTrials(), progress,
                        store);
        return Auditor.run(plan(p, scorer), progress, phases);
    }

    /** The audit plan of a prepared scenario with the attack {@code scorer} (trained, when it learns). */
    public static AuditPlan plan(Prepared p, Scorer scorer) {
        return AuditPlan.of(p.simulator(), scorer, p.settings()).withClaims(p.claims())
                .withTradeOffClaims(p.tradeOffClaims()).withLossScorer(p.lossScorer())
                .withProfileEstimation(p.profileEstimation()).withCoupling(p.scenario().coupled())
                .withStopping(p.scenario().stopping())
                .withPairFromBelow(!p.mechanism().simulatedPairIsWorstCase())
                .withProvenLowerBounds(p.bounds().stream().filter(b -> b.kind() == BoundKind.LOWER_BOUND).toList());
    }

    /**
     * One line that says what is about to run, printed before the first trial: scenario, mechanism, simulator, attack,
     * trials, seed and threads.
     */
    public static String header(Prepared p) {
        AuditSettings s = p.settings();
        return String.format(Locale.ROOT, "%s %s: auditing %s: %s (%s simulator), attack %s, %s trials per world%s, "
                + "seed %d, %d thread(s), %d claim(s)", ToolInfo.NAME, ToolInfo.version(), p.scenario().name(),
                p.mechanism().type(), p.scenario().faithful() ? "faithful" : "reduced", p.scenario().attack(),
                p.scenario().stopping().sequential() ? "sequential, stages from " + count(p.scenario().stopping()
                        .firstStageTrials()) + " up to " + count(s.trialsPerWorld()) : count(s.trialsPerWorld()), p.lossScorer() != null ? " (and as many for the estimate)"
                        : p.profileEstimation() != null ? " (and an importance-sampled estimate)" : "",
                s.seed(), s.threads(), p.claims().size() + p.tradeOffClaims().size())
                + (p.pairSearch() == null ? "" : String.format(Locale.ROOT, "; pair: %s (the highest of %d screened)",
                        p.pairSearch().audited().label(), p.pairSearch().candidates().size()));
    }

    /** Below this many expected events (N δ) an ε lower bound at δ is usually 0 or far below the truth. */
    static final double WARN_EVENTS = 10;
    /** Expected events (N δ) recommended for an ε lower bound at δ that recovers most of the true ε. */
    static final double RECOMMENDED_EVENTS = 100;

    /**
     * Warnings that the requested trials cannot resolve the scenario's smallest δ (its {@code deltas} and its claims'):
     * a test certifying δ needs a true-positive rate of at least δ, and with {@code N δ < 10} expected events its
     * Clopper–Pearson lower bound is at most about half of it, often 0. The warning says what N would do
     * ({@code 100 / δ}).
     */
    public static List<String> trialWarnings(Prepared p) {
        double smallest = 1;
        for (double d : p.settings().deltas()) {
            smallest = d > 0 ? Math.min(smallest, d) : smallest; // pure DP (δ = 0) is refuted by a ratio of rates
        }
        for (Claim c : p.claims()) {
            smallest = c.delta() > 0 ? Math.min(smallest, c.delta()) : smallest;
        }
        long n = p.settings().trialsPerWorld();
        if (smallest < 1 && n * smallest < WARN_EVENTS) {
            double needed = Math.ceil(RECOMMENDED_EVENTS / smallest);
            String resolve = needed <= Checks.MAX_TRIALS
                    ? String.format(Locale.ROOT, "about %s trials per world (100/delta) would resolve it.",
                            count((long) needed))
                    : String.format(Locale.ROOT, "resolving it would take about %.2g trials per world (100/delta), "
                            + "more than an audit counts (10^13): only a white-box estimate (\"estimate\") sees that "
                            + "far.", needed);
            return List.of(String.format(Locale.ROOT, "Too few trials to resolve delta = %s: %s per world give %.3g "
                    + "expected events at that rate, so the epsilon lower bounds there will be 0 or far below the "
                    + "truth; %s", String.format(Locale.ROOT, smallest >= 1e-3 ? "%.4g" : "%.3e", smallest),
                    count(n), n * smallest, resolve));
        }
        return List.of();
    }

    /** A count with thousands separators. */
    private static String count(long n) {
        return String.format(Locale.ROOT, "%,d", n);
    }
}

package io.dpaudit.reports;

import io.dpaudit.attacks.AttackCatalog;
import io.dpaudit.attacks.LikelihoodRatioAttack;
import io.dpaudit.core.Checks;
import io.dpaudit.core.InvalidInputException;
import io.dpaudit.core.ToolInfo;
import io.dpaudit.core.accounting.AccountingLimitException;
import io.dpaudit.core.audit.AuditResult;
import io.dpaudit.core.audit.AuditSettings;
import io.dpaudit.core.audit.AuditSettings;
import io.dpaudit.core.audit.Auditor;
import io.dpaudit.core.audit.Claim;
import io.dpaudit.core.audit.ClaimResult;
import io.dpaudit.core.audit.EstimateVerdict;
import io.dpaudit.core.audit.TradeOffClaim;
import io.dpaudit.core.blackbox.TrainableScorer;
import io.dpaudit.core.bounds.BoundFamily;
import io.dpaudit.core.bounds.BoundKind;
import io.dpaudit.core.bounds.PrivacyBound;
import io.dpaudit.core.engine.MonteCarloEngine;
import io.dpaudit.core.engine.Pilot;
import io.dpaudit.core.engine.ProgressListener;
import io.dpaudit.core.engine.Scorer;
import io.dpaudit.core.estimate.EpsilonLowerBound;
import io.dpaudit.core.fdp.BoundTradeOff;
import io.dpaudit.core.fdp.GaussianTradeOff;
import io.dpaudit.core.fdp.TradeOffFunction;
import io.dpaudit.core.model.AuditableMechanism;
import io.dpaudit.core.model.MechanismSimulator;
import io.dpaudit.core.rng.RandomStreams;
import io.dpaudit.mechanisms.MechanismCatalog;
import io.dpaudit.reports.report.AuditReport;
import io.dpaudit.reports.report.BoundCurve;
import io.dpaudit.reports.report.Format;
import io.dpaudit.reports.report.Looseness;
import io.dpaudit.reports.report.NoiseSaving;
import io.dpaudit.reports.report.ProfileSampling;
import io.dpaudit.reports.report.TradeOffCurve;
import io.dpaudit.reports.scenario.ClaimSpec;
import io.dpaudit.reports.scenario.Scenario;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.TreeSet;

/**
 * Turns a scenario into an audit and its report. {@link #prepare} does all validation (mechanism, simulator,
 * attack, claims, settings) before any trial runs, so bad input fails fast and leaves no output.
 */
public final class ScenarioAudit {
    private static final int CURVE_POINTS = 41;
    private static final double CURVE_EPSILON_CAP = 50.0;
    /** Largest epsilon a scenario's epsilons, claims or empirical bounds may stretch the plotted range to. */
    private static final double STATED_EPSILON_CAP = 1e6;

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
     * @param lossScorer the exact-LLR scorer of the two-sided privacy-loss estimate, or null when none is asked for
     * @param trainable the learned distinguisher that replaces {@code scorer} after training, or null
     * @param trainingTrials outputs per world the learned distinguisher learns from (0 without one)
     */
    public record Prepared(Scenario scenario, AuditableMechanism mechanism, MechanismSimulator simulator,
            Scorer scorer, AuditSettings settings, List<PrivacyBound> bounds, List<Claim> claims,
            List<TradeOffClaim> tradeOffClaims, Scorer lossScorer, TrainableScorer trainable, int trainingTrials) {
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
        long start = System.nanoTime();
        progress.onPhase("prepare", "the mechanism, its simulator and the attack");
        Trials t = prepareTrials(scenario, trials, seed);
        AuditableMechanism mechanism = t.mechanism();
        AuditSettings settings = new AuditSettings(trials, seed, threads, scenario.confidence(),
                scenario.selection(), scenario.histogramBins(), Pilot.DEFAULT_TRIALS,
                MonteCarloEngine.shardTrialsFor(t.simulator().outputLength()), scenario.deltas(), scenario.epsilons(),
                scenario.tradeOff());
        List<PrivacyBound> bounds = mechanism.bounds(progress);
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
        return new Prepared(scenario, mechanism, t.simulator(), t.scorer(), settings, bounds, claims, tradeOffClaims,
                t.lossScorer(), t.trainable(), t.trainingTrials());
    }

    /**
     * What the trials of an audit need, and nothing else (no bounds, no claims): the mechanism, its simulator, the
     * attack and the estimate's loss scorer. A remote worker (a Spark executor) prepares this from the scenario text;
     * {@link #prepare} builds on it.
     *
     * @param mechanism the mechanism
     * @param simulator the simulator that produces outputs
     * @param scorer the attack's scorer, or null when {@code trainable} is given
     * @param trainable the learned distinguisher, or null
     * @param trainingTrials outputs per world it learns from (0 without one)
     * @param lossScorer the estimate's loss scorer, or null
     */
    public record Trials(AuditableMechanism mechanism, MechanismSimulator simulator, Scorer scorer,
            TrainableScorer trainable, int trainingTrials, Scorer lossScorer) {
    }

    /** Builds what the trials need (see {@link Trials}); bad input throws as {@link #prepare} does. */
    public static Trials prepareTrials(Scenario scenario, long trials, long seed) {
        AuditableMechanism mechanism = MechanismCatalog.parse(scenario.mechanism());
        MechanismSimulator simulator = scenario.faithful()
                ? mechanism.faithful(scenario.simulator(), RandomStreams.auxiliary(seed))
                : mechanism.reduced();
        AttackCatalog.Attack attack = AttackCatalog.create("attack", scenario.attack(), simulator,
                !scenario.faithful() && !scenario.estimate());
        if (attack.simulator() != null) {
            simulator = attack.simulator(); // the attack's score drawn from its exact law (nothing else reads outputs)
        }
        Scorer lossScorer = null;
        if (scenario.estimate()) {
            if (simulator.outputModel() == null) {
                throw new InvalidInputException("estimate", true, "the " + mechanism.type() + " simulator states no "
                        + "law of its outputs (a black box), so it has no exact log-likelihood ratio to estimate from");
            }
            lossScorer = LikelihoodRatioAttack.lossScorer(simulator.outputModel());
            if (lossScorer.lossBracket() == null) {
                throw new InvalidInputException("estimate", true, "the " + mechanism.type()
                        + " simulator does not expose an exact log-likelihood ratio to estimate from");
            }
            if (trials < 2) {
                throw new InvalidInputException("trials", trials, "the privacy-loss estimate needs at least 2");
            }
        }
        int training = attack.trainable() == null ? 0
                : io.dpaudit.attacks.BlackBoxAudit.defaultTrainingTrials(trials, simulator.outputLength());
        return new Trials(mechanism, simulator, attack.scorer(), attack.trainable(), training, lossScorer);
    }

    /** Resolves an f-DP claim: {@code mu}-GDP, or a bound's whole trade-off function ({@link BoundTradeOff}). */
    static TradeOffClaim resolveTradeOff(ClaimSpec c, AuditableMechanism mechanism, List<PrivacyBound> bounds) {
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
    static String assumption(ClaimSpec c, AuditableMechanism mechanism) {
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
    static Claim resolve(ClaimSpec c, AuditableMechanism mechanism, List<PrivacyBound> bounds) {
        if (c.bound() == null) {
            String label = c.label() != null ? c.label()
                    : String.format(Locale.ROOT, "(%s, %s)", Checks.format(c.epsilon()), Checks.format(c.delta()));
            return new Claim(label, c.epsilon(), c.delta(), "stated");
        }
        PrivacyBound b = bound(c, mechanism, bounds);
        double eps = c.epsilon();
        double del = c.delta();
        if (Double.isNaN(eps)) {
            eps = PrivacyBound.epsilonAt(b, del); // an AccountingLimitException here is bad input: one line, exit 2
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

    /** Runs a prepared audit and builds its report. */
    public static AuditReport run(Prepared p, ProgressListener progress) {
        return run(p, progress, null, null);
    }

    /**
     * Runs a prepared audit on an engine, keeping phase states in a store (checkpoint and resume), and builds its
     * report.
     *
     * @param engine the engine of the counted phases, or null for the local one
     * @param store phase states to resume from and keep, or null
     */
    public static AuditReport run(Prepared p, ProgressListener progress, io.dpaudit.core.engine.PhaseEngine engine,
            io.dpaudit.core.audit.PhaseStore store) {
        Scorer scorer = p.scorer();
        if (p.trainable() != null) {
            scorer = p.trainable().train(p.simulator(), p.trainingTrials(),
                    RandomStreams.training(p.settings().seed()), progress);
        }
        AuditResult result = Auditor.run(p.simulator(), scorer, p.lossScorer(), p.settings(), p.claims(),
                p.tradeOffClaims(), progress, engine, store);
        return report(p, result, progress);
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
                Format.count(s.trialsPerWorld()), p.lossScorer() != null ? " (and as many for the estimate)" : "",
                s.seed(), s.threads(), p.claims().size() + p.tradeOffClaims().size());
    }

    /** Builds the report of a finished audit. */
    public static AuditReport report(Prepared p, AuditResult result) {
        return report(p, result, ProgressListener.NONE);
    }

    /** Builds the report of a finished audit, reporting the evaluation of each analytic bound as phase "bounds". */
    public static AuditReport report(Prepared p, AuditResult result, ProgressListener progress) {
        List<PrivacyBound> bounds = p.bounds();
        long boundsStart = System.nanoTime();
        List<String> notes = new ArrayList<>();
        if (bounds.isEmpty()) {
            notes.add("No analytic bound in this version applies to " + p.mechanism().type()
                    + " with these parameters; only the empirical lower bounds are reported.");
        }
        double epsMax = 0;
        // Capped so that a claim at eps = 1e308 cannot overflow the curves' grid of eps (the cap is far above any
        // range a shipped scenario plots, so their plots are unchanged).
        for (double e : p.settings().epsilons()) {
            epsMax = Math.max(epsMax, Math.min(STATED_EPSILON_CAP, e));
        }
        for (Claim c : p.claims()) {
            epsMax = Math.max(epsMax, Math.min(STATED_EPSILON_CAP, c.epsilon()));
        }
        for (var e : result.epsilonLowerBounds()) {
            epsMax = Math.max(epsMax, Math.min(STATED_EPSILON_CAP, e.epsilon()));
        }
        long[] spent = new long[bounds.size()]; // per bound: its epsilon at the deltas, then its curve
        for (int i = 0; i < bounds.size(); i++) {
            PrivacyBound b = bounds.get(i);
            long t0 = System.nanoTime();
            progress.onPhase("bounds", String.format(Locale.ROOT, "%d of %d: %s, epsilon at the scenario's deltas "
                    + "(%.1f s so far)", i + 1, bounds.size(), b.name(), (t0 - boundsStart) / 1e9));
            progress.check("bounds, " + b.name());
            // The plot's range: certified bounds and exact curves (claims and empirical bounds are added above);
            // a reconstructed, candidate or known-wrong formula far off to the right would squash the rest.
            boolean sizesPlot = b.certified() || b.kind() == BoundKind.PAIR_PROFILE;
            for (double d : p.settings().deltas()) {
                try {
                    double e = PrivacyBound.epsilonAt(b, d);
                    if (sizesPlot) {
                        epsMax = Math.max(epsMax, Math.min(CURVE_EPSILON_CAP, e));
                    }
                } catch (AccountingLimitException ex) {
                    notes.add(b.name() + " certifies no finite epsilon at delta = " + Checks.format(d) + ": "
                            + ex.getMessage());
                }
            }
            if (!b.certified()) {
                notes.add(b.name() + " is not a certified upper bound: " + b.kind().description() + ".");
            }
            spent[i] += System.nanoTime() - t0;
        }
        notes.addAll(trialWarnings(p));
        notes.addAll(p.mechanism().notes());
        notes.addAll(claimComparisons(p.claims(), bounds));
        epsMax = epsMax > 0 ? 1.15 * epsMax : 1.0;
        List<BoundCurve> curves = new ArrayList<>();
        double floor = plotDeltaFloor(p);
        for (int i = 0; i < bounds.size(); i++) {
            PrivacyBound b = bounds.get(i);
            long t0 = System.nanoTime();
            progress.onPhase("bounds", String.format(Locale.ROOT, "%d of %d: %s, its curve (%.1f s so far)", i + 1,
                    bounds.size(), b.name(), (t0 - boundsStart) / 1e9));
            progress.check("bounds, curve of " + b.name());
            curves.add(curve(b, epsMax, p.settings().deltas(), floor));
            spent[i] += System.nanoTime() - t0;
        }
        progress.onPhase("bounds", "tightness of every bound against the exact curve");
        Looseness looseness = looseness(p, result);
        if (looseness != null) {
            for (Looseness.Share sh : looseness.empirical()) {
                if (sh.epsilonLowerBound() > sh.referenceEpsilon()) {
                    notes.add(String.format(Locale.ROOT, "The empirical epsilon lower bound %.6g at delta = %s "
                            + "exceeds %s = %.6g, the exact curve of the simulated pair: the simulator does not "
                            + "follow the law that curve is computed from (a planted or a real simulator bug), or this "
                            + "lower bound is one of the %s of errors its confidence allows.", sh.epsilonLowerBound(),
                            Checks.format(sh.delta()), looseness.reference(), sh.referenceEpsilon(),
                            Checks.format(1 - p.settings().confidence())));
                }
            }
        }
        String simulator = (p.scenario().faithful() ? "faithful" : "reduced");
        progress.onPhase("bounds", "trade-off curves of the claims and the exact pair");
        List<TradeOffCurve> tradeOffCurves = tradeOffCurves(p, result);
        List<NoiseSaving> savings = noiseSavings(p, result);
        AuditReport report = new AuditReport(ToolInfo.NAME, ToolInfo.version(), p.scenario(), p.mechanism(),
                simulator, result, curves, RandomStreams.description(), ToolInfo.environment(), notes, looseness,
                tradeOffCurves).withNoiseSavings(savings);
        if (!bounds.isEmpty()) {
            progress.onPhase("bounds", String.format(Locale.ROOT, "done in %.1f s%s",
                    (System.nanoTime() - boundsStart) / 1e9, slowest(bounds, spent)));
        }
        return report;
    }

    /** The bounds that took longest (each: its ε at the scenario's δs and its curve), at most three, for progress. */
    private static String slowest(List<PrivacyBound> bounds, long[] spent) {
        Integer[] order = new Integer[bounds.size()];
        for (int i = 0; i < order.length; i++) {
            order[i] = i;
        }
        java.util.Arrays.sort(order, (a, b) -> Long.compare(spent[b], spent[a]));
        StringBuilder b = new StringBuilder();
        for (int k = 0; k < Math.min(3, order.length); k++) {
            if (spent[order[k]] < 100_000_000L) {
                break;
            }
            b.append(k == 0 ? "; slowest: " : ", ").append(bounds.get(order[k]).name()).append(String.format(
                    Locale.ROOT, " %.1f s", spent[order[k]] / 1e9));
        }
        return b.toString();
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
            return List.of(String.format(Locale.ROOT, "Too few trials to resolve delta = %s: %s per world give %.3g "
                    + "expected events at that rate, so the epsilon lower bounds there will be 0 or far below the "
                    + "truth; about %s trials per world (100/delta) would resolve it.", Checks.format(smallest),
                    Format.count(n), n * smallest, Format.count((long) Math.ceil(RECOMMENDED_EVENTS / smallest))));
        }
        return List.of();
    }

    /**
     * For each claim the estimate finds loose, the calibration parameter at which a bound that the estimate finds
     * tight at the claim's δ meets the claim (the smallest-ε such bound among the calibratable ones that certify: upper
     * bounds and exact pair profiles). None when no calibratable bound is tight there, or calibration finds no value.
     */
    static List<NoiseSaving> noiseSavings(Prepared p, AuditResult result) {
        List<NoiseSaving> out = new ArrayList<>();
        if (result.estimate() == null) {
            return out;
        }
        for (ClaimResult c : result.claims()) {
            if (c.estimate().verdict() != EstimateVerdict.LOOSE) {
                continue;
            }
            double delta = c.claim().delta();
            var need = c.estimate().requiredEpsilon();
            BoundFamily best = null;
            double bestEpsilon = Double.POSITIVE_INFINITY;
            for (BoundFamily f : p.mechanism().boundFamilies()) {
                PrivacyBound b = p.bounds().stream().filter(x -> x.name().equals(f.name())).findFirst().orElse(null);
                if (b == null || !(b.certified() || b.kind() == BoundKind.PAIR_PROFILE)) {
                    continue;
                }
                double e = epsilonOrInfinity(b, delta);
                if (e >= need.lower() && e <= need.upper() && e < bestEpsilon) {
                    best = f;
                    bestEpsilon = e;
                }
            }
            if (best == null) {
                continue;
            }
            try {
                double needed = best.calibrate(c.claim().epsilon(), delta);
                out.add(new NoiseSaving(c.claim().label(), best.name(), best.parameter().name(), best.current(),
                        needed));
            } catch (io.dpaudit.core.engine.RunControl.Stopped e) {
                throw e;
            } catch (InvalidInputException e) {
                // no value of the parameter meets the claim under this bound: nothing to report
            }
        }
        return out;
    }

    /**
     * The curves of the trade-off plane: each f-DP claim's {@code f}, the exact curve of the simulated pair (when the
     * mechanism names one), and {@code G_mu} at the certified GDP lower bound.
     */
    static List<TradeOffCurve> tradeOffCurves(Prepared p, AuditResult result) {
        List<TradeOffCurve> out = new ArrayList<>();
        for (TradeOffClaim c : p.tradeOffClaims()) {
            out.add(sample(c.label(), "claim", c.f()));
        }
        PrivacyBound reference = reference(p);
        if (reference != null) {
            out.add(sample(reference.name(), "exact", BoundTradeOff.forDrawing(reference)));
        }
        out.addAll(certifiedMuCurve(result));
        return out;
    }

    /** {@code G_mu} at the certified GDP lower bound, when it is positive (for the trade-off plane). */
    public static List<TradeOffCurve> certifiedMuCurve(AuditResult result) {
        double mu = result.tradeOff().gdpMuLowerBound();
        if (mu > 0) {
            return List.of(sample(String.format(Locale.ROOT, "G_mu at the certified mu >= %.4g", mu),
                    "gdp-lower-bound", new GaussianTradeOff(mu)));
        }
        return List.of();
    }

    private static TradeOffCurve sample(String name, String role, TradeOffFunction f) {
        List<Double> beta = new ArrayList<>();
        for (double a : TradeOffCurve.GRID) {
            beta.add(f.beta(a));
        }
        return new TradeOffCurve(name, role, TradeOffCurve.GRID, beta);
    }

    /**
     * Every bound and the audit against the mechanism's exact curve at the scenario's deltas and its claims', or null
     * when the mechanism names no exact curve (or it does not apply here).
     */
    static Looseness looseness(Prepared p, AuditResult result) {
        PrivacyBound reference = reference(p);
        if (reference == null) {
            return null;
        }
        String name = reference.name();
        TreeSet<Double> deltas = new TreeSet<>(p.settings().deltas());
        for (Claim c : p.claims()) {
            deltas.add(c.delta());
        }
        List<Looseness.Row> rows = new ArrayList<>();
        List<Looseness.Share> shares = new ArrayList<>();
        for (double d : deltas) {
            double exact = epsilonOrInfinity(reference, d);
            for (PrivacyBound b : p.bounds()) {
                if (b != reference) {
                    double e = epsilonOrInfinity(b, d);
                    rows.add(new Looseness.Row(b.name(), d, e, exact, exact > 0 ? e / exact : Double.NaN));
                }
            }
            double lower = Double.NaN;
            for (EpsilonLowerBound e : result.epsilonLowerBounds()) {
                if (e.delta() == d) {
                    lower = e.epsilon();
                }
            }
            for (ClaimResult c : result.claims()) {
                if (c.claim().delta() == d && Double.isNaN(lower)) {
                    lower = c.epsilonLowerBound().epsilon();
                }
            }
            if (!Double.isNaN(lower)) {
                shares.add(new Looseness.Share(d, lower, exact, exact > 0 ? lower / exact : Double.NaN));
            }
        }
        return new Looseness(name, rows, shares);
    }

    /**
     * The exact curve of the simulated pair: the bound the mechanism names ({@link AuditableMechanism#referenceBound}),
     * else one named {@code TYPE-exact}, else the first exact profile of a pair ({@link BoundKind#PAIR_PROFILE}); null
     * when there is none.
     */
    static PrivacyBound reference(Prepared p) {
        String named = p.mechanism().referenceBound();
        String byType = p.mechanism().type() + "-exact";
        for (String n : new String[] {named, byType}) {
            for (PrivacyBound b : p.bounds()) {
                if (b.name().equals(n)) {
                    return b;
                }
            }
        }
        return p.bounds().stream().filter(b -> b.kind() == BoundKind.PAIR_PROFILE).findFirst().orElse(null);
    }

    private static double epsilonOrInfinity(PrivacyBound b, double delta) {
        try {
            return PrivacyBound.epsilonAt(b, delta);
        } catch (AccountingLimitException ex) {
            return Double.POSITIVE_INFINITY;
        }
    }

    /**
     * For each stated claim (one not derived from a bound, e.g. a paper's reported epsilon), what every analytic bound
     * gives at the claim's delta and by how much it differs: the numbers a reader needs to see where a paper's
     * figure comes from.
     */
    static List<String> claimComparisons(List<Claim> claims, List<PrivacyBound> bounds) {
        List<String> out = new ArrayList<>();
        for (Claim c : claims) {
            if (!c.source().equals("stated") || bounds.isEmpty()) {
                continue;
            }
            StringBuilder b = new StringBuilder();
            b.append("Stated claim '").append(c.label()).append("' (epsilon ").append(Checks.format(c.epsilon()))
                    .append(" at delta ").append(Checks.format(c.delta())).append(") against the bounds at that delta:");
            for (PrivacyBound bound : bounds) {
                double e;
                try {
                    e = PrivacyBound.epsilonAt(bound, c.delta());
                } catch (AccountingLimitException ex) {
                    e = Double.POSITIVE_INFINITY;
                }
                b.append(' ').append(bound.name()).append(" = ").append(Double.isFinite(e)
                        ? String.format(Locale.ROOT, "%.4g (%+.1f%%)", e, 100 * (e / c.epsilon() - 1)) : "none")
                        .append(';');
            }
            b.setLength(b.length() - 1);
            out.add(b.append('.').toString());
        }
        return out;
    }

    /**
     * The smallest δ the plot will show, or a little below: three decades under the smallest δ of the scenario and its
     * claims (the plot's own axis goes two decades under the smallest δ it shows), at least 10^-16.
     */
    private static double plotDeltaFloor(Prepared p) {
        double smallest = 1;
        for (double d : p.settings().deltas()) {
            smallest = d > 0 ? Math.min(smallest, d) : smallest;
        }
        for (Claim c : p.claims()) {
            smallest = c.delta() > 0 ? Math.min(smallest, c.delta()) : smallest;
        }
        return Math.pow(10, Math.max(-16, Math.floor(Math.log10(smallest)) - 3));
    }

    private static BoundCurve curve(PrivacyBound b, double epsMax, List<Double> deltas, double deltaFloor) {
        List<BoundCurve.Point> points = new ArrayList<>();
        for (int i = 0; i < CURVE_POINTS; i++) {
            double e = epsMax * i / (CURVE_POINTS - 1);
            points.add(new BoundCurve.Point(e, b.delta(e)));
        }
        List<BoundCurve.Point> atDeltas = new ArrayList<>();
        for (double d : deltas) {
            double e;
            try {
                e = PrivacyBound.epsilonAt(b, d);
            } catch (AccountingLimitException ex) {
                e = Double.POSITIVE_INFINITY; // this bound certifies no finite epsilon at d (reported as "inf")
            }
            atDeltas.add(new BoundCurve.Point(e, d));
        }
        List<BoundCurve.Point> dense = ProfileSampling.refine(b::delta, points, epsMax, deltaFloor);
        return new BoundCurve(b.name(), b.source(), b.kind(), points, atDeltas, dense);
    }
}

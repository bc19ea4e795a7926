package io.dpaudit.reports;

import io.dpaudit.core.Checks;
import io.dpaudit.core.InvalidInputException;
import io.dpaudit.core.ToolInfo;
import io.dpaudit.core.bounds.AccountingLimitException;
import io.dpaudit.core.audit.AuditResult;
import io.dpaudit.core.audit.Claim;
import io.dpaudit.core.audit.ClaimResult;
import io.dpaudit.core.audit.EstimateVerdict;
import io.dpaudit.core.audit.TradeOffClaim;
import io.dpaudit.core.bounds.BoundFamily;
import io.dpaudit.core.bounds.BoundKind;
import io.dpaudit.core.bounds.PrivacyBound;
import io.dpaudit.core.engine.ProgressListener;
import io.dpaudit.core.estimate.EpsilonLowerBound;
import io.dpaudit.core.fdp.BoundTradeOff;
import io.dpaudit.core.fdp.GaussianTradeOff;
import io.dpaudit.core.fdp.TradeOffFunction;
import io.dpaudit.core.rng.RandomStreams;
import io.dpaudit.reports.report.AuditReport;
import io.dpaudit.reports.report.BoundCurve;
import io.dpaudit.reports.report.Format;
import io.dpaudit.reports.report.Looseness;
import io.dpaudit.reports.report.NoiseSaving;
import io.dpaudit.reports.report.ProfileSampling;
import io.dpaudit.reports.report.TradeOffCurve;
import io.dpaudit.runner.ScenarioAudit;
import io.dpaudit.runner.ScenarioAudit.Prepared;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.TreeSet;

/**
 * Assembles the report of an audit from its plain results ({@link AuditResult}) and what was prepared: the analytic
 * bounds' curves and their ε at the scenario's δs, how loose each bound is against the exact curve of the simulated
 * pair, the trade-off curves of the plane, the noise a loose claim could save, and the notes. The writers (JSON,
 * Markdown, HTML, CSV) render the {@link AuditReport} it returns; nothing here runs a trial.
 */
public final class ReportAssembly {
    private static final int CURVE_POINTS = 41;

    private static final double CURVE_EPSILON_CAP = 50.0;

    /** Largest epsilon a scenario's epsilons, claims or empirical bounds may stretch the plotted range to. */
    private static final double STATED_EPSILON_CAP = 1e6;

    /** Runs a prepared audit on the local engine and assembles its report. */
    public static AuditReport run(Prepared p, ProgressListener progress) {
        return run(p, progress, null, null);
    }

    /**
     * Runs a prepared audit on an engine, keeping phase states in a store (checkpoint and resume), and assembles its
     * report.
     *
     * @param engine the engine of the counted phases, or null for the local one
     * @param store phase states to resume from and keep, or null
     */
    public static AuditReport run(Prepared p, ProgressListener progress, io.dpaudit.core.engine.PhaseEngine engine,
            io.dpaudit.core.engine.PhaseStore store) {
        return report(p, ScenarioAudit.audit(p, progress, engine, store), progress);
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
                    notes.add(b.name() + (b.certified() ? " certifies" : " gives") + " no finite epsilon at delta = "
                            + Checks.format(d) + ": " + ex.getMessage());
                }
            }
            if (!b.certified()) {
                notes.add(b.name() + " is not a certified upper bound: " + b.kind().description() + ".");
            }
            spent[i] += System.nanoTime() - t0;
        }
        notes.addAll(ScenarioAudit.trialWarnings(p));
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
                            + "lower bound is one of the %s of errors its confidence allows (audit again with "
                            + "another seed to tell the two apart).", sh.epsilonLowerBound(),
                            Format.g(sh.delta()), looseness.reference(), sh.referenceEpsilon(),
                            Format.percent(1 - p.settings().confidence())));
                }
            }
        }
        String simulator = (p.scenario().faithful() ? "faithful" : "reduced");
        progress.onPhase("bounds", "trade-off curves of the claims and the exact pair");
        List<TradeOffCurve> tradeOffCurves = tradeOffCurves(p, result);
        List<NoiseSaving> savings = noiseSavings(p, result);
        AuditReport report = new AuditReport(ToolInfo.NAME, ToolInfo.version(), p.scenario(), p.mechanism(),
                simulator, result, curves, RandomStreams.description(), ToolInfo.environment(), notes, looseness,
                tradeOffCurves).withNoiseSavings(savings).withPairSearch(p.pairSearch());
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

    /**
     * For each claim the estimate finds loose, the calibration parameter at which a bound that the estimate finds
     * tight at the claim's δ meets the claim (the smallest-ε such bound among the calibratable ones that certify: upper
     * bounds and exact pair profiles). None when no calibratable bound is tight there, or calibration finds no value.
     * {@linkplain BoundFamily#costly() Costly} families are left to {@code dp-audit calibrate}.
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
                if (f.costly()) {
                    continue; // calibrated on request (dp-audit calibrate), not for every report
                }
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
        java.util.Map<Double, Double> exactAt = new java.util.HashMap<>();
        java.util.Map<Double, Double> lowAt = new java.util.HashMap<>();
        for (double d : deltas) {
            // NaN where the accountant refused: an infinite epsilon there is a limit of the computation, not of the
            // pair, and a ratio of 0 would call every bound and claim below the curve
            double exact = epsilonOrNaN(reference, d);
            exactAt.put(d, exact);
            for (PrivacyBound b : p.bounds()) {
                if (b != reference) {
                    double e = epsilonOrInfinity(b, d);
                    double ratio = exact > 0 ? e / exact : Double.NaN;
                    rows.add(new Looseness.Row(b.name(), d, e, exact, bracketIfBelow(lowAt, reference, d, exact, ratio),
                            ratio, belowExact(reference, d, e, ratio)));
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
        List<Looseness.ClaimRow> claims = new ArrayList<>();
        for (ClaimResult c : result.claims()) {
            Double known = exactAt.get(c.claim().delta()); // the claims' deltas are among those above
            double exact = known != null ? known : epsilonOrNaN(reference, c.claim().delta());
            double ratio = exact > 0 ? c.claim().epsilon() / exact : Double.NaN;
            claims.add(new Looseness.ClaimRow(c.claim().label(), c.claim().delta(), c.claim().epsilon(), exact,
                    bracketIfBelow(lowAt, reference, c.claim().delta(), exact, ratio), ratio,
                    belowExact(reference, c.claim().delta(), c.claim().epsilon(), ratio)));
        }
        return new Looseness(name, rows, shares, claims);
    }

    /**
     * {@link #exactEpsilonLowerEnd} at {@code delta} (computed once per δ, in {@code known}) for a row whose ratio is
     * below 1 beyond rounding, NaN for the others: the bracket is only needed where a row may lie below the curve, and
     * for an exact curve composed from profiled steps it takes a composition on a finer grid.
     */
    private static double bracketIfBelow(java.util.Map<Double, Double> known, PrivacyBound reference, double delta,
            double exact, double ratio) {
        if (!Looseness.below(ratio)) {
            return Double.NaN;
        }
        return known.computeIfAbsent(delta, d -> exactEpsilonLowerEnd(reference, d, exact));
    }

    /**
     * The lower end of the exact curve's numerical bracket in ε at {@code delta}: the largest ε found in
     * {@code [0, exact]} ({@link PrivacyBound#epsilonLowerEnd(PrivacyBound, double, double)}) at which the curve's
     * lower end ({@link PrivacyBound#deltaLowerEnd}) still exceeds δ by more than {@link Looseness#EQUAL_WITHIN}
     * relative, so that the exact ε at δ is above it ({@code exact} itself for a
     * curve in closed form, within the bisection's resolution of 1e-7 relative); NaN where the exact ε is not a
     * positive finite number or the lower end cannot be computed.
     */
    static double exactEpsilonLowerEnd(PrivacyBound reference, double delta, double exact) {
        if (!(exact > 0) || !Double.isFinite(exact)) {
            return Double.NaN;
        }
        double target = delta * (1 + Looseness.EQUAL_WITHIN);
        try {
            return PrivacyBound.epsilonLowerEnd(reference, target, exact);
        } catch (AccountingLimitException e) {
            return Double.NaN;
        }
    }

    /**
     * Whether {@code (epsilon, delta)} lies below the exact curve beyond both rounding ({@link Looseness#below}) and
     * the curve's numerical bracket: the exact δ at {@code epsilon}, at least {@code reference.deltaLowerEnd(epsilon)},
     * exceeds δ by more than the same relative {@link Looseness#EQUAL_WITHIN} (a curve that is the bracket's own lower
     * end, inverted with ε rounded down, is not below it). False where the lower end cannot be computed: nothing is
     * called false that the computation cannot show to be.
     */
    static boolean belowExact(PrivacyBound reference, double delta, double epsilon, double ratio) {
        if (!Looseness.below(ratio) || !(epsilon >= 0) || !Double.isFinite(epsilon)) {
            return false;
        }
        try {
            return reference.deltaLowerEnd(epsilon) > delta * (1 + Looseness.EQUAL_WITHIN);
        } catch (AccountingLimitException e) {
            return false;
        }
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

    private static double epsilonOrNaN(PrivacyBound b, double delta) {
        try {
            return PrivacyBound.epsilonAt(b, delta);
        } catch (AccountingLimitException ex) {
            return Double.NaN;
        }
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
                    .append(" at delta ").append(Format.g(c.delta())).append(") against the bounds at that delta:");
            for (PrivacyBound bound : bounds) {
                double e;
                try {
                    e = PrivacyBound.epsilonAt(bound, c.delta());
                } catch (AccountingLimitException ex) {
                    e = Double.POSITIVE_INFINITY;
                }
                String relative = c.epsilon() > 0 // no percentage of a claimed epsilon of 0
                        ? String.format(Locale.ROOT, " (%+.1f%%)", 100 * (e / c.epsilon() - 1)) : "";
                b.append(' ').append(bound.name()).append(" = ").append(Double.isFinite(e)
                        ? String.format(Locale.ROOT, "%.4g", e) + relative : "none").append(';');
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

    /**
     * A bound's curve for the plot and curves.csv: {@value #CURVE_POINTS} points evenly spaced in ε, refined where steep
     * ({@link ProfileSampling}), all evaluated through {@link PrivacyBound#deltas} — for an accountant one pass over
     * its distribution per call, an upper bound on δ within its round-off allowance (at most 1e-9 above the tilted
     * point query, under 1% where δ ≥ 1e-8 on every shipped scenario; the PLD's curve went from 19.5 s to under a
     * second on seed 003's Shakespeare setting); on a plot that reaches below 1e-8, values under 1e-6 come from the
     * precise point query — and the bound's ε at the scenario's δs by its own exact inversion.
     */
    private static BoundCurve curve(PrivacyBound b, double epsMax, List<Double> deltas, double deltaFloor) {
        double[] grid = new double[CURVE_POINTS];
        for (int i = 0; i < CURVE_POINTS; i++) {
            grid[i] = epsMax * i / (CURVE_POINTS - 1);
        }
        // Where the plot reaches below 1e-8 (a scenario about δ under 1e-5), values under 1e-6 are re-evaluated by the
        // bound's precise point query, since the one-pass value may sit up to 1e-9 above it there.
        boolean deepPlot = deltaFloor < 1e-8;
        java.util.function.DoubleUnaryOperator one = e -> {
            double v;
            try {
                v = b.deltas(new double[] {e})[0];
            } catch (AccountingLimitException ex) {
                return b.delta(e);
            }
            return deepPlot && v < 1e-6 ? b.delta(e) : v;
        };
        double[] values;
        try {
            values = b.deltas(grid);
            for (int i = 0; i < grid.length; i++) {
                if (deepPlot && values[i] < 1e-6) {
                    values[i] = b.delta(grid[i]);
                }
            }
        } catch (AccountingLimitException ex) {
            values = new double[grid.length];
            for (int i = 0; i < grid.length; i++) {
                values[i] = b.delta(grid[i]);
            }
        }
        List<BoundCurve.Point> points = new ArrayList<>();
        for (int i = 0; i < CURVE_POINTS; i++) {
            points.add(new BoundCurve.Point(grid[i], values[i]));
        }
        List<BoundCurve.Point> atDeltas = new ArrayList<>();
        for (double d : deltas) {
            double e;
            try {
                e = PrivacyBound.epsilonAt(b, d);
            } catch (AccountingLimitException ex) {
                // An upper bound (or a claimed formula) that certifies no finite epsilon at d: "inf". A curve that is a
                // lower bound on the worst case (an exact pair profile, a proven lower bound) that could not be
                // computed there has no value: NaN, shown as "not computed" (an infinity would claim more than it saw).
                e = b.kind() == BoundKind.PAIR_PROFILE || b.kind() == BoundKind.LOWER_BOUND ? Double.NaN
                        : Double.POSITIVE_INFINITY;
            }
            atDeltas.add(new BoundCurve.Point(e, d));
        }
        List<BoundCurve.Point> dense = ProfileSampling.refine(one, points, epsMax, deltaFloor);
        return new BoundCurve(b.name(), b.source(), b.kind(), points, atDeltas, dense);
    }

    private ReportAssembly() {
    }
}

package io.dpaudit.runner.analysis;

import io.dpaudit.core.Checks;
import io.dpaudit.core.audit.AuditResult;
import io.dpaudit.core.audit.Claim;
import io.dpaudit.core.bounds.AccountingLimitException;
import io.dpaudit.core.bounds.BoundKind;
import io.dpaudit.core.bounds.PrivacyBound;
import io.dpaudit.core.engine.ProgressListener;
import io.dpaudit.runner.ScenarioAudit;
import io.dpaudit.runner.ScenarioAudit.Prepared;
import io.dpaudit.runner.text.Format;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;
import java.util.function.DoubleUnaryOperator;

/**
 * The analytic findings of an audit: each bound's curve and its ε at the scenario's δs, the looseness against the
 * exact curve of the simulated pair, the trade-off plane, the noise a loose claim could save, and the notes. Reports
 * progress as phase "bounds"; runs no trial.
 */
final class BoundAnalysis {
    private static final int CURVE_POINTS = 41;

    private static final double CURVE_EPSILON_CAP = 50.0;

    /** Largest epsilon a scenario's epsilons, claims or empirical bounds may stretch the plotted range to. */
    private static final double STATED_EPSILON_CAP = 1e6;

    /** The findings of a finished audit, reporting the evaluation of each analytic bound as phase "bounds". */
    static Findings of(Prepared p, AuditResult result, ProgressListener progress) {
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
        Looseness looseness = LoosenessAnalysis.looseness(p, result);
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
        progress.onPhase("bounds", "trade-off curves of the claims and the exact pair");
        List<TradeOffCurve> tradeOffCurves = TradeOffCurves.of(p, result);
        List<NoiseSaving> savings = NoiseSavings.of(p, result);
        if (!bounds.isEmpty()) {
            progress.onPhase("bounds", String.format(Locale.ROOT, "done in %.1f s%s",
                    (System.nanoTime() - boundsStart) / 1e9, slowest(bounds, spent)));
        }
        return new Findings(curves, looseness, tradeOffCurves, savings, notes);
    }

    /** The bounds that took longest (each: its ε at the scenario's δs and its curve), at most three, for progress. */
    private static String slowest(List<PrivacyBound> bounds, long[] spent) {
        Integer[] order = new Integer[bounds.size()];
        for (int i = 0; i < order.length; i++) {
            order[i] = i;
        }
        Arrays.sort(order, (a, b) -> Long.compare(spent[b], spent[a]));
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
        DoubleUnaryOperator one = e -> {
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

    private BoundAnalysis() {
    }
}

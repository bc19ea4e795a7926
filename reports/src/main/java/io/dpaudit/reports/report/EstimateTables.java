package io.dpaudit.reports.report;

import io.dpaudit.runner.analysis.BoundCurve;
import io.dpaudit.core.audit.ClaimResult;
import io.dpaudit.core.bounds.BoundKind;
import io.dpaudit.core.estimate.profile.PrivacyLossEstimate;
import java.util.ArrayList;
import java.util.List;
import java.util.TreeSet;

/**
 * What the reports show of a two-sided privacy-loss estimate: a thinned list of its δ(ε) intervals, its ε(δ)
 * intervals at the scenario's and the claims' δ, and a tightness table that places every analytic bound against it.
 */
public final class EstimateTables {
    /** Every how many grid points a δ(ε) interval is listed (the scenario's and claims' ε are always listed). */
    static final int THIN = 10;

    private EstimateTables() {
    }

    /**
     * A bound's ε at one δ against the estimate's interval for the true ε(δ) of the simulated pair.
     *
     * @param bound the bound's name
     * @param kind the bound's kind (upper bound, approximation, pair profile, known-wrong)
     * @param delta δ
     * @param epsilon the bound's ε at δ ({@code +inf} when it certifies none)
     * @param lower the estimate's lower end for ε(δ)
     * @param upper the estimate's upper end for ε(δ)
     * @param verdict {@code violated} (a certified upper bound below the lower end: it is false on this pair),
     *     {@code below} (any other kind below the lower end: an approximation, or the profile of another pair, or a
     *     lower bound), {@code above} (a lower bound above the upper end: a wrong bound, or the simulated pair is not
     *     the one it bounds),
     *     {@code tight} (inside), {@code loose} (above the upper end)
     * @param factor {@code epsilon / upper}: the bound is loose by at least this factor (NaN unless loose)
     */
    public record Row(String bound, BoundKind kind, double delta, double epsilon, double lower, double upper,
            String verdict, double factor) {
    }

    /** The δ(ε) intervals shown: every {@value #THIN}th grid point, and the scenario's and the claims' ε. */
    public static List<PrivacyLossEstimate.DeltaInterval> shownPoints(AuditReport r) {
        PrivacyLossEstimate e = r.result().estimate();
        TreeSet<Double> wanted = new TreeSet<>(r.result().settings().epsilons());
        for (ClaimResult c : r.result().claims()) {
            wanted.add(c.claim().epsilon());
        }
        List<PrivacyLossEstimate.DeltaInterval> out = new ArrayList<>();
        List<PrivacyLossEstimate.DeltaInterval> grid = e.grid();
        for (int i = 0; i < grid.size(); i++) {
            PrivacyLossEstimate.DeltaInterval d = grid.get(i);
            if (i % THIN == 0 || i == grid.size() - 1 || wanted.contains(d.epsilon())) {
                out.add(d);
            }
        }
        return out;
    }

    /** The ε(δ) intervals at the scenario's δ and the claims', ascending in δ. */
    public static List<PrivacyLossEstimate.EpsilonInterval> epsilonAtDeltas(AuditReport r) {
        TreeSet<Double> deltas = new TreeSet<>(r.result().settings().deltas());
        for (ClaimResult c : r.result().claims()) {
            deltas.add(c.claim().delta());
        }
        List<PrivacyLossEstimate.EpsilonInterval> out = new ArrayList<>();
        for (double d : deltas) {
            out.add(r.result().estimate().epsilonAt(d));
        }
        return out;
    }

    /** Largest ratio of the ε interval's ends at which a bound inside it is called tight. */
    static final double INFORMATIVE_RATIO = 2;

    /**
     * Whether an ε interval can call a bound inside it tight: a positive lower end and a finite upper end at most
     * {@value #INFORMATIVE_RATIO} times it (an interval like [0, ∞] or [0, 1.7] contains every bound and says nothing).
     */
    static boolean informative(PrivacyLossEstimate.EpsilonInterval at) {
        return at.lower() > 0 && Double.isFinite(at.upper()) && at.upper() <= INFORMATIVE_RATIO * at.lower();
    }

    /**
     * Whether the report's simulated pair is only a lower-bound pair of its mechanism (the shuffle's): its estimate
     * then bounds the mechanism's curve from below only.
     */
    public static boolean pairFromBelow(AuditReport r) {
        return !r.outcome().mechanism().simulatedPairIsWorstCase();
    }

    /** One row per bound and scenario δ. */
    public static List<Row> tightness(AuditReport r) {
        PrivacyLossEstimate e = r.result().estimate();
        boolean pairFromBelow = pairFromBelow(r);
        List<Row> rows = new ArrayList<>();
        for (BoundCurve c : r.bounds()) {
            for (BoundCurve.Point p : c.epsilonAtDeltas()) {
                if (Double.isNaN(p.epsilon())) {
                    continue; // a curve that could not be computed at this δ has nothing to compare
                }
                PrivacyLossEstimate.EpsilonInterval at = e.epsilonAt(p.delta());
                String verdict;
                double factor = Double.NaN;
                if (c.kind() == BoundKind.LOWER_BOUND) {
                    // A lower bound on the worst case: below the pair's curve is expected, above it is either a wrong
                    // bound or a pair that is not the worst case (said, not judged).
                    verdict = p.epsilon() > at.upper() ? "above" : p.epsilon() < at.lower() ? "below"
                            : informative(at) ? "tight" : "inconclusive";
                } else if (p.epsilon() < at.lower()) {
                    // False only for a certified upper bound; an approximation or another pair's profile may be below.
                    verdict = c.certified() ? "violated" : "below";
                } else if (p.epsilon() <= at.upper()) {
                    verdict = informative(at) ? "tight" : "inconclusive";
                } else if (pairFromBelow) {
                    // the pair's curve is below the mechanism's: a bound above it is not refuted, nor shown loose
                    verdict = "above-lower-pair";
                } else {
                    verdict = "loose";
                    factor = at.upper() > 0 ? p.epsilon() / at.upper() : Double.POSITIVE_INFINITY;
                }
                rows.add(new Row(c.name(), c.kind(), p.delta(), p.epsilon(), at.lower(), at.upper(), verdict, factor));
            }
        }
        return rows;
    }
}

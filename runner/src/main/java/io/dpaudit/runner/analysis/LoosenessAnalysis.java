package io.dpaudit.runner.analysis;

import io.dpaudit.core.audit.AuditResult;
import io.dpaudit.core.audit.Claim;
import io.dpaudit.core.audit.ClaimResult;
import io.dpaudit.core.bounds.AccountingLimitException;
import io.dpaudit.core.bounds.BoundKind;
import io.dpaudit.core.bounds.PrivacyBound;
import io.dpaudit.core.estimate.EpsilonLowerBound;
import io.dpaudit.runner.ScenarioAudit.Prepared;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeSet;

/**
 * How loose every analytic bound, claim and empirical lower bound is against the exact curve of the simulated pair
 * ({@link Looseness}), with the exact curve's own numerical bracket deciding what lies below it.
 */
final class LoosenessAnalysis {
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
        Map<Double, Double> exactAt = new HashMap<>();
        Map<Double, Double> lowAt = new HashMap<>();
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
    private static double bracketIfBelow(Map<Double, Double> known, PrivacyBound reference, double delta,
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
     * The exact curve of the simulated pair: the bound the mechanism names ({@link io.dpaudit.core.model.AuditableMechanism#referenceBound}),
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

    static double epsilonOrInfinity(PrivacyBound b, double delta) {
        try {
            return PrivacyBound.epsilonAt(b, delta);
        } catch (AccountingLimitException ex) {
            return Double.POSITIVE_INFINITY;
        }
    }

    private LoosenessAnalysis() {
    }
}

package io.dpaudit.runner.analysis;

import io.dpaudit.runner.text.Format;
import java.util.List;

/**
 * How loose each bound is against the exact privacy curve of the simulated pair, and what share of that curve the
 * audit recovered: at each δ of the scenario (its requested δ values and its claims'), {@code ratio = ε_bound /
 * ε_exact} and {@code share = ε_lower bound / ε_exact}. A ratio below 1 for a bound that claims to hold for every
 * dataset means the bound is false on this pair, and so is an (ε, δ) claim below the curve; ratios within
 * {@value #EQUAL_WITHIN} of 1 count as equal, because the two curves come from different numerical methods (seed 000's
 * Theorem 4.1 and the exact profile of its aligned configuration agree to about 1e-8 and printed "1.000 (below the
 * exact curve)" before this tolerance). An exact curve composed by an accountant lies above the truth by its
 * discretisation, so a ratio further below 1 is called below the curve ({@code belowExact}) only where it is also below
 * the curve's numerical bracket: the exact curve's lower end ({@code PrivacyBound.deltaLowerEnd}) at the bound's ε
 * exceeds δ. Seed 002's shipped Figure E1 printed four correct bounds, one of them a certified upper bound, as "1.000
 * (below the exact curve)" (ratio 0.99997, a PLD composition of 8 steps on a coarser grid) before this bracket.
 *
 * @param reference the name of the exact curve
 * @param rows one per bound (other than the reference) and δ
 * @param empirical one per δ at which the audit reports an ε lower bound
 * @param claims one per (ε, δ) claim: its ε against the exact curve's at its δ
 */
public record Looseness(String reference, List<Row> rows, List<Share> empirical, List<ClaimRow> claims) {
    /** Relative difference from the exact curve within which a curve or claim counts as equal to it. */
    public static final double EQUAL_WITHIN = 1e-6;

    /**
     * A claim at most this fraction of the exact curve's ε is named in the claims section as false on the pair: a
     * margin beyond the discretisation of the accountants that compose some exact curves over rounds or steps, which
     * round up (1.2% for seed 001's dss-SGD over 100 rounds, 2.8% for balls-and-bins' PLD bracket at 1000 steps).
     */
    public static final double CLEARLY_BELOW = 0.9;

    /**
     * Whether {@code ratio} (ε over the exact ε) puts a bound or claim below the exact curve as computed, beyond
     * floating-point rounding. For a curve composed by an accountant (rounded up) a ratio just below 1 may be that
     * rounding; {@link #CLEARLY_BELOW} is the margin the claims section uses.
     */
    public static boolean below(double ratio) {
        return ratio < 1 - EQUAL_WITHIN;
    }

    /**
     * What a ratio's cell says after the number: nothing, that it lies below the exact curve, or that it lies below
     * the curve as computed but within the curve's numerical bracket.
     */
    public static String mark(double ratio, boolean belowExact) {
        return belowExact ? "below the exact curve" : below(ratio) ? "within the exact curve's numerical error" : "";
    }

    /**
     * {@link #mark} with the exact curve's bracket in ε where the mark is "within": {@code "within the exact curve's
     * numerical error: its ε lies in [low, exact]"}.
     */
    public static String mark(double ratio, boolean belowExact, double exactLow, double exact) {
        String m = mark(ratio, belowExact);
        return belowExact || m.isEmpty() || Double.isNaN(exactLow) ? m : m + ": its ε lies in [" + Format.g(exactLow)
                + ", " + Format.g(exact) + "]";
    }

    /**
     * @param label the claim's label
     * @param delta the claim's δ
     * @param epsilon the claim's ε
     * @param referenceEpsilon the exact curve's ε at the claim's δ
     * @param referenceEpsilonLowerEnd the lower end of the exact curve's numerical bracket in ε at δ (NaN: none)
     * @param ratio {@code epsilon / referenceEpsilon} (NaN when the exact ε is 0)
     * @param belowExact whether the claim lies below the exact curve beyond its numerical bracket (false on the pair)
     */
    public record ClaimRow(String label, double delta, double epsilon, double referenceEpsilon,
            double referenceEpsilonLowerEnd, double ratio, boolean belowExact) {
    }

    /**
     * @param bound the bound's name
     * @param delta δ
     * @param epsilon the bound's ε at δ ({@code +inf} when it certifies none)
     * @param referenceEpsilon the exact curve's ε at δ
     * @param referenceEpsilonLowerEnd the lower end of the exact curve's numerical bracket in ε at δ (NaN: none)
     * @param ratio {@code epsilon / referenceEpsilon} (NaN when the exact ε is 0)
     * @param belowExact whether the bound lies below the exact curve beyond its numerical bracket
     */
    public record Row(String bound, double delta, double epsilon, double referenceEpsilon,
            double referenceEpsilonLowerEnd, double ratio, boolean belowExact) {
    }

    /**
     * @param delta δ
     * @param epsilonLowerBound the audit's empirical ε lower bound at δ
     * @param referenceEpsilon the exact curve's ε at δ
     * @param share {@code epsilonLowerBound / referenceEpsilon} (NaN when the exact ε is 0)
     */
    public record Share(double delta, double epsilonLowerBound, double referenceEpsilon, double share) {
    }

    /**
     * One sentence naming the claims at most {@link #CLEARLY_BELOW} of the exact curve, for the claims section and the
     * console ({@code markdown} puts the curve's name in code quotes); empty when there is no such claim or no exact
     * curve.
     */
    public static String claimsBelow(Looseness l, boolean markdown) {
        if (l == null) {
            return "";
        }
        List<String> below = new java.util.ArrayList<>();
        for (ClaimRow c : l.claims()) {
            if (c.belowExact() && c.ratio() <= CLEARLY_BELOW) {
                below.add(c.label() + " (ε = " + Format.g(c.epsilon()) + " where the pair needs " + Format.g(
                        c.referenceEpsilon()) + " at δ = " + Format.g(c.delta()) + ")");
            }
        }
        if (below.isEmpty()) {
            return "";
        }
        String q = markdown ? "`" : "";
        return "Below the exact curve of the simulated pair (" + q + l.reference() + q + ", computed, not sampled) by "
                + "more than 10%: " + String.join("; ", below) + ". " + (below.size() == 1 ? "Such a claim is"
                        : "Such claims are") + " false on this pair whatever the verdict (the margin exceeds the "
                + "curve's numerical error; see How loose).";
    }

    public Looseness {
        rows = List.copyOf(rows);
        empirical = List.copyOf(empirical);
        claims = List.copyOf(claims);
    }
}

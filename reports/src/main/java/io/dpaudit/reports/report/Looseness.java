package io.dpaudit.reports.report;

import java.util.List;

/**
 * How loose each bound is against the exact privacy curve of the simulated pair, and what share of that curve the
 * audit recovered: at each δ of the scenario (its requested δ values and its claims'), {@code ratio = ε_bound /
 * ε_exact} and {@code share = ε_lower bound / ε_exact}. A ratio below 1 for a bound that claims to hold for every
 * dataset means the bound is false on this pair.
 *
 * @param reference the name of the exact curve
 * @param rows one per bound (other than the reference) and δ
 * @param empirical one per δ at which the audit reports an ε lower bound
 */
public record Looseness(String reference, List<Row> rows, List<Share> empirical) {
    /**
     * @param bound the bound's name
     * @param delta δ
     * @param epsilon the bound's ε at δ ({@code +inf} when it certifies none)
     * @param referenceEpsilon the exact curve's ε at δ
     * @param ratio {@code epsilon / referenceEpsilon} (NaN when the exact ε is 0)
     */
    public record Row(String bound, double delta, double epsilon, double referenceEpsilon, double ratio) {
    }

    /**
     * @param delta δ
     * @param epsilonLowerBound the audit's empirical ε lower bound at δ
     * @param referenceEpsilon the exact curve's ε at δ
     * @param share {@code epsilonLowerBound / referenceEpsilon} (NaN when the exact ε is 0)
     */
    public record Share(double delta, double epsilonLowerBound, double referenceEpsilon, double share) {
    }

    public Looseness {
        rows = List.copyOf(rows);
        empirical = List.copyOf(empirical);
    }
}

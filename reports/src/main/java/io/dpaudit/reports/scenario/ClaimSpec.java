package io.dpaudit.reports.scenario;

/**
 * A claim as written in a scenario. Privacy-profile claims: an explicit {@code (epsilon, delta)} pair, or the name of
 * an analytic bound with exactly one of {@code epsilon} and {@code delta} (the other is computed from the bound).
 * f-DP claims ({@code tradeOff} true): {@code {"gdpMu": mu}} ({@code mu}-GDP) or {@code {"bound": NAME, "kind":
 * "trade-off"}} (the bound's whole trade-off function).
 *
 * @param label name shown in reports (defaults to a description of the claim)
 * @param bound name of an analytic bound, or null for an explicit pair or a GDP claim
 * @param epsilon claimed ε, or NaN when it is to be computed from the bound (or for an f-DP claim)
 * @param delta claimed δ, or NaN when it is to be computed from the bound (or for an f-DP claim)
 * @param field the claim's field path in the scenario, for messages (e.g. {@code claims[1]})
 * @param tradeOff whether this is an f-DP claim
 * @param gdpMu the claimed GDP {@code mu}, or NaN
 */
public record ClaimSpec(String label, String bound, double epsilon, double delta, String field, boolean tradeOff,
        double gdpMu) {
    /** A privacy-profile claim. */
    public ClaimSpec(String label, String bound, double epsilon, double delta, String field) {
        this(label, bound, epsilon, delta, field, false, Double.NaN);
    }
}

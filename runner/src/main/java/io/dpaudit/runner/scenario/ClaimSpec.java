package io.dpaudit.runner.scenario;

import io.dpaudit.core.model.Parameters;

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
 * @param assuming for a bound claim, mechanism parameters that differ from the run's ({@code "assuming": {"sigma": 1}}):
 *     the bound is evaluated for the mechanism as someone claimed it to be — the noise, sampling rate or sensitivity
 *     an accountant was given — while the audit runs the mechanism as it is; null when the claim is about the run's
 *     own parameters
 */
public record ClaimSpec(String label, String bound, double epsilon, double delta, String field, boolean tradeOff,
        double gdpMu, Parameters assuming) {
    /** A privacy-profile claim. */
    public ClaimSpec(String label, String bound, double epsilon, double delta, String field) {
        this(label, bound, epsilon, delta, field, false, Double.NaN, null);
    }

    /** A claim without parameter overrides. */
    public ClaimSpec(String label, String bound, double epsilon, double delta, String field, boolean tradeOff,
            double gdpMu) {
        this(label, bound, epsilon, delta, field, tradeOff, gdpMu, null);
    }
}

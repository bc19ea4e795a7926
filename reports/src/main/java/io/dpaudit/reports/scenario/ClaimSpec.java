package io.dpaudit.reports.scenario;

/**
 * A claim as written in a scenario: an explicit {@code (epsilon, delta)} pair, or the name of an analytic bound with
 * exactly one of {@code epsilon} and {@code delta} (the other is computed from the bound).
 *
 * @param label name shown in reports (defaults to a description of the claim)
 * @param bound name of an analytic bound, or null for an explicit pair
 * @param epsilon claimed ε, or NaN when it is to be computed from the bound
 * @param delta claimed δ, or NaN when it is to be computed from the bound
 * @param field the claim's field path in the scenario, for messages (e.g. {@code claims[1]})
 */
public record ClaimSpec(String label, String bound, double epsilon, double delta, String field) {
}

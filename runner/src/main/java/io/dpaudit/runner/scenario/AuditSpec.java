package io.dpaudit.runner.scenario;

import io.dpaudit.core.audit.AuditSettings;
import io.dpaudit.core.audit.Stopping;
import io.dpaudit.core.estimate.ThresholdSelection;
import java.util.List;

/**
 * How a scenario is audited, apart from what (its mechanism) and against what (its claims).
 *
 * @param trials trials per world (a sequential audit's budget)
 * @param seed root seed
 * @param confidence confidence of bounds and verdicts
 * @param selection threshold-selection method
 * @param histogramBins interior histogram bins
 * @param deltas δ values for ε lower bounds
 * @param epsilons ε values for δ lower bounds
 * @param tradeOff how the empirical trade-off curve is certified ({@code tradeOff: {method, grid}})
 * @param estimate the two-sided privacy-loss estimate, if asked for
 * @param stopping when the audit stops ({@code "stopping": {"rule": "fixed" | "sequential", "maxTrials": N,
 *        "firstStageTrials": n}})
 */
public record AuditSpec(long trials, long seed, double confidence, ThresholdSelection selection, int histogramBins,
        List<Double> deltas, List<Double> epsilons, AuditSettings.TradeOffSettings tradeOff, EstimateSpec estimate,
        Stopping stopping) {

    public AuditSpec {
        deltas = List.copyOf(deltas);
        epsilons = List.copyOf(epsilons);
    }

    /** The same with other trials and stopping rule. */
    public AuditSpec withStopping(Stopping rule, long budget) {
        return new AuditSpec(budget, seed, confidence, selection, histogramBins, deltas, epsilons, tradeOff, estimate,
                rule);
    }

    /** The same with another estimate. */
    public AuditSpec withEstimate(EstimateSpec e) {
        return new AuditSpec(trials, seed, confidence, selection, histogramBins, deltas, epsilons, tradeOff, e,
                stopping);
    }

    /**
     * The two-sided privacy-loss estimate ({@code "estimate": true} or an object).
     *
     * @param enabled whether to add it
     * @param method {@code auto} (importance sampling when the mechanism's densities allow it and the smallest δ asked
     *        about is below 100/N, else plain), {@code plain} or {@code importance} ({@code "estimate": {"method":
     *        ...}})
     * @param samples importance samples per target and direction ({@code "estimate": {"samples": ...}}), 0 for the
     *        default
     */
    public record EstimateSpec(boolean enabled, String method, long samples) {
        /** No estimate (its method automatic if one is added). */
        public static final EstimateSpec NONE = new EstimateSpec(false, "auto", 0);
    }
}

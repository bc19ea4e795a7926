package io.dpaudit.runner.scenario;

import com.fasterxml.jackson.databind.JsonNode;
import io.dpaudit.core.audit.AuditSettings;
import io.dpaudit.core.audit.Stopping;
import io.dpaudit.core.estimate.ThresholdSelection;
import io.dpaudit.core.model.Parameters;
import java.util.List;

/**
 * A validated scenario file.
 *
 * @param source the input as read (echoed into reports)
 * @param name scenario name (file name without extension when absent)
 * @param description free text, may be empty
 * @param mechanism the mechanism's parameters, including {@code type}
 * @param simulator simulator options; {@code kind} is {@code reduced} (default) or {@code faithful}
 * @param attack attack name
 * @param trials trials per world
 * @param seed root seed
 * @param confidence confidence of bounds and verdicts
 * @param selection threshold-selection method
 * @param histogramBins interior histogram bins
 * @param deltas δ values for ε lower bounds
 * @param epsilons ε values for δ lower bounds
 * @param claims claims to audit
 * @param tradeOff how the empirical trade-off curve is certified ({@code tradeOff: {method, grid}})
 * @param estimate whether to add the two-sided privacy-loss estimate ({@code "estimate": true} or an object)
 * @param estimateMethod how to estimate: {@code auto} (importance sampling when the mechanism's densities allow it and
 *        the smallest δ asked about is below 100/N, else plain), {@code plain} or {@code importance}
 *        ({@code "estimate": {"method": ...}})
 * @param estimateSamples importance samples per target and direction ({@code "estimate": {"samples": ...}}), 0 for
 *        the default
 * @param stopping when the audit stops ({@code "stopping": {"rule": "fixed" | "sequential", "maxTrials": N,
 *        "firstStageTrials": n}}); a sequential audit's budget is {@code trials}
 */
public record Scenario(JsonNode source, String name, String description, Parameters mechanism,
        Parameters simulator, String attack, long trials, long seed, double confidence,
        ThresholdSelection selection, int histogramBins, List<Double> deltas, List<Double> epsilons,
        List<ClaimSpec> claims, AuditSettings.TradeOffSettings tradeOff, boolean estimate, String estimateMethod,
        long estimateSamples, Stopping stopping) {
    /** The estimate's methods ({@code estimate.method}). */
    public static final List<String> ESTIMATE_METHODS = List.of("auto", "plain", "importance");

    /** A scenario whose estimate, if any, picks its method automatically. */
    public Scenario(JsonNode source, String name, String description, Parameters mechanism, Parameters simulator,
            String attack, long trials, long seed, double confidence, ThresholdSelection selection,
            int histogramBins, List<Double> deltas, List<Double> epsilons, List<ClaimSpec> claims,
            AuditSettings.TradeOffSettings tradeOff, boolean estimate) {
        this(source, name, description, mechanism, simulator, attack, trials, seed, confidence, selection,
                histogramBins, deltas, epsilons, claims, tradeOff, estimate, "auto", 0, Stopping.FIXED);
    }

    /** Whether the faithful simulator is requested. */
    public boolean faithful() {
        return "faithful".equals(simulator.text("kind", "reduced"));
    }

    /**
     * Whether both worlds of each trial run on common random numbers ({@code simulator.coupling}
     * {@code "common-random-numbers"}; black-box mechanisms only).
     */
    public boolean coupled() {
        return ScenarioReader.COMMON_RANDOM_NUMBERS.equals(simulator.text("coupling", ScenarioReader.INDEPENDENT));
    }

    /** A copy with other mechanism parameters (a pair search's chosen pair). */
    public Scenario withMechanism(Parameters other) {
        return new Scenario(source, name, description, other, simulator, attack, trials, seed, confidence, selection,
                histogramBins, deltas, epsilons, claims, tradeOff, estimate, estimateMethod, estimateSamples,
                stopping);
    }

    /** A copy with another importance-sampling budget per target and direction ({@code estimate.samples}). */
    public Scenario withEstimateSamples(long samples) {
        return new Scenario(source, name, description, mechanism, simulator, attack, trials, seed, confidence,
                selection, histogramBins, deltas, epsilons, claims, tradeOff, estimate, estimateMethod, samples,
                stopping);
    }

    /**
     * A copy that stops by {@code rule} with {@code budget} trials per world (the command line's
     * {@code --until-resolved} and {@code --max-trials}).
     */
    public Scenario withStopping(Stopping rule, long budget) {
        return new Scenario(source, name, description, mechanism, simulator, attack, budget, seed, confidence,
                selection, histogramBins, deltas, epsilons, claims, tradeOff, estimate, estimateMethod,
                estimateSamples, rule);
    }

    /** A copy that asks for the two-sided privacy-loss estimate (the command line's {@code --estimate}). */
    public Scenario withEstimate() {
        return new Scenario(source, name, description, mechanism, simulator, attack, trials, seed, confidence,
                selection, histogramBins, deltas, epsilons, claims, tradeOff, true, estimateMethod, estimateSamples,
                stopping);
    }
}

package io.dpaudit.runner.scenario;

import com.fasterxml.jackson.databind.JsonNode;
import io.dpaudit.core.audit.AuditSettings;
import io.dpaudit.core.audit.Stopping;
import io.dpaudit.core.estimate.ThresholdSelection;
import io.dpaudit.core.model.Parameters;
import java.util.List;

/**
 * A validated scenario file: what is audited (the mechanism, its simulator and attack), how ({@link AuditSpec}), and
 * against what (the claims).
 *
 * @param source the input as read (echoed into reports)
 * @param name scenario name (file name without extension when absent)
 * @param description free text, may be empty
 * @param mechanism the mechanism's parameters, including {@code type}
 * @param simulator simulator options; {@code kind} is {@code reduced} (default) or {@code faithful}
 * @param attack attack name
 * @param audit trials, seed, confidence, selection, histogram, δs and εs, trade-off, estimate and stopping rule
 * @param claims claims to audit
 */
public record Scenario(JsonNode source, String name, String description, Parameters mechanism,
        Parameters simulator, String attack, AuditSpec audit, List<ClaimSpec> claims) {
    /** The estimate's methods ({@code estimate.method}). */
    public static final List<String> ESTIMATE_METHODS = List.of("auto", "plain", "importance");

    public Scenario {
        claims = List.copyOf(claims);
    }

    /** Trials per world (a sequential audit's budget). */
    public long trials() {
        return audit.trials();
    }

    /** Root seed. */
    public long seed() {
        return audit.seed();
    }

    /** Confidence of bounds and verdicts. */
    public double confidence() {
        return audit.confidence();
    }

    /** Threshold-selection method. */
    public ThresholdSelection selection() {
        return audit.selection();
    }

    /** Interior histogram bins. */
    public int histogramBins() {
        return audit.histogramBins();
    }

    /** δ values for ε lower bounds. */
    public List<Double> deltas() {
        return audit.deltas();
    }

    /** ε values for δ lower bounds. */
    public List<Double> epsilons() {
        return audit.epsilons();
    }

    /** How the empirical trade-off curve is certified. */
    public AuditSettings.TradeOffSettings tradeOff() {
        return audit.tradeOff();
    }

    /** Whether to add the two-sided privacy-loss estimate. */
    public boolean estimate() {
        return audit.estimate().enabled();
    }

    /** How to estimate: {@code auto}, {@code plain} or {@code importance}. */
    public String estimateMethod() {
        return audit.estimate().method();
    }

    /** Importance samples per target and direction, 0 for the default. */
    public long estimateSamples() {
        return audit.estimate().samples();
    }

    /** When the audit stops. */
    public Stopping stopping() {
        return audit.stopping();
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
        return new Scenario(source, name, description, other, simulator, attack, audit, claims);
    }

    /** A copy with another importance-sampling budget per target and direction ({@code estimate.samples}). */
    public Scenario withEstimateSamples(long samples) {
        return new Scenario(source, name, description, mechanism, simulator, attack, audit.withEstimate(
                new AuditSpec.EstimateSpec(estimate(), estimateMethod(), samples)), claims);
    }

    /**
     * A copy that stops by {@code rule} with {@code budget} trials per world (the command line's
     * {@code --until-resolved} and {@code --max-trials}).
     */
    public Scenario withStopping(Stopping rule, long budget) {
        return new Scenario(source, name, description, mechanism, simulator, attack, audit.withStopping(rule, budget),
                claims);
    }

    /** A copy that asks for the two-sided privacy-loss estimate (the command line's {@code --estimate}). */
    public Scenario withEstimate() {
        return new Scenario(source, name, description, mechanism, simulator, attack, audit.withEstimate(
                new AuditSpec.EstimateSpec(true, estimateMethod(), estimateSamples())), claims);
    }
}

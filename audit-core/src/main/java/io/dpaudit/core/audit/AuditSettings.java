package io.dpaudit.core.audit;

import io.dpaudit.core.Checks;
import io.dpaudit.core.InvalidInputException;
import io.dpaudit.core.engine.ShardedPhase;
import io.dpaudit.core.engine.Pilot;
import io.dpaudit.core.estimate.ThresholdSelection;
import io.dpaudit.core.estimate.tradeoff.TradeOffCertification;
import java.util.List;

/**
 * Everything that determines the numbers of an audit besides the mechanism and the attack.
 *
 * @param trialsPerWorld counted trials per world (selection plus evaluation), at least 1 (2 with held-out selection)
 * @param seed root seed
 * @param threads worker threads (does not change any number)
 * @param confidence confidence of each reported bound and verdict, in (0, 1) (an audit that also judges its claims by
 *     a white-box estimate shares it between the two: {@link ConfidenceSplit})
 * @param selection threshold-selection method
 * @param bins interior histogram bins
 * @param pilotTrials pilot trials per world (not counted)
 * @param shardTrials trials per world in one shard
 * @param deltas δ values at which to report ε lower bounds
 * @param epsilons ε values at which to report δ lower bounds
 * @param tradeOff how the empirical trade-off curve is certified
 */
public record AuditSettings(long trialsPerWorld, long seed, int threads, double confidence,
        ThresholdSelection selection, int bins, int pilotTrials, int shardTrials, List<Double> deltas,
        List<Double> epsilons, TradeOffSettings tradeOff) {

    /** Default number of interior histogram bins. */
    public static final int DEFAULT_BINS = 8192;
    /** Default confidence. */
    public static final double DEFAULT_CONFIDENCE = 0.95;

    /**
     * How the empirical trade-off curve is certified.
     *
     * @param method simultaneous bounds by Bonferroni over a grid or by a DKW band
     * @param grid edges of the Bonferroni grid, in [1, 4096]
     */
    public record TradeOffSettings(TradeOffCertification.Method method, int grid) {
        /** Bonferroni over 64 edges. */
        public static final TradeOffSettings DEFAULT = new TradeOffSettings(TradeOffCertification.Method.BONFERRONI,
                TradeOffCertification.DEFAULT_GRID);

        public TradeOffSettings {
            Checks.inRange("tradeOff.grid", grid, 1, 4096);
        }
    }

    /** Settings with the default trade-off certification. */
    public AuditSettings(long trialsPerWorld, long seed, int threads, double confidence, ThresholdSelection selection,
            int bins, int pilotTrials, int shardTrials, List<Double> deltas, List<Double> epsilons) {
        this(trialsPerWorld, seed, threads, confidence, selection, bins, pilotTrials, shardTrials, deltas, epsilons,
                TradeOffSettings.DEFAULT);
    }

    public AuditSettings {
        Checks.trials("trials", trialsPerWorld);
        Checks.atLeast("threads", threads, 1);
        Checks.confidence("confidence", confidence);
        Checks.inRange("histogramBins", bins, 16, 1 << 20);
        Checks.atLeast("pilotTrials", pilotTrials, 1);
        Checks.atLeast("shardTrials", shardTrials, 1);
        if (selection instanceof ThresholdSelection.HeldOut h) {
            long sel = selectionTrials(trialsPerWorld, h.fraction());
            if (sel < 1 || trialsPerWorld - sel < 1) {
                throw new InvalidInputException("trials", trialsPerWorld,
                        "too few for held-out selection with fraction " + h.fraction()
                                + " (each part needs at least one trial)");
            }
        }
        deltas.forEach(d -> Checks.deltaOrZero("deltas", d));
        epsilons.forEach(e -> Checks.nonNegative("epsilons", e));
        deltas = List.copyOf(deltas);
        epsilons = List.copyOf(epsilons);
    }

    /** Settings with defaults for everything but trials, seed and threads. */
    public static AuditSettings defaults(long trialsPerWorld, long seed, int threads) {
        return new AuditSettings(trialsPerWorld, seed, threads, DEFAULT_CONFIDENCE,
                new ThresholdSelection.HeldOut(ThresholdSelection.HeldOut.DEFAULT_FRACTION), DEFAULT_BINS,
                Pilot.DEFAULT_TRIALS, ShardedPhase.DEFAULT_SHARD_TRIALS, List.of(1e-5), List.of(0.5, 1.0, 2.0));
    }

    /** Selection trials per world for held-out selection: {@code round(N f)}. */
    public static long selectionTrials(long trialsPerWorld, double fraction) {
        return Math.round(trialsPerWorld * fraction);
    }

    /** A copy with other trials, seed and threads. */
    public AuditSettings with(long newTrials, long newSeed, int newThreads) {
        return new AuditSettings(newTrials, newSeed, newThreads, confidence, selection, bins, pilotTrials,
                shardTrials, deltas, epsilons, tradeOff);
    }

    /** A copy with other report grids. */
    public AuditSettings withGrids(List<Double> newDeltas, List<Double> newEpsilons) {
        return new AuditSettings(trialsPerWorld, seed, threads, confidence, selection, bins, pilotTrials,
                shardTrials, newDeltas, newEpsilons, tradeOff);
    }

    /** A copy with another threshold-selection method and confidence. */
    public AuditSettings withSelection(ThresholdSelection newSelection, double newConfidence) {
        return new AuditSettings(trialsPerWorld, seed, threads, newConfidence, newSelection, bins, pilotTrials,
                shardTrials, deltas, epsilons, tradeOff);
    }

    /** A copy with another confidence. */
    public AuditSettings withConfidence(double newConfidence) {
        return new AuditSettings(trialsPerWorld, seed, threads, newConfidence, selection, bins, pilotTrials,
                shardTrials, deltas, epsilons, tradeOff);
    }

    /** A copy with another trade-off certification. */
    public AuditSettings withTradeOff(TradeOffSettings newTradeOff) {
        return new AuditSettings(trialsPerWorld, seed, threads, confidence, selection, bins, pilotTrials,
                shardTrials, deltas, epsilons, newTradeOff);
    }
}

package io.dpaudit.spark;

import java.io.Serializable;

/**
 * Everything an executor needs to count its shards of one phase, in primitives and strings (no dp-audit object is
 * shipped: each executor prepares the same audit from the scenario text, deterministically).
 *
 * @param scenarioText the scenario file's text
 * @param trials the audit's trials per world (as overridden on the command line)
 * @param seed the root seed (as overridden)
 * @param estimate whether the audit has a privacy-loss estimate
 * @param lossScorer whether this phase scores with the estimate's loss scorer (else the attack)
 * @param lo the binning's lower edge (continuous binnings)
 * @param hi the binning's upper edge
 * @param bins the binning's interior bins
 * @param exactValues the values of an exact (rank) binning, or null
 * @param rankValues the values the driver's scores stand for ({@code Scorer.rankValues()}: a score ranked by the pilot,
 *     or one that ranks itself), or null
 * @param firstStream index of the stream of the phase's first shard
 * @param shardTrials trials per world in a full shard
 * @param phaseTrials the phase's trials per world
 * @param trialKind the id of the phase's kind of trial ({@link io.dpaudit.core.engine.TrialKind#id()})
 * @param sequential whether the audit is sequential (the scenario's rule or {@code --until-resolved}): it decides the
 *     estimate's method ({@code auto} is plain in a sequential audit), and with it the attack's simulator
 */
record TaskSpec(String scenarioText, long trials, long seed, boolean estimate, boolean lossScorer, double lo,
        double hi, int bins, double[] exactValues, double[] rankValues, long firstStream, int shardTrials,
        long phaseTrials, String trialKind, boolean sequential) implements Serializable {
    private static final long serialVersionUID = 1L;
}

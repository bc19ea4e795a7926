package io.dpaudit.runner;

import io.dpaudit.attacks.AttackCatalog;
import io.dpaudit.attacks.LikelihoodRatioAttack;
import io.dpaudit.core.InvalidInputException;
import io.dpaudit.core.audit.ProfileEstimation;
import io.dpaudit.core.blackbox.TrainableScorer;
import io.dpaudit.core.engine.Pilot;
import io.dpaudit.core.engine.Scorer;
import io.dpaudit.core.estimate.ThresholdSelection;
import io.dpaudit.core.estimate.profile.TiltedProfileEstimator;
import io.dpaudit.core.model.AuditableMechanism;
import io.dpaudit.core.model.MechanismSimulator;
import io.dpaudit.core.model.OutputModel;
import io.dpaudit.core.rng.RandomStreams;
import io.dpaudit.mechanisms.MechanismCatalog;
import io.dpaudit.runner.scenario.ClaimSpec;
import io.dpaudit.runner.scenario.Scenario;
import io.dpaudit.runner.scenario.ScenarioReader;

/**
 * What the trials of a scenario's audit need — the mechanism, its simulator, the attack, the estimate — and nothing
 * else (no bounds, no claims): what {@link ScenarioAudit} builds its audit on, what the pair search screens candidates
 * with, and what a remote worker (a Spark executor) prepares from the scenario text.
 */
public final class ScenarioTrials {
    private ScenarioTrials() {
    }

    /**
     * Pilot trials per world: {@link Pilot#DEFAULT_TRIALS}, or the run's own trial count when it is smaller, so that a
     * run of 10 trials of a million-round mechanism does not spend minutes in a pilot 6,500 times its size (the
     * pilot only places the histogram; scores beyond it are counted at their safe extremes).
     */
    public static int pilotTrials(long trials) {
        return (int) Math.max(1, Math.min(Pilot.DEFAULT_TRIALS, trials));
    }

    /**
     * What the trials of an audit need, and nothing else (no bounds, no claims): the mechanism, its simulator, the
     * attack and the estimate's loss scorer. A remote worker (a Spark executor) prepares this from the scenario text;
     * {@link ScenarioAudit#prepare} builds on it.
     *
     * @param mechanism the mechanism
     * @param simulator the simulator that produces outputs
     * @param scorer the attack's scorer, or null when {@code trainable} is given
     * @param trainable the learned distinguisher, or null
     * @param trainingTrials outputs per world it learns from (0 without one)
     * @param lossScorer the plain estimate's loss scorer, or null
     * @param profileEstimation the importance-sampled estimate, or null
     */
    public record Prepared(AuditableMechanism mechanism, MechanismSimulator simulator, Scorer scorer,
            TrainableScorer trainable, int trainingTrials, Scorer lossScorer, ProfileEstimation profileEstimation) {
    }

    /** Below {@code AUTO_IMPORTANCE_EVENTS / N} a δ asked about picks importance sampling ({@code method: auto}). */
    static final double AUTO_IMPORTANCE_EVENTS = 100;
    /** Round draws per target and direction of the default importance budget ({@code samples = this / T}). */
    static final double IMPORTANCE_ROUND_DRAWS = 3e7;
    static final long IMPORTANCE_MIN_SAMPLES = 20_000;
    static final long IMPORTANCE_MAX_SAMPLES = 3_000_000;

    /**
     * The estimate's method: the scenario's {@code plain} or {@code importance}, or for {@code auto} importance
     * sampling when the densities allow it and the smallest δ asked about (the scenario's and the claims') is below
     * {@code 100/N}, where plain Monte Carlo of N trials per world sees about 100 events or fewer, else plain. A
     * sequential audit takes plain: its estimate grows with the stages, and the importance budget is its own.
     */
    static String estimateMethod(Scenario scenario, long trials, boolean importanceSupported) {
        if (!scenario.estimateMethod().equals("auto")) {
            return scenario.estimateMethod();
        }
        if (scenario.stopping().sequential()) {
            return "plain";
        }
        double smallest = 1;
        for (double d : scenario.deltas()) {
            if (d > 0) {
                smallest = Math.min(smallest, d);
            }
        }
        for (ClaimSpec c : scenario.claims()) {
            if (c.delta() > 0) {
                smallest = Math.min(smallest, c.delta());
            }
        }
        return importanceSupported && smallest < AUTO_IMPORTANCE_EVENTS / trials ? "importance" : "plain";
    }

    /** Importance samples per target and direction: the scenario's, or {@code 3e7 / T} within [2e4, 3e6]. */
    static long importanceSamples(Scenario scenario, int rounds) {
        if (scenario.estimateSamples() > 0) {
            return scenario.estimateSamples();
        }
        return Math.max(IMPORTANCE_MIN_SAMPLES, Math.min(IMPORTANCE_MAX_SAMPLES,
                (long) (IMPORTANCE_ROUND_DRAWS / rounds)));
    }

    /** Builds what the trials need (see {@link Prepared}); bad input throws as {@link ScenarioAudit#prepare} does. */
    public static Prepared prepare(Scenario scenario, long trials, long seed) {
        AuditableMechanism mechanism = MechanismCatalog.parse(scenario.mechanism());
        MechanismSimulator simulator = scenario.faithful()
                ? mechanism.faithful(scenario.simulator(), RandomStreams.auxiliary(seed))
                : mechanism.reduced();
        OutputModel model = simulator.outputModel();
        if (scenario.estimate() && model == null) {
            throw new InvalidInputException("estimate", true, "the " + mechanism.type() + " simulator states no "
                    + "law of its outputs (a black box), so it has no exact log-likelihood ratio to estimate from");
        }
        // A revealed flag (weak client sampling) makes the statistic's laws conditional on it: the estimator would
        // compute the conditional profile, not the mechanism's.
        boolean flagged = model != null && model.statistic().revealsFlag();
        boolean genericImportance = model != null && !flagged
                && TiltedProfileEstimator.supports(model.withCanary(), model.withoutCanary(), model.rounds());
        // A mechanism's own sampler (dependent rounds): its samples default to the same draws per target as the
        // generic one's, counted in coordinates (rounds x their dimension).
        long ownSamples = model == null ? 0 : importanceSamples(scenario, (int) Math.min(Integer.MAX_VALUE,
                (long) model.rounds() * model.withCanary().dimension()));
        ProfileEstimation own = model == null || flagged || genericImportance ? null
                : mechanism.importanceEstimation(ownSamples);
        boolean importanceSupported = genericImportance || own != null;
        // "auto" picks only the generic sampler: a mechanism's own one is efficient where its tilts fit (balls-and-bins
        // at small sigma and large epsilon), not everywhere, so it runs where a scenario asks for it.
        String method = scenario.estimate() ? estimateMethod(scenario, trials, genericImportance) : null;
        if ("importance".equals(method) && !importanceSupported) {
            throw new InvalidInputException("estimate.method", "importance", "the " + mechanism.type()
                    + " simulator's per-round statistic is not a pair of one-dimensional Gaussian mixtures (at most "
                    + "two components) with one sigma, of two-dimensional ones with few distinct first coordinates, or "
                    + "of discrete laws with a finite loss" + (flagged ? " (its laws are conditional on a revealed "
                    + "flag)" : "") + " (or T > " + TiltedProfileEstimator.MAX_ROUNDS + "), which the importance "
                    + "sampler needs, and the mechanism has no sampler of its own (the batch samplers with dependent rounds have; the shuffle's for "
                    + "others = -1 only); use method plain");
        }
        boolean plainEstimate = "plain".equals(method);
        AttackCatalog.Attack attack = AttackCatalog.create("attack", scenario.attack(), simulator,
                !scenario.faithful() && !plainEstimate);
        if (attack.simulator() != null) {
            simulator = attack.simulator(); // the attack's score drawn from its exact law (nothing else reads outputs)
        }
        Scorer lossScorer = null;
        ProfileEstimation profileEstimation = null;
        if ("importance".equals(method) && own != null) {
            profileEstimation = own;
        } else if ("importance".equals(method)) {
            io.dpaudit.core.law.StatisticLaw with = model.withCanary();
            io.dpaudit.core.law.StatisticLaw without = model.withoutCanary();
            int rounds = model.rounds();
            long samples = importanceSamples(scenario, rounds);
            profileEstimation = (epsilons, deltas, confidence, streams, threads, progress) ->
                    TiltedProfileEstimator.estimate(with, without, rounds, epsilons, deltas, samples, confidence,
                            streams, threads, progress).estimate();
        }
        if (plainEstimate) {
            lossScorer = LikelihoodRatioAttack.lossScorer(simulator.outputModel());
            if (lossScorer.lossBracket() == null) {
                throw new InvalidInputException("estimate", true, "the " + mechanism.type()
                        + " simulator does not expose an exact log-likelihood ratio to estimate from");
            }
            if (trials < 2) {
                throw new InvalidInputException("trials", trials, "the privacy-loss estimate needs at least 2");
            }
        }
        if (scenario.coupled()) {
            checkCoupling(scenario, mechanism, simulator);
        }
        int training = attack.trainable() == null ? 0
                : io.dpaudit.attacks.BlackBoxAudit.defaultTrainingTrials(trials, simulator.outputLength());
        return new Prepared(mechanism, simulator, attack.scorer(),
                attack.trainable() == null ? null : attack.trainable().forAuditOf(trials), training, lossScorer,
                profileEstimation);
    }

    /**
     * Refuses {@code simulator.coupling = common-random-numbers} where it cannot run: a mechanism whose sampler has no
     * coupled trials (only the zoo's black boxes declare them), or Bonferroni selection. (A privacy-loss estimate is
     * refused before, for every black box: it has no exact law.)
     */
    static void checkCoupling(Scenario scenario, AuditableMechanism mechanism, MechanismSimulator simulator) {
        String value = ScenarioReader.COMMON_RANDOM_NUMBERS;
        if (simulator.coupling() == null) {
            throw new InvalidInputException("simulator.coupling", value, "needs a black-box mechanism (the zoo's "
                    + "algorithms); " + mechanism.type() + " has an exact output law, audited with its own attacks");
        }
        if (!(scenario.selection() instanceof ThresholdSelection.HeldOut)) {
            throw new InvalidInputException("simulator.coupling", value, "needs held-out threshold selection: the "
                    + "paired bound certifies a test chosen on separate coupled trials");
        }
    }
}

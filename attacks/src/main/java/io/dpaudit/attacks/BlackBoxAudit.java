package io.dpaudit.attacks;

import io.dpaudit.attacks.learned.LearnedDistinguisher;
import io.dpaudit.core.Checks;
import io.dpaudit.core.audit.AuditPlan;
import io.dpaudit.core.audit.Stopping;
import io.dpaudit.core.audit.AuditResult;
import io.dpaudit.core.audit.AuditSettings;
import io.dpaudit.core.audit.Auditor;
import io.dpaudit.core.audit.Claim;
import io.dpaudit.core.blackbox.BlackBoxMechanism;
import io.dpaudit.core.blackbox.BlackBoxSampler;
import io.dpaudit.core.blackbox.StatisticScorer;
import io.dpaudit.core.engine.ProgressListener;
import io.dpaudit.core.engine.Scorer;
import io.dpaudit.core.estimate.ThresholdSelection;
import io.dpaudit.core.rng.RandomStreams;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import java.util.TreeSet;
import java.util.function.ToDoubleFunction;

/**
 * An audit of a user's own mechanism, with the engine's seeding, sharding and determinism and the estimator's
 * guarantees. Immutable: every setter returns a new audit.
 *
 * <pre>{@code
 * AuditResult r = BlackBoxAudit.of((double[] x, UniformRandomProvider rng) -> myMechanism(x, rng), d, dPrime)
 *         .trials(10_000_000).seed(42)
 *         .run(List.of(new Claim("my claim", 1.0, 1e-6, "stated")));
 * }</pre>
 *
 * <p>Streams of the root seed: the auxiliary stream for one probing run per world (the output length), the training
 * stream for a learned distinguisher's samples, and the shard streams for the audit itself ({@link Auditor}). The
 * distinguisher is the learned one unless a statistic is given. Trials and threads never interact: the same seed gives
 * the same numbers on any number of threads.
 *
 * @param <I> the mechanism's input type
 */
public final class BlackBoxAudit<I> {
    private final BlackBoxMechanism<I> mechanism;
    private final I withCanary;
    private final I withoutCanary;
    private final long trials;
    private final long seed;
    private final int threads;
    private final double confidence;
    private final ThresholdSelection selection;
    private final ToDoubleFunction<double[]> statistic; // null: learned
    private final String statisticDescription;
    private final int trainingTrials; // 0: default
    private final String description;
    private final ProgressListener progress;
    private final boolean coupled;
    private final Stopping stopping;

    private BlackBoxAudit(BlackBoxMechanism<I> mechanism, I withCanary, I withoutCanary, long trials, long seed,
            int threads, double confidence, ThresholdSelection selection, ToDoubleFunction<double[]> statistic,
            String statisticDescription, int trainingTrials, String description, ProgressListener progress,
            boolean coupled, Stopping stopping) {
        this.mechanism = mechanism;
        this.withCanary = withCanary;
        this.withoutCanary = withoutCanary;
        this.trials = trials;
        this.seed = seed;
        this.threads = threads;
        this.confidence = confidence;
        this.selection = selection;
        this.statistic = statistic;
        this.statisticDescription = statisticDescription;
        this.trainingTrials = trainingTrials;
        this.description = description;
        this.progress = progress;
        this.coupled = coupled;
        this.stopping = stopping;
    }

    /**
     * An audit of {@code mechanism} on the neighbouring inputs: {@code withCanary} is world {@code D},
     * {@code withoutCanary} world {@code D'}. Defaults: 10^6 trials per world, seed 0, every processor, 95% confidence,
     * held-out selection (a tenth of the trials), the learned distinguisher.
     */
    public static <I> BlackBoxAudit<I> of(BlackBoxMechanism<I> mechanism, I withCanary, I withoutCanary) {
        return new BlackBoxAudit<>(Objects.requireNonNull(mechanism, "mechanism"), withCanary, withoutCanary,
                1_000_000L, 0L, Runtime.getRuntime().availableProcessors(), AuditSettings.DEFAULT_CONFIDENCE,
                new ThresholdSelection.HeldOut(ThresholdSelection.HeldOut.DEFAULT_FRACTION), null, null, 0,
                "black-box mechanism", ProgressListener.NONE, false,
                Stopping.FIXED);
    }

    /** Trials per world (selection plus evaluation). */
    public BlackBoxAudit<I> trials(long n) {
        Checks.atLeast("trials", n, 2);
        return new BlackBoxAudit<>(mechanism, withCanary, withoutCanary, n, seed, threads, confidence, selection,
                statistic, statisticDescription, trainingTrials, description, progress, coupled, stopping);
    }

    /** The root seed. */
    public BlackBoxAudit<I> seed(long s) {
        return new BlackBoxAudit<>(mechanism, withCanary, withoutCanary, trials, s, threads, confidence, selection,
                statistic, statisticDescription, trainingTrials, description, progress, coupled, stopping);
    }

    /** Worker threads (never changes a number). */
    public BlackBoxAudit<I> threads(int k) {
        Checks.atLeast("threads", k, 1);
        return new BlackBoxAudit<>(mechanism, withCanary, withoutCanary, trials, seed, k, confidence, selection,
                statistic, statisticDescription, trainingTrials, description, progress, coupled, stopping);
    }

    /** Confidence of each bound and verdict. */
    public BlackBoxAudit<I> confidence(double c) {
        Checks.confidence("confidence", c);
        return new BlackBoxAudit<>(mechanism, withCanary, withoutCanary, trials, seed, threads, c, selection,
                statistic, statisticDescription, trainingTrials, description, progress, coupled, stopping);
    }

    /** Threshold selection: held-out (default) or Bonferroni. */
    public BlackBoxAudit<I> selection(ThresholdSelection s) {
        return new BlackBoxAudit<>(mechanism, withCanary, withoutCanary, trials, seed, threads, confidence,
                Objects.requireNonNull(s, "selection"), statistic, statisticDescription, trainingTrials, description,
                progress, coupled, stopping);
    }

    /** Distinguish by a threshold on {@code f} of the output instead of a learned classifier. */
    public BlackBoxAudit<I> statistic(ToDoubleFunction<double[]> f, String what) {
        return new BlackBoxAudit<>(mechanism, withCanary, withoutCanary, trials, seed, threads, confidence, selection,
                Objects.requireNonNull(f, "statistic"), "statistic: " + what, trainingTrials, description, progress,
                coupled, stopping);
    }

    /** Distinguish by a threshold on the output's first coordinate. */
    public BlackBoxAudit<I> firstCoordinate() {
        return statistic(o -> o[0], "the output's first coordinate");
    }

    /** Distinguish with the learned classifier (the default), learning from {@code outputs} per world (0: default). */
    public BlackBoxAudit<I> learned(int outputs) {
        Checks.atLeast("trainingTrials", outputs, 0);
        return new BlackBoxAudit<>(mechanism, withCanary, withoutCanary, trials, seed, threads, confidence, selection,
                null, null, outputs, description, progress, coupled, stopping);
    }

    /** A description of the mechanism for reports and messages. */
    public BlackBoxAudit<I> describedAs(String text) {
        return new BlackBoxAudit<>(mechanism, withCanary, withoutCanary, trials, seed, threads, confidence, selection,
                statistic, statisticDescription, trainingTrials, text, progress, coupled, stopping);
    }

    /** Where progress goes (none by default). */
    public BlackBoxAudit<I> progress(ProgressListener p) {
        return new BlackBoxAudit<>(mechanism, withCanary, withoutCanary, trials, seed, threads, confidence, selection,
                statistic, statisticDescription, trainingTrials, description, Objects.requireNonNull(p, "progress"),
                coupled, stopping);
    }

    /**
     * Runs both worlds of each trial on common random numbers ({@link io.dpaudit.core.rng.CommonRandomNumbers}) and
     * certifies ε at δ with the paired bound ({@link io.dpaudit.core.estimate.PairedEpsilonBound}); see
     * {@link AuditPlan#withCoupling}. Needs a mechanism that draws only from its {@code rng} and keeps no state between
     * runs, as {@link BlackBoxMechanism} requires, and held-out selection. Off by default.
     */
    public BlackBoxAudit<I> coupled(boolean on) {
        return new BlackBoxAudit<>(mechanism, withCanary, withoutCanary, trials, seed, threads, confidence, selection,
                statistic, statisticDescription, trainingTrials, description, progress, on, stopping);
    }

    /**
     * When the audit stops: after all its trials ({@link Stopping#FIXED}, the default), or sequentially with its
     * trials as the budget ({@link Stopping#SEQUENTIAL}: stages of growing size, every claim judged after each, the
     * error level shared between the looks).
     */
    public BlackBoxAudit<I> stopping(Stopping s) {
        return new BlackBoxAudit<>(mechanism, withCanary, withoutCanary, trials, seed, threads, confidence, selection,
                statistic, statisticDescription, trainingTrials, description, progress, coupled,
                Objects.requireNonNull(s, "stopping"));
    }

    /** When the audit stops. */
    public Stopping stopping() {
        return stopping;
    }

    /** Trials per world. */
    public long trials() {
        return trials;
    }

    /** The root seed. */
    public long seed() {
        return seed;
    }

    /** The confidence of each bound and verdict. */
    public double confidence() {
        return confidence;
    }

    /**
     * Runs the audit. The empirical bounds are reported at the claims' δ and ε (and the estimator's defaults when there
     * are no claims).
     */
    public AuditResult run(List<Claim> claims) {
        BlackBoxSampler<I> sampler = BlackBoxSampler.probing(mechanism, withCanary, withoutCanary, description,
                RandomStreams.auxiliary(seed));
        Scorer scorer;
        if (statistic != null) {
            scorer = StatisticScorer.of(statistic, sampler.outputLength(), statisticDescription);
        } else {
            int m = trainingTrials > 0 ? trainingTrials : defaultTrainingTrials(trials, sampler.outputLength());
            scorer = new LearnedDistinguisher().forAuditOf(trials).train(sampler, m, RandomStreams.training(seed),
                    progress);
        }
        TreeSet<Double> deltas = new TreeSet<>();
        TreeSet<Double> epsilons = new TreeSet<>();
        for (Claim c : claims) {
            deltas.add(c.delta());
            epsilons.add(c.epsilon());
        }
        AuditSettings settings = AuditSettings.defaults(trials, seed, threads).withSelection(selection, confidence);
        if (!claims.isEmpty()) {
            settings = settings.withGrids(new ArrayList<>(deltas), new ArrayList<>(epsilons));
        }
        return Auditor.run(AuditPlan.of(sampler, scorer, settings).withClaims(claims).withCoupling(coupled)
                .withStopping(stopping), progress);
    }

    /** Training outputs per world by default: a tenth of the trials, in [10^4, 10^6], at most 2^24 doubles. */
    public static int defaultTrainingTrials(long trials, int outputLength) {
        long t = Math.max(10_000L, Math.min(1_000_000L, trials / 10));
        return (int) Math.max(10, Math.min(t, (1 << 24) / Math.max(1, outputLength)));
    }
}

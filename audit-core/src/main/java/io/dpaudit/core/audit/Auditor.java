package io.dpaudit.core.audit;

import io.dpaudit.core.engine.CoupledCounts;
import io.dpaudit.core.engine.HistogramBinning;
import io.dpaudit.core.engine.IndependentShards;
import io.dpaudit.core.engine.LocalEngine;
import io.dpaudit.core.engine.LossBracket;
import io.dpaudit.core.engine.PhaseCounts;
import io.dpaudit.core.engine.PhaseEngine;
import io.dpaudit.core.engine.Pilot;
import io.dpaudit.core.engine.ProgressListener;
import io.dpaudit.core.engine.ScoreCounts;
import io.dpaudit.core.engine.Scorer;
import io.dpaudit.core.engine.ShardCounter;
import io.dpaudit.core.engine.TrialKind;
import io.dpaudit.core.engine.TrialSamplerFactory;
import io.dpaudit.core.estimate.EmpiricalEstimator;
import io.dpaudit.core.estimate.PairedEstimator;
import io.dpaudit.core.estimate.profile.PrivacyLossEstimate;
import io.dpaudit.core.estimate.profile.PrivacyLossEstimator;
import io.dpaudit.core.estimate.ThresholdEstimator;
import io.dpaudit.core.estimate.ThresholdSelection;
import io.dpaudit.core.rng.RandomStreams;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.TreeSet;

/**
 * Runs an audit ({@link AuditPlan}): pilot, counted phases, estimate, judgement — one path for every kind of trial.
 *
 * <p>Streams of the root seed are consumed in this order: stream 0 for the pilot (which fixes the histogram range; it
 * draws each world apart whatever the kind of trial), then one stream per shard of the selection phase (held-out
 * method only), then one per shard of the evaluation phase, then the estimate's. Selection uses {@code round(N f)}
 * trials and evaluation the remaining {@code N - round(N f)}; with Bonferroni selection all {@code N} are evaluation
 * trials. The counted phases run on any {@link PhaseEngine} (the local one by default); the counts then go through
 * the one judgement stage ({@link Judgement}).
 *
 * <p>A claim is {@link Verdict#VIOLATED} when the empirical δ lower bound at the claim's ε exceeds the claim's δ, or
 * the white-box estimate's lower δ there does ({@link ClaimJudgement}). For a correct claim that happens with
 * probability at most {@code 1 - confidence}: with an estimate, each source is at half the error level
 * ({@link ConfidenceSplit}).
 */
public final class Auditor {
    /** Interior bins of the privacy-loss histogram. */
    public static final int ESTIMATE_BINS = 1 << 16;
    /** Intervals of the evenly spaced part of the estimate's ε grid. */
    public static final int ESTIMATE_GRID = 1000;
    /** Points of the geometrically spaced part of the estimate's ε grid. */
    public static final int ESTIMATE_GEOMETRIC_GRID = 2000;
    /** The estimate's pilot runs {@code N / ESTIMATE_PILOT_DIVISOR} trials per world (see estimatePilotTrials). */
    public static final int ESTIMATE_PILOT_DIVISOR = 64;
    /** Largest ε the estimate's grid extends to. */
    private static final double ESTIMATE_EPSILON_CAP = 1e4;

    private Auditor() {
    }

    /** Runs {@code plan} on the local engine. */
    public static AuditResult run(AuditPlan plan, ProgressListener progress) {
        return run(plan, progress, null);
    }

    /**
     * Runs {@code plan}.
     *
     * @param progress told of every phase
     * @param engine the engine of the counted phases (null: the local one on the settings' threads); any engine gives
     *     the same numbers
     */
    public static AuditResult run(AuditPlan plan, ProgressListener progress, PhaseEngine engine) {
        plan.validate();
        long start = System.nanoTime();
        // With a white-box estimate, (eps, delta) claims are judged by both sources: each gets half the error level.
        ConfidenceSplit split = plan.hasEstimate() ? plan.claims().isEmpty()
                ? ConfidenceSplit.separate(plan.settings().confidence())
                : ConfidenceSplit.shared(plan.settings().confidence())
                : ConfidenceSplit.single(plan.settings().confidence());
        AuditSettings settings = plan.settings().withConfidence(split.blackBox());
        PhaseEngine phases = engine != null ? engine
                : new LocalEngine(settings.threads(), settings.shardTrials(), progress);
        RandomStreams streams = new RandomStreams(settings.seed());
        // on the local engine the pilot's rate per thread is the counted phases' rate
        Pilot.Result pilot = pilot(plan.sampler(), plan.scorer(), settings, streams, phases.local(),
                plan.lossScorer() != null, progress);
        HistogramBinning binning = pilot.binning();
        Scorer scorer = pilot.scorer(); // a RankedScorer when a generic score turned out to take few values
        Counted counted = plan.coupled()
                ? count(COUPLED, plan, scorer, binning, settings, phases, streams, progress)
                : count(INDEPENDENT, plan, scorer, binning, settings, phases, streams, progress);
        ScoreCounts[] lossCounts = new ScoreCounts[1];
        PrivacyLossEstimate estimate = plan.lossScorer() == null ? null
                : estimateLoss(phases, plan.sampler(), plan.lossScorer(), settings, plan.claims(), streams, lossCounts,
                        progress);
        if (plan.profileEstimation() != null) {
            List<Double> targetEpsilons = new ArrayList<>(settings.epsilons());
            List<Double> targetDeltas = new ArrayList<>(settings.deltas());
            for (Claim c : plan.claims()) {
                targetEpsilons.add(c.epsilon());
                targetDeltas.add(c.delta());
            }
            progress.onPhase("estimate", "importance sampling of the exact privacy loss (white-box)");
            estimate = plan.profileEstimation().estimate(targetEpsilons, targetDeltas, settings.confidence(), streams,
                    settings.threads(), progress);
        }
        Judgement.Judged j = Judgement.judge(counted.estimator(), counted.selection(), counted.evaluation(), settings,
                plan.claims(), plan.tradeOffClaims(), estimate);
        double elapsed = (System.nanoTime() - start) / 1e9;
        return new AuditResult(settings, counted.mechanism(), scorer.description(), binning,
                counted.selectionTrials(), counted.evaluationTrials(), streams.issued(), j.epsilonLowerBounds(),
                j.deltaLowerBounds(), j.claims(), elapsed, j.tradeOff(), j.tradeOffClaims(), estimate,
                new AuditResult.Counts(counted.selection(), counted.evaluation(), lossCounts[0]), split);
    }

    /**
     * A kind of counted trial as the auditor uses it: the counter of its phases, the estimator its counts make, each
     * world's counts alone, and how the mechanism is described. A new kind of trial is a new constant here and a
     * {@link ShardCounter}, not a new path.
     */
    private interface Trials<C extends PhaseCounts<C>> {
        TrialKind<C> kind();

        ThresholdEstimator estimator(C selection, C evaluation, AuditSettings settings);

        ScoreCounts marginals(C counts);

        String mechanism(AuditPlan plan);
    }

    /** Trials of each world drawn apart: held-out selection or Bonferroni, each world's own limits. */
    private static final Trials<ScoreCounts> INDEPENDENT = new Trials<>() {
        @Override
        public TrialKind<ScoreCounts> kind() {
            return TrialKind.INDEPENDENT;
        }


        @Override
        public ThresholdEstimator estimator(ScoreCounts selection, ScoreCounts evaluation, AuditSettings s) {
            return s.selection() instanceof ThresholdSelection.HeldOut h
                    ? EmpiricalEstimator.heldOut(selection, evaluation, s.confidence(), h)
                    : EmpiricalEstimator.bonferroni(evaluation, s.confidence(),
                            (ThresholdSelection.Bonferroni) s.selection());
        }

        @Override
        public ScoreCounts marginals(ScoreCounts counts) {
            return counts;
        }

        @Override
        public String mechanism(AuditPlan plan) {
            return plan.sampler().description();
        }
    };

    /**
     * Coupled trials ({@link io.dpaudit.core.engine.CoupledSamplerFactory}), held-out selection only. What uses the
     * coupling and what does not:
     * <ul>
     *   <li>ε at δ, δ at ε and the verdicts are certified by {@link PairedEstimator}: on the chosen test, the paired
     *       bound ({@code PairedEpsilonBound}, {@code PairedDeltaBound}: McNemar-style conditioning on the discordant
     *       trials) or each world's own Clopper–Pearson limits, whichever the selection trials predict tighter;</li>
     *   <li>the trade-off curve uses each world's counts alone ({@link io.dpaudit.core.estimate.tradeoff.TradeOffCertification}'s
     *       per-world bounds), which hold for any joint law of the two worlds (each limit concerns one world, and
     *       they are combined by a union bound). The conditional odds-ratio bound, which assumes independent worlds,
     *       is never used.</li>
     * </ul>
     */
    private static final Trials<CoupledCounts> COUPLED = new Trials<>() {
        @Override
        public TrialKind<CoupledCounts> kind() {
            return TrialKind.COUPLED;
        }


        @Override
        public ThresholdEstimator estimator(CoupledCounts selection, CoupledCounts evaluation, AuditSettings s) {
            return PairedEstimator.heldOut(selection, evaluation, s.confidence());
        }

        @Override
        public ScoreCounts marginals(CoupledCounts counts) {
            return counts.marginals();
        }

        @Override
        public String mechanism(AuditPlan plan) {
            return plan.sampler().coupling().description() + "; coupled trials (common random numbers)";
        }
    };

    /**
     * What the counted phases give the judgement: the estimator, each world's selection counts (null with
     * Bonferroni) and evaluation counts, the trials of each phase, and the mechanism as the trials ran it.
     */
    private record Counted(ThresholdEstimator estimator, ScoreCounts selection, ScoreCounts evaluation,
            long selectionTrials, long evaluationTrials, String mechanism) {
    }

    /** The selection (held-out) and evaluation phases of one kind of trial. */
    private static <C extends PhaseCounts<C>> Counted count(Trials<C> trials, AuditPlan plan, Scorer scorer,
            HistogramBinning binning, AuditSettings settings, PhaseEngine phases, RandomStreams streams,
            ProgressListener progress) {
        ShardCounter<?, C> counter = trials.kind().counter(plan.sampler(), scorer, binning);
        String unit = trials.kind().unit();
        C selection = null;
        long selectionTrials = 0;
        long evaluationTrials = settings.trialsPerWorld();
        if (settings.selection() instanceof ThresholdSelection.HeldOut h) {
            selectionTrials = AuditSettings.selectionTrials(settings.trialsPerWorld(), h.fraction());
            evaluationTrials = settings.trialsPerWorld() - selectionTrials;
            progress.onPhase("selection", String.format(Locale.ROOT, "%d %s choose the threshold test (held-out "
                    + "fraction %s)", selectionTrials, unit, h.fraction()));
            selection = phases.run("selection", counter, selectionTrials, streams);
            progress.onPhase("evaluation", String.format(Locale.ROOT, "%d %s certify the chosen test",
                    evaluationTrials, unit));
        } else {
            ThresholdSelection.Bonferroni b = (ThresholdSelection.Bonferroni) settings.selection();
            progress.onPhase("evaluation", String.format(Locale.ROOT, "%d %s evaluate %d tests (Bonferroni)",
                    evaluationTrials, unit, 4 * b.gridSize()));
        }
        C evaluation = phases.run("evaluation", counter, evaluationTrials, streams);
        return new Counted(trials.estimator(selection, evaluation, settings),
                selection == null ? null : trials.marginals(selection), trials.marginals(evaluation),
                selectionTrials, evaluationTrials, trials.mechanism(plan));
    }

    /**
     * The pilot on stream 0 (each world apart), which fixes the histogram; with {@code expect}, the time model is then
     * shown and checked ({@link #expectDuration}).
     */
    private static Pilot.Result pilot(TrialSamplerFactory sampler, Scorer scorer, AuditSettings settings,
            RandomStreams streams, boolean expect, boolean estimate, ProgressListener progress) {
        progress.onPhase("pilot", String.format(Locale.ROOT, "%d trials per world fix the histogram range",
                settings.pilotTrials()));
        long pilotStart = System.nanoTime();
        Pilot.Result pilot = Pilot.run(sampler, scorer, settings.pilotTrials(), settings.bins(), streams.next(),
                progress);
        if (expect) {
            expectDuration(settings, estimate, System.nanoTime() - pilotStart, progress);
        }
        return pilot;
    }

    private static PrivacyLossEstimate estimateLoss(PhaseEngine engine, TrialSamplerFactory sampler,
            Scorer lossScorer, AuditSettings settings, List<Claim> claims, RandomStreams streams,
            ScoreCounts[] countsOut, ProgressListener progress) {
        LossBracket bracket = lossScorer.lossBracket();
        progress.onPhase("estimate", String.format(Locale.ROOT, "pilot of %d trials per world, then %d "
                + "trials per world of the exact log-likelihood ratio", estimatePilotTrials(settings),
                settings.trialsPerWorld()));
        HistogramBinning binning = Pilot.binning(sampler, lossScorer, estimatePilotTrials(settings), ESTIMATE_BINS,
                streams.next(), progress);
        ScoreCounts counts = engine.run("estimate", new IndependentShards(sampler, lossScorer, binning),
                settings.trialsPerWorld(), streams);
        countsOut[0] = counts;
        List<Double> extra = new ArrayList<>(settings.epsilons());
        for (Claim c : claims) {
            extra.add(c.epsilon());
        }
        return PrivacyLossEstimator.estimate(counts, bracket, settings.confidence(),
                estimateGrid(binning, bracket, extra));
    }

    /**
     * The time model: the pilot's measured cost per trial (both worlds, one thread; it includes the JIT's warm-up, so
     * it errs long) times the counted trials (and the estimate's, if any), over the threads. Shown before the counted
     * phases start, and refused by the run's control when it exceeds its cap or ten times its budget.
     */
    static void expectDuration(AuditSettings settings, boolean estimate, long pilotNanos, ProgressListener progress) {
        double perTrial = pilotNanos / 1e9 / Math.max(1, settings.pilotTrials());
        double trials = (double) settings.trialsPerWorld() * (estimate ? 2 : 1);
        double seconds = perTrial * trials / Math.max(1, settings.threads());
        io.dpaudit.core.engine.RunControl.of(progress).expect(seconds, "trials", settings.trialsPerWorld(),
                String.format(Locale.ROOT, "%.3g trials per world%s at the pilot's %.3g trials/s per thread on %d "
                        + "thread(s)", (double) settings.trialsPerWorld(), estimate ? " and as many for the estimate"
                        : "", 1 / perTrial, settings.threads()));
    }

    /**
     * Pilot trials per world of the estimate: {@code N / }{@value #ESTIMATE_PILOT_DIVISOR} (at least the audit's pilot
     * size). Where the privacy loss is large only on rare outputs — a canary present in one trial in 10^4, say — a
     * pilot of 2^16 trials sees too few of them to place the histogram's range, and every trial beyond it counts as
     * {@code L = +inf} in the upper bound (safe, but it floors the upper δ bound at the tail fraction); a pilot of
     * 1/64 of the counted trials sees them in proportion.
     */
    static int estimatePilotTrials(AuditSettings settings) {
        return (int) Math.min(1 << 30, Math.max(settings.pilotTrials(),
                settings.trialsPerWorld() / ESTIMATE_PILOT_DIVISOR));
    }

    /**
     * The estimate's ε grid, fixed before any counted trial: {@value #ESTIMATE_GRID} + 1 points evenly spaced from 0
     * to the largest |L| the pilot-fitted histogram range brackets (beyond it only the tail slots could contribute),
     * {@value #ESTIMATE_GEOMETRIC_GRID} + 1 points geometrically spaced from 10^-4 of that to it (so that a small ε(δ)
     * is read off to half a per cent), and the given ε (scenario and claims) up to {@value #ESTIMATE_EPSILON_CAP}.
     */
    static double[] estimateGrid(HistogramBinning binning, LossBracket bracket, List<Double> extra) {
        double span = 0;
        if (binning.exact()) {
            for (int k = 0; k <= binning.bins(); k++) {
                double v = binning.edge(k);
                if (Double.isFinite(v)) {
                    span = Math.max(span, Math.max(Math.abs(bracket.lower(v)), Math.abs(bracket.upper(v))));
                }
            }
        } else {
            span = Math.max(bracket.upper(binning.hi()), -bracket.lower(binning.lo()));
        }
        if (!(span > 0) || !Double.isFinite(span)) {
            span = 1.0;
        }
        span = Math.min(span, ESTIMATE_EPSILON_CAP);
        TreeSet<Double> grid = new TreeSet<>();
        for (int i = 0; i <= ESTIMATE_GRID; i++) {
            grid.add(span * i / ESTIMATE_GRID);
        }
        for (int i = 0; i <= ESTIMATE_GEOMETRIC_GRID; i++) {
            grid.add(span * Math.pow(1e-4, 1.0 - (double) i / ESTIMATE_GEOMETRIC_GRID));
        }
        for (double e : extra) {
            if (e >= 0 && e <= ESTIMATE_EPSILON_CAP) {
                grid.add(e);
            }
        }
        return grid.stream().mapToDouble(Double::doubleValue).toArray();
    }

}

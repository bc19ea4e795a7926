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
 * <p>A claim is {@link Verdict#VIOLATED} when the empirical δ lower bound at the claim's ε exceeds the claim's δ, the
 * white-box estimate's lower δ there does, or one of the plan's proven lower bounds does ({@link ClaimJudgement}). For
 * a correct claim that happens with probability at most {@code 1 - confidence}: with an estimate, each statistical
 * source is at half the error level ({@link ConfidenceSplit}); a proven lower bound adds none.
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
        AuditSettings settings = plan.settings();
        PhaseEngine phases = engine != null ? engine
                : new LocalEngine(settings.threads(), settings.shardTrials(), progress);
        RandomStreams streams = new RandomStreams(settings.seed());
        Pilot.Result pilot = pilot(plan.sampler(), plan.scorer(), settings, streams, progress);
        if (phases.local()) { // the rate per thread measured here is the counted phases' rate on this machine
            ShardCounter<?, ?> counter = (plan.coupled() ? COUPLED.kind() : INDEPENDENT.kind())
                    .counter(plan.sampler(), pilot.scorer(), pilot.binning());
            expectDuration(settings, plan.lossScorer() != null, secondsPerTrial(settings, pilot, counter), progress);
        }
        return plan.coupled()
                ? new Looks<>(COUPLED, plan, pilot, phases, streams, progress, start).run()
                : new Looks<>(INDEPENDENT, plan, pilot, phases, streams, progress, start).run();
    }

    /**
     * The split of one look's confidence between the sources: with a white-box estimate, (ε, δ) claims are judged by
     * both, so each gets half the look's error level.
     */
    private static ConfidenceSplit split(AuditPlan plan, double lookConfidence) {
        return plan.hasEstimate() ? plan.claims().isEmpty() ? ConfidenceSplit.separate(lookConfidence)
                : ConfidenceSplit.shared(lookConfidence) : ConfidenceSplit.single(lookConfidence);
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
     * The counted stages of one audit and the look after each ({@link StageSchedule}): one stage and one look for a
     * fixed design, as many as it takes (up to the budget) for a sequential one.
     *
     * <p><b>What each look certifies on.</b> With held-out selection, look 1 splits stage 1 as a fixed design splits
     * its trials ({@code round(n_1 f)} choose the tests, the rest certify them); look {@code k >= 2} chooses its tests
     * on stages {@code 1..j} and certifies them on stages {@code j+1..k} ({@link StageSchedule#selectionStages}), so
     * at every look the certifying trials are independent of everything that chose the test. With Bonferroni
     * selection nothing is chosen on the data: look {@code k} evaluates its grid of tests on stages {@code 1..k}. The
     * white-box estimate of look {@code k} counts stages {@code 1..k} of its own trials (its histogram range fixed
     * once, by its pilot).
     *
     * <p><b>Streams.</b> The pilot's first; then look 1's selection phase ({@code "selection"}) and evaluation phase
     * ({@code "evaluation"}), the estimate's pilot and its first stage ({@code "estimate"}); then for each later look,
     * the stage ({@code "stage-k"}) and the estimate's stage ({@code "estimate-stage-k"}). A fixed design draws exactly
     * what it always drew.
     */
    private static final class Looks<C extends PhaseCounts<C>> {
        private final Trials<C> trials;
        private final AuditPlan plan;
        private final Scorer scorer;
        private final HistogramBinning binning;
        private final PhaseEngine phases;
        private final RandomStreams streams;
        private final ProgressListener progress;
        private final long start;
        private final StageSchedule schedule;
        private final boolean heldOut;
        private final ShardCounter<?, C> counter;
        /** Each stage's counts so far (stage 1's selection and evaluation parts together). */
        private final List<C> stages = new ArrayList<>();
        private C selection;
        private C evaluation;
        private LossEstimate loss;

        Looks(Trials<C> trials, AuditPlan plan, Pilot.Result pilot, PhaseEngine phases, RandomStreams streams,
                ProgressListener progress, long start) {
            this.trials = trials;
            this.plan = plan;
            this.scorer = pilot.scorer(); // a RankedScorer when a generic score turned out to take few values
            this.binning = pilot.binning();
            this.phases = phases;
            this.streams = streams;
            this.progress = progress;
            this.start = start;
            this.schedule = StageSchedule.of(plan.stopping(), plan.settings().trialsPerWorld(),
                    plan.settings().confidence());
            this.heldOut = plan.settings().selection() instanceof ThresholdSelection.HeldOut;
            this.counter = trials.kind().counter(plan.sampler(), scorer, binning);
        }

        AuditResult run() {
            LookVerdicts verdicts = new LookVerdicts(plan.claims().size(), plan.tradeOffClaims().size());
            // the proven lower bounds at each claim's ε: deterministic, computed once for every look
            List<ClaimAnalytic> analytic = ClaimAnalytic.of(plan.claims(), plan.provenLowerBounds());
            SequentialRun.Stop stop = SequentialRun.Stop.BUDGET;
            Judgement.Judged judged = null;
            AuditSettings settings = null;
            ConfidenceSplit split = null;
            PrivacyLossEstimate estimate = null;
            for (int k = 1; k <= schedule.looks(); k++) {
                split = split(plan, schedule.confidence(k));
                settings = plan.settings().withConfidence(split.blackBox());
                count(k);
                estimate = estimate(k, split);
                judged = Judgement.judge(trials.estimator(selection, evaluation, settings),
                        selection == null ? null : trials.marginals(selection), trials.marginals(evaluation),
                        settings, plan.claims(), plan.tradeOffClaims(), estimate, plan.pairFromBelow(), analytic);
                boolean resolved = verdicts.record(k, judged, schedule.trialsThrough(k), selectionTrials(),
                        evaluationTrials(), split.blackBox(), (System.nanoTime() - start) / 1e9);
                if (schedule.sequential() && resolved) {
                    stop = SequentialRun.Stop.RESOLVED;
                    break;
                }
                if (schedule.sequential() && k < schedule.looks()) {
                    progress.onPhase("look", verdicts.unresolved());
                }
            }
            SequentialRun.Look last = verdicts.last();
            SequentialRun sequential = schedule.sequential()
                    ? verdicts.run(plan.stopping().firstStageTrials(), plan.settings().trialsPerWorld(), stop) : null;
            AuditSettings used = settings.with(last.trialsPerWorld(), settings.seed(), settings.threads());
            ConfidenceSplit confidence = schedule.sequential() ? split.ofLookIn(plan.settings().confidence()) : split;
            double elapsed = (System.nanoTime() - start) / 1e9;
            return new AuditResult(used, trials.mechanism(plan), scorer.description(), binning,
                    last.selectionTrials(), last.evaluationTrials(), streams.issued(), judged.epsilonLowerBounds(),
                    judged.deltaLowerBounds(), verdicts.claims(), elapsed, judged.tradeOff(),
                    verdicts.tradeOffClaims(), estimate, new AuditResult.Counts(selection == null ? null
                            : trials.marginals(selection), trials.marginals(evaluation), loss == null ? null
                                    : loss.counts), confidence, sequential);
        }

        /** Counts stage {@code k} and sets the look's selection and evaluation counts ({@link StageSchedule}). */
        private void count(int k) {
            String unit = trials.kind().unit();
            long stage = schedule.stageTrials(k);
            if (k == 1) {
                if (plan.settings().selection() instanceof ThresholdSelection.HeldOut h) {
                    long chosen = AuditSettings.selectionTrials(stage, h.fraction());
                    progress.onPhase("selection", String.format(Locale.ROOT, "%d %s choose the threshold test "
                            + "(held-out fraction %s)%s", chosen, unit, h.fraction(), lookNote(k)));
                    selection = phases.run("selection", counter, chosen, streams);
                    progress.onPhase("evaluation", String.format(Locale.ROOT, "%d %s certify the chosen test",
                            stage - chosen, unit));
                    evaluation = phases.run("evaluation", counter, stage - chosen, streams);
                    C first = selection.copy();
                    first.add(evaluation);
                    stages.add(first);
                } else {
                    ThresholdSelection.Bonferroni b = (ThresholdSelection.Bonferroni) plan.settings().selection();
                    progress.onPhase("evaluation", String.format(Locale.ROOT, "%d %s evaluate %d tests (Bonferroni)%s",
                            stage, unit, 4 * b.gridSize(), lookNote(k)));
                    evaluation = phases.run("evaluation", counter, stage, streams);
                    stages.add(evaluation.copy());
                }
                return;
            }
            int chosenStages = plan.settings().selection() instanceof ThresholdSelection.HeldOut h
                    ? schedule.selectionStages(k, h.fraction()) : 0;
            progress.onPhase("stage-" + k, String.format(Locale.ROOT, "%d %s (stage %d of at most %d: %s)%s", stage,
                    unit, k, schedule.looks(), chosenStages > 0 ? String.format(Locale.ROOT, "stages 1 to %d choose "
                            + "the test, stages %d to %d certify it", chosenStages, chosenStages + 1, k)
                            : "the tests are evaluated on every stage so far", lookNote(k)));
            stages.add(phases.run("stage-" + k, counter, stage, streams));
            selection = chosenStages > 0 ? sum(0, chosenStages) : null;
            evaluation = sum(chosenStages, k);
        }

        /** The counts of stages {@code from + 1} to {@code to}, as a new object. */
        private C sum(int from, int to) {
            C total = stages.get(from).copy();
            for (int i = from + 1; i < to; i++) {
                total.add(stages.get(i));
            }
            return total;
        }

        private String lookNote(int k) {
            return schedule.sequential() ? String.format(Locale.ROOT, "; look %d at error level %.3g", k,
                    schedule.errorLevel(k)) : "";
        }

        private long selectionTrials() {
            return selection == null ? 0 : selection.trials();
        }

        private long evaluationTrials() {
            return evaluation.trials();
        }

        /**
         * The white-box estimate of look {@code k}: the plain one from its trials so far, or the importance-sampled
         * one (a fixed design's only look: {@link AuditPlan#validate}); null without one.
         */
        private PrivacyLossEstimate estimate(int k, ConfidenceSplit split) {
            if (plan.profileEstimation() != null) {
                return profileEstimate(split.whiteBox());
            }
            if (plan.lossScorer() == null) {
                return null;
            }
            if (loss == null) {
                loss = new LossEstimate(plan, phases, streams, progress);
            }
            return loss.look(k, schedule.stageTrials(k), split.whiteBox());
        }

        private PrivacyLossEstimate profileEstimate(double confidence) {
            AuditSettings settings = plan.settings();
            List<Double> targetEpsilons = new ArrayList<>(settings.epsilons());
            List<Double> targetDeltas = new ArrayList<>(settings.deltas());
            for (Claim c : plan.claims()) {
                targetEpsilons.add(c.epsilon());
                targetDeltas.add(c.delta());
            }
            progress.onPhase("estimate", "importance sampling of the exact privacy loss (white-box)");
            return plan.profileEstimation().estimate(targetEpsilons, targetDeltas, confidence, streams,
                    settings.threads(), progress);
        }
    }

    /**
     * The plain two-sided estimate's trials, stage by stage: its pilot fixes the histogram range once (on the budget's
     * share, {@link #estimatePilotTrials}), then each look adds a stage of as many trials as the attack's and
     * estimates from all of them.
     */
    private static final class LossEstimate {
        private final AuditPlan plan;
        private final PhaseEngine phases;
        private final RandomStreams streams;
        private final LossBracket bracket;
        private final HistogramBinning binning;
        private final double[] grid;
        private ScoreCounts counts;

        LossEstimate(AuditPlan plan, PhaseEngine phases, RandomStreams streams, ProgressListener progress) {
            this.plan = plan;
            this.phases = phases;
            this.streams = streams;
            AuditSettings settings = plan.settings();
            this.bracket = plan.lossScorer().lossBracket();
            progress.onPhase("estimate", String.format(Locale.ROOT, "pilot of %d trials per world, then %s of the "
                    + "exact log-likelihood ratio", estimatePilotTrials(settings), plan.stopping().sequential()
                    ? "as many trials per world as each stage" : settings.trialsPerWorld() + " trials per world"));
            this.binning = Pilot.binning(plan.sampler(), plan.lossScorer(), estimatePilotTrials(settings),
                    ESTIMATE_BINS, streams.next(), progress);
            List<Double> extra = new ArrayList<>(settings.epsilons());
            for (Claim c : plan.claims()) {
                extra.add(c.epsilon());
            }
            this.grid = estimateGrid(binning, bracket, extra);
        }

        PrivacyLossEstimate look(int k, long stageTrials, double confidence) {
            ScoreCounts stage = phases.run(k == 1 ? "estimate" : "estimate-stage-" + k,
                    new IndependentShards(plan.sampler(), plan.lossScorer(), binning), stageTrials, streams);
            if (counts == null) {
                counts = stage;
            } else {
                counts = counts.copy();
                counts.add(stage);
            }
            return PrivacyLossEstimator.estimate(counts, bracket, confidence, grid);
        }
    }

    /** The pilot on stream 0 (each world apart), which fixes the histogram. */
    private static Pilot.Result pilot(TrialSamplerFactory sampler, Scorer scorer, AuditSettings settings,
            RandomStreams streams, ProgressListener progress) {
        progress.onPhase("pilot", String.format(Locale.ROOT, "%d trials per world fix the histogram range",
                settings.pilotTrials()));
        return Pilot.run(sampler, scorer, settings.pilotTrials(), settings.bins(), streams.next(), progress);
    }

    /**
     * Seconds an audit spends besides its trials: starting the phases' threads, the held-out selection, the certified
     * bounds, the power statements and the trade-off curve (measured 0.2–0.3 s on 2 cores for the shipped scenarios
     * whose trials take under 0.1 s); twice with an estimate.
     */
    static final double FIXED_SECONDS = 0.2;
    /** Below this expectation from the pilot (seconds), the counted loop is not probed: the probe would cost more. */
    static final double PROBE_ABOVE_SECONDS = 0.5;
    /** A probe's timed batch runs at least this long (seconds). */
    private static final double PROBE_SECONDS = 0.05;

    /**
     * Wall seconds per trial (both worlds, one thread) of the counted phases. The pilot's second half gives a first
     * figure, but the pilot is another loop (it scores into an array, tracks the extremes, keeps values), and on the
     * fast samplers it ran up to 8 times slower than the counting. When that figure promises more than
     * {@value #PROBE_ABOVE_SECONDS} s, the counted loop itself is timed on a stream of its own (never one the audit
     * counts: the numbers do not change): chunks of about a millisecond of trials, called repeatedly as the shards
     * call it, for {@value #PROBE_SECONDS} s to warm the JIT up and {@value #PROBE_SECONDS} s timed (about 0.1 s).
     */
    static double secondsPerTrial(AuditSettings settings, Pilot.Result pilot, ShardCounter<?, ?> counter) {
        double warm = pilot.warmSecondsPerTrial();
        if (warm * settings.trialsPerWorld() / Math.max(1, settings.threads()) < PROBE_ABOVE_SECONDS) {
            return warm;
        }
        return probe(counter, RandomStreams.auxiliary(~settings.seed()), warm);
    }

    private static <S> double probe(ShardCounter<S, ?> counter, org.apache.commons.rng.UniformRandomProvider rng,
            double fallback) {
        S shard = counter.newShard();
        ShardCounter.Worker<S> worker = counter.newWorker();
        // A chunk of trials that takes about a millisecond (doubling from 64), so that the loop is called many times
        // as in the counted shards, then warm-up calls, then the timed ones.
        int chunk = 64;
        while (true) {
            counter.clear(shard);
            long start = System.nanoTime();
            worker.count(rng, chunk, shard);
            double seconds = (System.nanoTime() - start) / 1e9;
            if (seconds >= 1e-3 || chunk > (1 << 24)) {
                if (seconds > 4 * PROBE_SECONDS) {
                    return fallback; // one chunk costs too much: the pilot's figure stands
                }
                break;
            }
            chunk *= 2;
        }
        for (int phase = 0; phase < 2; phase++) { // 0: the JIT's warm-up, 1: timed
            long trials = 0;
            long start = System.nanoTime();
            double seconds;
            do {
                counter.clear(shard);
                worker.count(rng, chunk, shard);
                trials += chunk;
                seconds = (System.nanoTime() - start) / 1e9;
            } while (seconds < PROBE_SECONDS);
            if (phase == 1) {
                return seconds / trials;
            }
        }
        return fallback;
    }

    /**
     * The time model: the counted phases' cost per trial (both worlds, one thread; {@link #secondsPerTrial}) times the
     * counted trials (and the estimate's, if any), over the threads. Shown before the counted phases start, and refused
     * by the run's control when it exceeds its cap or ten times its budget.
     */
    static void expectDuration(AuditSettings settings, boolean estimate, double perTrial, ProgressListener progress) {
        double trials = (double) settings.trialsPerWorld() * (estimate ? 2 : 1);
        double seconds = perTrial * trials / Math.max(1, settings.threads()) + FIXED_SECONDS * (estimate ? 2 : 1);
        io.dpaudit.core.engine.RunControl.of(progress).expect(seconds, "trials", settings.trialsPerWorld(),
                String.format(Locale.ROOT, "%.3g trials per world%s at %.3g trials/s per thread on %d "
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

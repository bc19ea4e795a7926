package io.dpaudit.core.audit;

import io.dpaudit.core.engine.CoupledCounts;
import io.dpaudit.core.engine.CoupledPhase;
import io.dpaudit.core.engine.CoupledPhaseEngine;
import io.dpaudit.core.engine.CoupledSamplerFactory;
import io.dpaudit.core.engine.HistogramBinning;
import io.dpaudit.core.engine.LossBracket;
import io.dpaudit.core.engine.MonteCarloEngine;
import io.dpaudit.core.engine.PhaseEngine;
import io.dpaudit.core.engine.Pilot;
import io.dpaudit.core.engine.ProgressListener;
import io.dpaudit.core.engine.ScoreCounts;
import io.dpaudit.core.engine.Scorer;
import io.dpaudit.core.engine.TrialSamplerFactory;
import io.dpaudit.core.estimate.CertifiedTradeOff;
import io.dpaudit.core.estimate.DeltaLowerBound;
import io.dpaudit.core.estimate.EmpiricalEstimator;
import io.dpaudit.core.estimate.EpsilonLowerBound;
import io.dpaudit.core.estimate.EpsilonPower;
import io.dpaudit.core.estimate.PairedEstimator;
import io.dpaudit.core.estimate.PrivacyLossEstimate;
import io.dpaudit.core.estimate.PrivacyLossEstimator;
import io.dpaudit.core.estimate.ThresholdSelection;
import io.dpaudit.core.estimate.TradeOffCertification;
import io.dpaudit.core.estimate.TradeOffPower;
import io.dpaudit.core.rng.RandomStreams;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.TreeSet;

/**
 * Runs an audit: pilot, counted phases, estimation, verdicts.
 *
 * <p>Streams of the root seed are consumed in this order: stream 0 for the pilot (which fixes the histogram range),
 * then one stream per shard of the selection phase (held-out method only), then one per shard of the evaluation
 * phase. Selection uses {@code round(N f)} trials per world and evaluation the remaining {@code N - round(N f)};
 * with Bonferroni selection all {@code N} are evaluation trials.
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

    /**
     * Runs the audit.
     *
     * @param sampler the mechanism's trial sampler
     * @param scorer the attack
     * @param settings trials, seed, confidence and so on
     * @param claims claims to audit (may be empty)
     * @param progress progress listener for the counted phases
     */
    public static AuditResult run(TrialSamplerFactory sampler, Scorer scorer, AuditSettings settings,
            List<Claim> claims, ProgressListener progress) {
        return run(sampler, scorer, settings, claims, List.of(), progress);
    }

    /**
     * Runs the audit with f-DP claims as well.
     *
     * @param tradeOffClaims f-DP claims, judged against the certified empirical trade-off curve
     */
    public static AuditResult run(TrialSamplerFactory sampler, Scorer scorer, AuditSettings settings,
            List<Claim> claims, List<TradeOffClaim> tradeOffClaims, ProgressListener progress) {
        return run(sampler, scorer, null, settings, claims, tradeOffClaims, progress);
    }

    /**
     * Runs the audit and, when {@code lossScorer} is not null, the two-sided privacy-loss estimate after it: a pilot
     * (one more stream) fixes a histogram of {@value #ESTIMATE_BINS} bins for the loss scorer's scores, then
     * {@code N} more trials per world (one stream per shard) are counted in it, and {@link PrivacyLossEstimator} turns
     * the counts into intervals on a grid of ε fixed by the pilot ({@link #estimateGrid}) plus the scenario's ε and
     * the claims' ε. The audit's own numbers do not
     * depend on whether an estimate follows.
     *
     * @param lossScorer a scorer with a {@link Scorer#lossBracket()}, or null for no estimate
     */
    public static AuditResult run(TrialSamplerFactory sampler, Scorer scorer, Scorer lossScorer,
            AuditSettings settings, List<Claim> claims, List<TradeOffClaim> tradeOffClaims,
            ProgressListener progress) {
        return run(sampler, scorer, lossScorer, settings, claims, tradeOffClaims, progress, null, null);
    }

    /**
     * Runs the audit on a given engine, keeping phase states in {@code store}.
     *
     * @param phaseEngine the engine of the counted phases (null: the local {@link MonteCarloEngine} on the settings'
     *     threads); any engine gives the same numbers
     * @param store where phase states are kept and found (checkpoint and resume), or null; needs the local engine
     */
    public static AuditResult run(TrialSamplerFactory sampler, Scorer scorer, Scorer lossScorer,
            AuditSettings settings, List<Claim> claims, List<TradeOffClaim> tradeOffClaims,
            ProgressListener progress, PhaseEngine phaseEngine, PhaseStore store) {
        return run(sampler, scorer, lossScorer, null, settings, claims, tradeOffClaims, progress, phaseEngine, store);
    }

    /**
     * Runs the audit with the privacy-profile estimate of either kind: counted trials of the exact log-likelihood
     * ratio ({@code lossScorer}, plain Monte Carlo) or a white-box estimation from exact densities
     * ({@code profileEstimation}, importance sampling), at most one of them. The estimation resolves the scenario's
     * and the claims' ε and δ, and draws from the run's streams after the counted phases.
     */
    public static AuditResult run(TrialSamplerFactory sampler, Scorer scorer, Scorer lossScorer,
            ProfileEstimation profileEstimation, AuditSettings settings, List<Claim> claims,
            List<TradeOffClaim> tradeOffClaims, ProgressListener progress, PhaseEngine phaseEngine,
            PhaseStore store) {
        if (lossScorer != null && profileEstimation != null) {
            throw new IllegalArgumentException("one privacy-profile estimate per audit: plain or importance");
        }
        if (lossScorer != null && lossScorer.lossBracket() == null) {
            throw new IllegalArgumentException("the loss scorer does not bracket the log-likelihood ratio");
        }
        long start = System.nanoTime();
        // With a white-box estimate, (eps, delta) claims are judged by both sources: each gets half the error level.
        ConfidenceSplit split = (lossScorer != null || profileEstimation != null)
                ? claims.isEmpty() ? ConfidenceSplit.separate(settings.confidence())
                        : ConfidenceSplit.shared(settings.confidence())
                : ConfidenceSplit.single(settings.confidence());
        settings = settings.withConfidence(split.blackBox());
        RandomStreams streams = new RandomStreams(settings.seed());
        // on the local engine the pilot's rate per thread is the counted phases' rate
        Pilot.Result pilot = pilot(sampler, scorer, settings, streams, phaseEngine == null, lossScorer != null,
                progress);
        HistogramBinning binning = pilot.binning();
        scorer = pilot.scorer(); // a RankedScorer when a generic score turned out to take few values
        Phases engine = new Phases(phaseEngine != null ? phaseEngine
                : new MonteCarloEngine(settings.threads(), settings.shardTrials(), progress), store);
        EmpiricalEstimator estimator;
        CertifiedTradeOff tradeOff;
        long selectionTrials;
        long evaluationTrials;
        ScoreCounts selectionCounts = null;
        ScoreCounts evaluationCounts;
        if (settings.selection() instanceof ThresholdSelection.HeldOut h) {
            selectionTrials = AuditSettings.selectionTrials(settings.trialsPerWorld(), h.fraction());
            evaluationTrials = settings.trialsPerWorld() - selectionTrials;
            progress.onPhase("selection", String.format(Locale.ROOT, "%d trials per world choose the threshold test "
                    + "(held-out fraction %s)", selectionTrials, h.fraction()));
            ScoreCounts sel = engine.run("selection", sampler, scorer, binning, selectionTrials, streams);
            progress.onPhase("evaluation", String.format(Locale.ROOT, "%d trials per world certify the chosen test",
                    evaluationTrials));
            ScoreCounts eval = engine.run("evaluation", sampler, scorer, binning, evaluationTrials, streams);
            selectionCounts = sel;
            evaluationCounts = eval;
            estimator = EmpiricalEstimator.heldOut(sel, eval, settings.confidence(), h);
            tradeOff = TradeOffCertification.certify(sel, eval, settings.confidence(), settings.tradeOff().method(),
                    settings.tradeOff().grid());
        } else {
            ThresholdSelection.Bonferroni b = (ThresholdSelection.Bonferroni) settings.selection();
            selectionTrials = 0;
            evaluationTrials = settings.trialsPerWorld();
            progress.onPhase("evaluation", String.format(Locale.ROOT, "%d trials per world evaluate %d tests "
                    + "(Bonferroni)", evaluationTrials, 4 * b.gridSize()));
            ScoreCounts all = engine.run("evaluation", sampler, scorer, binning, evaluationTrials, streams);
            evaluationCounts = all;
            estimator = EmpiricalEstimator.bonferroni(all, settings.confidence(), b);
            tradeOff = TradeOffCertification.certify(null, all, settings.confidence(), settings.tradeOff().method(),
                    settings.tradeOff().grid());
        }
        ScoreCounts[] lossCounts = new ScoreCounts[1];
        PrivacyLossEstimate estimate = lossScorer == null ? null
                : estimateLoss(engine, sampler, lossScorer, settings, claims, streams, lossCounts, progress);
        if (profileEstimation != null) {
            List<Double> targetEpsilons = new ArrayList<>(settings.epsilons());
            List<Double> targetDeltas = new ArrayList<>(settings.deltas());
            for (Claim c : claims) {
                targetEpsilons.add(c.epsilon());
                targetDeltas.add(c.delta());
            }
            progress.onPhase("estimate", "importance sampling of the exact privacy loss (white-box)");
            estimate = profileEstimation.estimate(targetEpsilons, targetDeltas, settings.confidence(), streams,
                    settings.threads(), progress);
        }
        List<EpsilonLowerBound> eps = epsilonBounds(settings, estimator::epsilonLowerBound);
        List<DeltaLowerBound> dels = deltaBounds(settings, estimator::deltaLowerBound);
        List<ClaimResult> results = new ArrayList<>();
        for (Claim c : claims) {
            DeltaLowerBound d = estimator.deltaLowerBound(c.epsilon());
            results.add(ClaimJudgement.judge(c, d, estimator.epsilonLowerBound(c.delta()),
                    EpsilonPower.Candidates.of(evaluationCounts, d.test().errorLevelPerRate()), estimate));
        }
        List<TradeOffClaimResult> tradeOffResults = judge(tradeOff, tradeOffClaims);
        double elapsed = (System.nanoTime() - start) / 1e9;
        return new AuditResult(settings, sampler.description(), scorer.description(), binning, selectionTrials,
                evaluationTrials, streams.issued(), eps, dels, results, elapsed, tradeOff, tradeOffResults, estimate,
                new AuditResult.Counts(selectionCounts, evaluationCounts, lossCounts[0]), split);
    }

    /**
     * Runs the audit on coupled trials: both worlds of each trial on common random numbers
     * ({@link CoupledSamplerFactory}), held-out selection only. The pilot is {@link #run}'s (stream 0, each world
     * apart); the selection and evaluation phases are coupled ({@link CoupledPhase}), one stream per shard, in order.
     *
     * <p>What uses the coupling and what does not:
     * <ul>
     *   <li>ε at δ, δ at ε and the verdicts are certified by {@link PairedEstimator}: on the chosen test, the paired
     *       bound ({@code PairedEpsilonBound}, {@code PairedDeltaBound}: McNemar-style conditioning on the discordant
     *       trials) or each world's own Clopper–Pearson limits, whichever the selection trials predict tighter;</li>
     *   <li>the trade-off curve uses each world's counts alone ({@link TradeOffCertification}'s per-world bounds),
     *       which hold for any joint law of the two worlds (each limit concerns one world, and they are combined by a
     *       union bound). The conditional odds-ratio bound, which assumes independent worlds, is never used.</li>
     * </ul>
     *
     * @param coupled the mechanism's coupled trials
     * @param sampler the same mechanism's ordinary trials (for the pilot)
     */
    public static AuditResult runCoupled(CoupledSamplerFactory coupled, TrialSamplerFactory sampler, Scorer scorer,
            AuditSettings settings, List<Claim> claims, List<TradeOffClaim> tradeOffClaims,
            ProgressListener progress) {
        return runCoupled(coupled, sampler, scorer, settings, claims, tradeOffClaims, progress, null, null);
    }

    /**
     * Runs the audit on coupled trials on a given engine, keeping phase states in {@code store}: any engine gives the
     * same numbers, and a resumed run those of an uninterrupted one.
     *
     * @param engine the engine of the counted phases (null: the local {@link CoupledPhase} on the settings' threads)
     * @param store where phase states are kept and found (checkpoint and resume), or null; needs the local engine
     */
    public static AuditResult runCoupled(CoupledSamplerFactory coupled, TrialSamplerFactory sampler, Scorer scorer,
            AuditSettings settings, List<Claim> claims, List<TradeOffClaim> tradeOffClaims,
            ProgressListener progress, CoupledPhaseEngine engine, PhaseStore store) {
        if (store != null && engine != null) {
            throw new IllegalArgumentException("checkpoint and resume need the local engine");
        }
        if (!(settings.selection() instanceof ThresholdSelection.HeldOut h)) {
            throw new IllegalArgumentException("coupled trials need held-out threshold selection");
        }
        long start = System.nanoTime();
        RandomStreams streams = new RandomStreams(settings.seed());
        Pilot.Result pilot = pilot(sampler, scorer, settings, streams, true, false, progress);
        HistogramBinning binning = pilot.binning();
        scorer = pilot.scorer();
        CoupledPhaseEngine phase = engine != null ? engine
                : new CoupledPhase(settings.threads(), settings.shardTrials(), progress);
        long selectionTrials = AuditSettings.selectionTrials(settings.trialsPerWorld(), h.fraction());
        long evaluationTrials = settings.trialsPerWorld() - selectionTrials;
        progress.onPhase("selection", String.format(Locale.ROOT, "%d coupled trials (common random numbers) choose "
                + "the threshold test (held-out fraction %s)", selectionTrials, h.fraction()));
        CoupledCounts sel = runCoupledPhase(phase, store, "selection", coupled, scorer, binning, selectionTrials,
                streams);
        progress.onPhase("evaluation", String.format(Locale.ROOT, "%d coupled trials certify the chosen test",
                evaluationTrials));
        CoupledCounts eval = runCoupledPhase(phase, store, "evaluation", coupled, scorer, binning, evaluationTrials,
                streams);
        ScoreCounts selectionCounts = sel.marginals();
        ScoreCounts evaluationCounts = eval.marginals();
        PairedEstimator paired = PairedEstimator.heldOut(sel, eval, settings.confidence());
        CertifiedTradeOff tradeOff = TradeOffCertification.certify(selectionCounts, evaluationCounts,
                settings.confidence(), settings.tradeOff().method(), settings.tradeOff().grid());
        List<EpsilonLowerBound> eps = epsilonBounds(settings, paired::epsilonLowerBound);
        List<DeltaLowerBound> dels = deltaBounds(settings, paired::deltaLowerBound);
        List<ClaimResult> results = new ArrayList<>();
        for (Claim c : claims) {
            // each world's limits on its own hold under any joint law: the marginals give the candidate events
            DeltaLowerBound d = paired.deltaLowerBound(c.epsilon());
            results.add(ClaimJudgement.judge(c, d, paired.epsilonLowerBound(c.delta()),
                    EpsilonPower.Candidates.of(evaluationCounts, d.test().errorLevelPerRate()), null));
        }
        List<TradeOffClaimResult> tradeOffResults = judge(tradeOff, tradeOffClaims);
        double elapsed = (System.nanoTime() - start) / 1e9;
        return new AuditResult(settings, coupled.description() + "; coupled trials (common random numbers)",
                scorer.description(), binning, selectionTrials, evaluationTrials, streams.issued(), eps, dels, results,
                elapsed, tradeOff, tradeOffResults, null, new AuditResult.Counts(selectionCounts, evaluationCounts,
                        null));
    }

    /** One coupled phase, resumed from and kept in {@code store} when there is one. */
    private static CoupledCounts runCoupledPhase(CoupledPhaseEngine phase, PhaseStore store, String name,
            CoupledSamplerFactory coupled, Scorer scorer, HistogramBinning binning, long trials,
            RandomStreams streams) {
        if (store == null) {
            return phase.runCoupled(name, coupled, scorer, binning, trials, streams);
        }
        return ((CoupledPhase) phase).run(name, coupled, scorer, binning, trials, streams,
                store.restoreCoupled(name, binning, trials), store::mergedCoupled);
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

    /** The ε lower bound at each of the settings' δ. */
    private static List<EpsilonLowerBound> epsilonBounds(AuditSettings settings,
            java.util.function.DoubleFunction<EpsilonLowerBound> atDelta) {
        List<EpsilonLowerBound> eps = new ArrayList<>();
        for (double d : settings.deltas()) {
            eps.add(atDelta.apply(d));
        }
        return eps;
    }

    /** The δ lower bound at each of the settings' ε. */
    private static List<DeltaLowerBound> deltaBounds(AuditSettings settings,
            java.util.function.DoubleFunction<DeltaLowerBound> atEpsilon) {
        List<DeltaLowerBound> dels = new ArrayList<>();
        for (double e : settings.epsilons()) {
            dels.add(atEpsilon.apply(e));
        }
        return dels;
    }

    /** The verdict on each f-DP claim. */
    private static List<TradeOffClaimResult> judge(CertifiedTradeOff tradeOff, List<TradeOffClaim> claims) {
        List<TradeOffClaimResult> results = new ArrayList<>();
        for (TradeOffClaim c : claims) {
            results.add(judge(tradeOff, c));
        }
        return results;
    }

    /** The engine and the store together: every counted phase goes through {@link #run}. */
    private record Phases(PhaseEngine engine, PhaseStore store) {
        Phases {
            if (store != null && !(engine instanceof MonteCarloEngine)) {
                throw new IllegalArgumentException("checkpoint and resume need the local engine");
            }
        }

        ScoreCounts run(String phase, TrialSamplerFactory sampler, Scorer scorer, HistogramBinning binning,
                long trials, RandomStreams streams) {
            if (store == null) {
                return engine.run(phase, sampler, scorer, binning, trials, streams);
            }
            MonteCarloEngine local = (MonteCarloEngine) engine;
            MonteCarloEngine.Resume resume = store.restore(phase, binning, trials);
            long shards = local.shardCount(trials);
            if (resume != null && resume.shardsDone() > shards) {
                throw new io.dpaudit.core.InvalidInputException("--resume", "(phase " + phase + ", "
                        + resume.shardsDone() + " shards done)", "this phase has " + shards + " shards: the "
                        + "checkpoint's counts could not have come from them; refused");
            }
            if (resume != null && resume.shardsDone() == shards) {
                if (resume.counts().trials() != trials) {
                    throw new io.dpaudit.core.InvalidInputException("--resume", "(phase " + phase + ", "
                            + resume.counts().trials() + " trials per world)", "the completed phase has " + trials
                            + ": the checkpoint's counts could not have come from its shards; refused");
                }
                streams.skip(shards); // the phase is done: later phases take the streams after its shards
                ScoreCounts counts = resume.counts().on(binning);
                store.merged(phase, shards, shards, counts);
                return counts;
            }
            return local.run(phase, sampler, scorer, binning, trials, streams, resume, store::merged);
        }
    }

    private static PrivacyLossEstimate estimateLoss(Phases engine, TrialSamplerFactory sampler,
            Scorer lossScorer, AuditSettings settings, List<Claim> claims, RandomStreams streams,
            ScoreCounts[] countsOut, ProgressListener progress) {
        LossBracket bracket = lossScorer.lossBracket();
        progress.onPhase("estimate", String.format(Locale.ROOT, "pilot of %d trials per world, then %d "
                + "trials per world of the exact log-likelihood ratio", estimatePilotTrials(settings),
                settings.trialsPerWorld()));
        HistogramBinning binning = Pilot.binning(sampler, lossScorer, estimatePilotTrials(settings), ESTIMATE_BINS,
                streams.next(), progress);
        ScoreCounts counts = engine.run("estimate", sampler, lossScorer, binning, settings.trialsPerWorld(),
                streams);
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

    /**
     * The verdict on an f-DP claim from a certified trade-off curve: violated when a certified point refutes it,
     * otherwise inconclusive or consistent by the curve's power ({@link TradeOffPower}).
     */
    public static TradeOffClaimResult judge(CertifiedTradeOff tradeOff, TradeOffClaim claim) {
        CertifiedTradeOff.Refutation r = tradeOff.refute(claim.f(), claim.reverse());
        double mu = tradeOff.gdpMuLowerBound();
        TradeOffPower power = TradeOffPower.withClaimMu(tradeOff, claim.f(), claim.reverse(), claim.claimMu());
        Verdict v = r != null ? Verdict.VIOLATED : power.inconclusive() ? Verdict.INCONCLUSIVE : Verdict.CONSISTENT;
        return new TradeOffClaimResult(claim, v, r, mu, Double.isNaN(claim.gdpMu()) ? Double.NaN
                : mu / claim.gdpMu(), power);
    }

    /**
     * The verdict on one claim from an estimator's bounds at its ε and δ, without a white-box estimate
     * ({@link ClaimJudgement}).
     */
    public static ClaimResult judge(EmpiricalEstimator estimator, ScoreCounts evaluation, Claim claim) {
        DeltaLowerBound d = estimator.deltaLowerBound(claim.epsilon());
        return ClaimJudgement.judge(claim, d, estimator.epsilonLowerBound(claim.delta()),
                EpsilonPower.Candidates.of(evaluation, d.test().errorLevelPerRate()), null);
    }
}

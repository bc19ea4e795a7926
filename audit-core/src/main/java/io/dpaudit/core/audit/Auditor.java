package io.dpaudit.core.audit;

import io.dpaudit.core.engine.HistogramBinning;
import io.dpaudit.core.engine.MonteCarloEngine;
import io.dpaudit.core.engine.Pilot;
import io.dpaudit.core.engine.ProgressListener;
import io.dpaudit.core.engine.ScoreCounts;
import io.dpaudit.core.engine.Scorer;
import io.dpaudit.core.engine.TrialSamplerFactory;
import io.dpaudit.core.estimate.CertifiedTradeOff;
import io.dpaudit.core.estimate.DeltaLowerBound;
import io.dpaudit.core.estimate.EmpiricalEstimator;
import io.dpaudit.core.estimate.EpsilonLowerBound;
import io.dpaudit.core.estimate.ThresholdSelection;
import io.dpaudit.core.estimate.TradeOffCertification;
import io.dpaudit.core.rng.RandomStreams;
import java.util.ArrayList;
import java.util.List;

/**
 * Runs an audit: pilot, counted phases, estimation, verdicts.
 *
 * <p>Streams of the root seed are consumed in this order: stream 0 for the pilot (which fixes the histogram range),
 * then one stream per shard of the selection phase (held-out method only), then one per shard of the evaluation
 * phase. Selection uses {@code round(N f)} trials per world and evaluation the remaining {@code N - round(N f)};
 * with Bonferroni selection all {@code N} are evaluation trials.
 *
 * <p>A claim is {@link Verdict#VIOLATED} when the empirical δ lower bound at the claim's ε exceeds the claim's δ.
 * For a correct claim that happens with probability at most {@code 1 - confidence}.
 */
public final class Auditor {
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
        long start = System.nanoTime();
        RandomStreams streams = new RandomStreams(settings.seed());
        HistogramBinning binning = Pilot.binning(sampler, scorer, settings.pilotTrials(), settings.bins(),
                streams.next());
        MonteCarloEngine engine = new MonteCarloEngine(settings.threads(), settings.shardTrials(), progress);
        EmpiricalEstimator estimator;
        CertifiedTradeOff tradeOff;
        long selectionTrials;
        long evaluationTrials;
        if (settings.selection() instanceof ThresholdSelection.HeldOut h) {
            selectionTrials = AuditSettings.selectionTrials(settings.trialsPerWorld(), h.fraction());
            evaluationTrials = settings.trialsPerWorld() - selectionTrials;
            ScoreCounts sel = engine.run("selection", sampler, scorer, binning, selectionTrials, streams);
            ScoreCounts eval = engine.run("evaluation", sampler, scorer, binning, evaluationTrials, streams);
            estimator = EmpiricalEstimator.heldOut(sel, eval, settings.confidence(), h);
            tradeOff = TradeOffCertification.certify(sel, eval, settings.confidence(), settings.tradeOff().method(),
                    settings.tradeOff().grid());
        } else {
            ThresholdSelection.Bonferroni b = (ThresholdSelection.Bonferroni) settings.selection();
            selectionTrials = 0;
            evaluationTrials = settings.trialsPerWorld();
            ScoreCounts all = engine.run("evaluation", sampler, scorer, binning, evaluationTrials, streams);
            estimator = EmpiricalEstimator.bonferroni(all, settings.confidence(), b);
            tradeOff = TradeOffCertification.certify(null, all, settings.confidence(), settings.tradeOff().method(),
                    settings.tradeOff().grid());
        }
        List<EpsilonLowerBound> eps = new ArrayList<>();
        for (double d : settings.deltas()) {
            eps.add(estimator.epsilonLowerBound(d));
        }
        List<DeltaLowerBound> dels = new ArrayList<>();
        for (double e : settings.epsilons()) {
            dels.add(estimator.deltaLowerBound(e));
        }
        List<ClaimResult> results = new ArrayList<>();
        for (Claim c : claims) {
            results.add(judge(estimator, c));
        }
        List<TradeOffClaimResult> tradeOffResults = new ArrayList<>();
        for (TradeOffClaim c : tradeOffClaims) {
            tradeOffResults.add(judge(tradeOff, c));
        }
        double elapsed = (System.nanoTime() - start) / 1e9;
        return new AuditResult(settings, sampler.description(), scorer.description(), binning, selectionTrials,
                evaluationTrials, streams.issued(), eps, dels, results, elapsed, tradeOff, tradeOffResults);
    }

    /** The verdict on an f-DP claim from a certified trade-off curve. */
    public static TradeOffClaimResult judge(CertifiedTradeOff tradeOff, TradeOffClaim claim) {
        CertifiedTradeOff.Refutation r = tradeOff.refute(claim.f());
        double mu = tradeOff.gdpMuLowerBound();
        return new TradeOffClaimResult(claim, r != null ? Verdict.VIOLATED : Verdict.CONSISTENT, r, mu,
                Double.isNaN(claim.gdpMu()) ? Double.NaN : mu / claim.gdpMu());
    }

    /** The verdict on one claim from an estimator. */
    public static ClaimResult judge(EmpiricalEstimator estimator, Claim claim) {
        DeltaLowerBound d = estimator.deltaLowerBound(claim.epsilon());
        EpsilonLowerBound e = estimator.epsilonLowerBound(claim.delta());
        Verdict v = d.delta() > claim.delta() ? Verdict.VIOLATED : Verdict.CONSISTENT;
        return new ClaimResult(claim, v, d, e);
    }
}

package io.dpaudit.core.audit;

import io.dpaudit.core.engine.HistogramBinning;
import io.dpaudit.core.engine.ScoreCounts;
import io.dpaudit.core.estimate.tradeoff.CertifiedTradeOff;
import io.dpaudit.core.estimate.DeltaLowerBound;
import io.dpaudit.core.estimate.EpsilonLowerBound;
import io.dpaudit.core.estimate.profile.PrivacyLossEstimate;
import java.util.List;

/**
 * Immutable outcome of one audit.
 *
 * @param settings the settings it ran with
 * @param mechanism description of the trial sampler
 * @param attack description of the scorer
 * @param binning the histogram layout fixed by the pilot
 * @param selectionTrials trials per world used to select tests (0 for Bonferroni)
 * @param evaluationTrials trials per world used to certify tests
 * @param streamsUsed random streams consumed (pilot plus one per shard)
 * @param epsilonLowerBounds one per requested δ
 * @param deltaLowerBounds one per requested ε
 * @param claims one per claim
 * @param elapsedSeconds wall time of the pilot and both phases
 * @param tradeOff the certified empirical trade-off curve
 * @param tradeOffClaims one per f-DP claim
 * @param estimate the two-sided privacy-loss estimate, or null when none was asked for
 * @param counts the histograms behind every number (for the counts file), or null when not kept
 * @param confidence how the verdicts' confidence is shared between the looks and the sources of evidence
 *     ({@code settings}' confidence is each black-box statement's: {@link ConfidenceSplit#blackBox})
 * @param sequential what a sequential audit did, look by look; null for an audit of one look. The numbers above are
 *     the last look's ({@code settings}' trials: those of all its stages), except a claim refuted at an earlier look
 */
public record AuditResult(
        AuditSettings settings,
        String mechanism,
        String attack,
        HistogramBinning binning,
        long selectionTrials,
        long evaluationTrials,
        long streamsUsed,
        List<EpsilonLowerBound> epsilonLowerBounds,
        List<DeltaLowerBound> deltaLowerBounds,
        List<ClaimResult> claims,
        double elapsedSeconds,
        CertifiedTradeOff tradeOff,
        List<TradeOffClaimResult> tradeOffClaims,
        PrivacyLossEstimate estimate,
        Counts counts,
        ConfidenceSplit confidence,
        SequentialRun sequential) {

    /**
     * The merged histograms of each counted phase.
     *
     * @param selection held-out selection counts, or null with Bonferroni selection
     * @param evaluation evaluation counts
     * @param estimate the privacy-loss estimate's counts, or null without an estimate
     */
    public record Counts(ScoreCounts selection, ScoreCounts evaluation, ScoreCounts estimate) {
    }

    /** A result without a privacy-loss estimate. */
    public AuditResult(AuditSettings settings, String mechanism, String attack, HistogramBinning binning,
            long selectionTrials, long evaluationTrials, long streamsUsed, List<EpsilonLowerBound> epsilonLowerBounds,
            List<DeltaLowerBound> deltaLowerBounds, List<ClaimResult> claims, double elapsedSeconds,
            CertifiedTradeOff tradeOff, List<TradeOffClaimResult> tradeOffClaims) {
        this(settings, mechanism, attack, binning, selectionTrials, evaluationTrials, streamsUsed, epsilonLowerBounds,
                deltaLowerBounds, claims, elapsedSeconds, tradeOff, tradeOffClaims, null, null,
                ConfidenceSplit.single(settings.confidence()), null);
    }

    /** A result whose statements are all at the settings' confidence (one source of evidence). */
    public AuditResult(AuditSettings settings, String mechanism, String attack, HistogramBinning binning,
            long selectionTrials, long evaluationTrials, long streamsUsed, List<EpsilonLowerBound> epsilonLowerBounds,
            List<DeltaLowerBound> deltaLowerBounds, List<ClaimResult> claims, double elapsedSeconds,
            CertifiedTradeOff tradeOff, List<TradeOffClaimResult> tradeOffClaims, PrivacyLossEstimate estimate,
            Counts counts) {
        this(settings, mechanism, attack, binning, selectionTrials, evaluationTrials, streamsUsed, epsilonLowerBounds,
                deltaLowerBounds, claims, elapsedSeconds, tradeOff, tradeOffClaims, estimate, counts,
                ConfidenceSplit.single(settings.confidence()), null);
    }

    public AuditResult {
        if (confidence.blackBox() != settings.confidence()) {
            throw new IllegalArgumentException("the settings' confidence is each black-box statement's");
        }
        epsilonLowerBounds = List.copyOf(epsilonLowerBounds);
        deltaLowerBounds = List.copyOf(deltaLowerBounds);
        claims = List.copyOf(claims);
        tradeOffClaims = List.copyOf(tradeOffClaims);
    }

    /** Counted trials per world per second of wall time (a trial is one output in each world). */
    public double trialsPerSecond() {
        return elapsedSeconds > 0 ? settings.trialsPerWorld() / elapsedSeconds : Double.POSITIVE_INFINITY;
    }

    /** Whether any claim was found violated. */
    public boolean anyViolated() {
        return claims.stream().anyMatch(c -> c.verdict() == Verdict.VIOLATED)
                || tradeOffClaims.stream().anyMatch(c -> c.verdict() == Verdict.VIOLATED);
    }
}

package io.dpaudit.core.audit;

import io.dpaudit.core.engine.ScoreCounts;
import io.dpaudit.core.estimate.tradeoff.CertifiedTradeOff;
import io.dpaudit.core.estimate.DeltaLowerBound;
import io.dpaudit.core.estimate.EpsilonLowerBound;
import io.dpaudit.core.estimate.power.EpsilonPower;
import io.dpaudit.core.estimate.profile.PrivacyLossEstimate;
import io.dpaudit.core.estimate.ThresholdEstimator;
import io.dpaudit.core.estimate.tradeoff.TradeOffCertification;
import io.dpaudit.core.estimate.power.TradeOffPower;
import java.util.ArrayList;
import java.util.List;

/**
 * The one judgement stage of every audit kind — simulated trials of each world apart, coupled trials, score files:
 * counts and an estimator in, verdicts out. The empirical ε lower bounds at the settings' δ and δ lower bounds at
 * their ε, the certified trade-off curve, and the verdict on every claim ({@link ClaimJudgement} for (ε, δ) claims,
 * with the white-box estimate when there is one; the curve for f-DP claims). Each world's counts alone certify the
 * trade-off curve (per-world bounds hold under any joint law, so coupled trials use their marginals), and give the
 * candidate events of the power in ε.
 */
public final class Judgement {
    private Judgement() {
    }

    /**
     * Everything an audit's counts say.
     *
     * @param epsilonLowerBounds one per δ of the settings
     * @param deltaLowerBounds one per ε of the settings
     * @param claims one per (ε, δ) claim
     * @param tradeOff the certified empirical trade-off curve
     * @param tradeOffClaims one per f-DP claim
     */
    public record Judged(List<EpsilonLowerBound> epsilonLowerBounds, List<DeltaLowerBound> deltaLowerBounds,
            List<ClaimResult> claims, CertifiedTradeOff tradeOff, List<TradeOffClaimResult> tradeOffClaims) {
        public Judged {
            epsilonLowerBounds = List.copyOf(epsilonLowerBounds);
            deltaLowerBounds = List.copyOf(deltaLowerBounds);
            claims = List.copyOf(claims);
            tradeOffClaims = List.copyOf(tradeOffClaims);
        }
    }

    /**
     * Judges an audit.
     *
     * @param estimator the certified bounds of the counts (its test chosen on {@code selection} or by Bonferroni)
     * @param selection each world's selection counts, or null when the tests are chosen by Bonferroni
     * @param evaluation each world's evaluation counts
     * @param settings the confidence of each statement, the δ and ε to report, the trade-off certification
     * @param claims the (ε, δ) claims
     * @param tradeOffClaims the f-DP claims
     * @param estimate the white-box estimate, or null
     */
    public static Judged judge(ThresholdEstimator estimator, ScoreCounts selection, ScoreCounts evaluation,
            AuditSettings settings, List<Claim> claims, List<TradeOffClaim> tradeOffClaims,
            PrivacyLossEstimate estimate) {
        return judge(estimator, selection, evaluation, settings, claims, tradeOffClaims, estimate, false, null);
    }

    /**
     * Judges an audit whose simulated pair may be only a lower-bound pair of the mechanism ({@code pairFromBelow}):
     * then the estimate refutes claims but calls none loose ({@link ClaimEstimate#judge(Claim,
     * PrivacyLossEstimate, boolean)}); {@code analytic}, one per claim (entries may be null) or null for none, the
     * proven lower bounds' evidence ({@link ClaimAnalytic}).
     */
    public static Judged judge(ThresholdEstimator estimator, ScoreCounts selection, ScoreCounts evaluation,
            AuditSettings settings, List<Claim> claims, List<TradeOffClaim> tradeOffClaims,
            PrivacyLossEstimate estimate, boolean pairFromBelow, List<ClaimAnalytic> analytic) {
        List<EpsilonLowerBound> eps = new ArrayList<>();
        for (double d : settings.deltas()) {
            eps.add(estimator.epsilonLowerBound(d));
        }
        List<DeltaLowerBound> dels = new ArrayList<>();
        for (double e : settings.epsilons()) {
            dels.add(estimator.deltaLowerBound(e));
        }
        List<ClaimResult> results = new ArrayList<>();
        for (int i = 0; i < claims.size(); i++) {
            Claim c = claims.get(i);
            DeltaLowerBound d = estimator.deltaLowerBound(c.epsilon());
            results.add(ClaimJudgement.judge(c, d, estimator.epsilonLowerBound(c.delta()),
                    EpsilonPower.Candidates.of(evaluation, d.test().errorLevelPerRate()), estimate, pairFromBelow,
                    analytic == null ? null : analytic.get(i)));
        }
        CertifiedTradeOff tradeOff = TradeOffCertification.certify(selection, evaluation, settings.confidence(),
                settings.tradeOff().method(), settings.tradeOff().grid());
        List<TradeOffClaimResult> tradeOffResults = new ArrayList<>();
        for (TradeOffClaim c : tradeOffClaims) {
            tradeOffResults.add(judge(tradeOff, c));
        }
        return new Judged(eps, dels, results, tradeOff, tradeOffResults);
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
}

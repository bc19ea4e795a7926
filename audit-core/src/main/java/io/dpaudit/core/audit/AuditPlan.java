package io.dpaudit.core.audit;

import io.dpaudit.core.InvalidInputException;
import io.dpaudit.core.bounds.BoundKind;
import io.dpaudit.core.bounds.PrivacyBound;
import io.dpaudit.core.engine.Scorer;
import io.dpaudit.core.engine.TrialSamplerFactory;
import io.dpaudit.core.estimate.ThresholdSelection;
import java.util.List;

/**
 * Everything one audit runs: the mechanism's trials, the attack, the settings, the claims, the optional two-sided
 * estimate and the kind of trial. Immutable; built by {@link #of} and the {@code with...} methods, validated as a
 * whole ({@link #validate}) before {@link Auditor#run} draws anything.
 *
 * @param sampler the mechanism's trials
 * @param scorer the attack
 * @param settings trials, seed, confidence and so on
 * @param claims (ε, δ) claims (may be empty)
 * @param tradeOffClaims f-DP claims (may be empty)
 * @param lossScorer a scorer of the exact log-likelihood ratio for the plain two-sided estimate, or null
 * @param profileEstimation the importance-sampled two-sided estimate, or null
 * @param coupled whether both worlds of each trial run on common random numbers ({@link
 *     TrialSamplerFactory#coupling()})
 * @param stopping when the audit stops: after all of {@code settings}' trials, or sequentially with them as the
 *     budget
 * @param pairFromBelow whether the simulated pair is only a lower-bound pair of the mechanism (not proven its worst
 *     case, e.g. the shuffle's): its two-sided estimate can refute a claim but shows none loose
 * @param provenLowerBounds the mechanism's proven lower bounds on its worst-case δ(ε) (bounds of kind
 *     {@code lower-bound}): the analytic evidence ({@link ClaimAnalytic}); may be empty
 */
public record AuditPlan(TrialSamplerFactory sampler, Scorer scorer, AuditSettings settings, List<Claim> claims,
        List<TradeOffClaim> tradeOffClaims, Scorer lossScorer, ProfileEstimation profileEstimation,
        boolean coupled, Stopping stopping, boolean pairFromBelow, List<PrivacyBound> provenLowerBounds) {

    public AuditPlan {
        claims = List.copyOf(claims);
        tradeOffClaims = List.copyOf(tradeOffClaims);
        for (PrivacyBound b : provenLowerBounds) {
            if (b.kind() != BoundKind.LOWER_BOUND) {
                throw new IllegalArgumentException(b.name() + " is not a proven lower bound (" + b.kind() + ")");
            }
        }
        provenLowerBounds = List.copyOf(provenLowerBounds);
    }

    /** A plan without claims, estimate or coupling, of a fixed design. */
    public static AuditPlan of(TrialSamplerFactory sampler, Scorer scorer, AuditSettings settings) {
        return new AuditPlan(sampler, scorer, settings, List.of(), List.of(), null, null, false, Stopping.FIXED,
                false, List.of());
    }

    /** The same plan with these (ε, δ) claims. */
    public AuditPlan withClaims(List<Claim> newClaims) {
        return new AuditPlan(sampler, scorer, settings, newClaims, tradeOffClaims, lossScorer, profileEstimation,
                coupled, stopping, pairFromBelow, provenLowerBounds);
    }

    /** The same plan with these f-DP claims. */
    public AuditPlan withTradeOffClaims(List<TradeOffClaim> newClaims) {
        return new AuditPlan(sampler, scorer, settings, claims, newClaims, lossScorer, profileEstimation, coupled,
                stopping, pairFromBelow, provenLowerBounds);
    }

    /** The same plan with the plain two-sided estimate from counted trials of {@code loss} (null: none). */
    public AuditPlan withLossScorer(Scorer loss) {
        return new AuditPlan(sampler, scorer, settings, claims, tradeOffClaims, loss, profileEstimation, coupled,
                stopping, pairFromBelow, provenLowerBounds);
    }

    /** The same plan with the importance-sampled two-sided estimate (null: none). */
    public AuditPlan withProfileEstimation(ProfileEstimation estimation) {
        return new AuditPlan(sampler, scorer, settings, claims, tradeOffClaims, lossScorer, estimation, coupled,
                stopping, pairFromBelow, provenLowerBounds);
    }

    /** The same plan with another attack. */
    public AuditPlan withScorer(Scorer other) {
        return new AuditPlan(sampler, other, settings, claims, tradeOffClaims, lossScorer, profileEstimation,
                coupled, stopping, pairFromBelow, provenLowerBounds);
    }

    /** The same plan on coupled trials ({@code true}) or on trials of each world apart. */
    public AuditPlan withCoupling(boolean on) {
        return new AuditPlan(sampler, scorer, settings, claims, tradeOffClaims, lossScorer, profileEstimation, on,
                stopping, pairFromBelow, provenLowerBounds);
    }

    /** The same plan with its simulated pair declared a lower-bound pair of the mechanism ({@code true}) or not. */
    public AuditPlan withPairFromBelow(boolean on) {
        return new AuditPlan(sampler, scorer, settings, claims, tradeOffClaims, lossScorer, profileEstimation, coupled,
                stopping, on, provenLowerBounds);
    }

    /**
     * The same plan with the mechanism's proven lower bounds as analytic evidence on its claims (only bounds of kind
     * {@code lower-bound}; others are refused).
     */
    public AuditPlan withProvenLowerBounds(List<PrivacyBound> bounds) {
        return new AuditPlan(sampler, scorer, settings, claims, tradeOffClaims, lossScorer, profileEstimation, coupled,
                stopping, pairFromBelow, bounds);
    }

    /** The same plan stopping by {@code rule} ({@code settings}' trials then the budget of a sequential one). */
    public AuditPlan withStopping(Stopping rule) {
        return new AuditPlan(sampler, scorer, settings, claims, tradeOffClaims, lossScorer, profileEstimation, coupled,
                rule, pairFromBelow, provenLowerBounds);
    }

    /** Whether the plan has a two-sided estimate (white-box evidence). */
    public boolean hasEstimate() {
        return lossScorer != null || profileEstimation != null;
    }

    /**
     * Refuses a plan that cannot run: two estimates, a loss scorer without a bracket of the log-likelihood ratio,
     * coupled trials of a mechanism that has none, with Bonferroni selection or with an estimate; a sequential audit
     * without a claim to stop on, with the importance-sampled estimate (whose budget is its own), or whose first stage
     * cannot be split.
     *
     * @throws InvalidInputException naming {@code simulator.coupling} for coupling the plan cannot have
     * @throws IllegalArgumentException for the programming errors
     */
    public AuditPlan validate() {
        if (lossScorer != null && profileEstimation != null) {
            throw new IllegalArgumentException("one privacy-profile estimate per audit: plain or importance");
        }
        if (lossScorer != null && lossScorer.lossBracket() == null) {
            throw new IllegalArgumentException("the loss scorer does not bracket the log-likelihood ratio");
        }
        if (coupled) {
            if (sampler.coupling() == null) {
                throw new InvalidInputException("simulator.coupling", "common-random-numbers", "needs a mechanism "
                        + "whose sampler can run both worlds on common random numbers; this one cannot");
            }
            if (!(settings.selection() instanceof ThresholdSelection.HeldOut)) {
                throw new InvalidInputException("simulator.coupling", "common-random-numbers", "needs held-out "
                        + "threshold selection: the paired bound certifies a test chosen on separate coupled trials");
            }
            if (hasEstimate()) {
                throw new IllegalArgumentException("coupled trials have no two-sided estimate");
            }
        }
        if (stopping.sequential()) {
            validateSequential();
        }
        return this;
    }

    private void validateSequential() {
        if (claims.isEmpty() && tradeOffClaims.isEmpty()) {
            throw new InvalidInputException("stopping.rule", "sequential", "needs at least one claim: a sequential "
                    + "audit stops when every claim is resolved");
        }
        if (profileEstimation != null) {
            throw new InvalidInputException("stopping.rule", "sequential", "does not combine with the "
                    + "importance-sampled estimate, whose trials are budgeted on their own: use the fixed rule");
        }
        if (settings.selection() instanceof ThresholdSelection.HeldOut h) {
            long first = StageSchedule.of(stopping, settings.trialsPerWorld(), settings.confidence()).stageTrials(1);
            long sel = AuditSettings.selectionTrials(first, h.fraction());
            if (sel < 1 || first - sel < 1) {
                throw new InvalidInputException("stopping.firstStageTrials", first, "too few for held-out selection "
                        + "with fraction " + h.fraction() + " (each part of the first stage needs at least one trial)");
            }
        }
    }
}

package io.dpaudit.core.audit;

import io.dpaudit.core.estimate.DeltaLowerBound;
import io.dpaudit.core.estimate.power.DetectionPower;
import io.dpaudit.core.estimate.EpsilonLowerBound;
import io.dpaudit.core.estimate.power.EpsilonPower;
import io.dpaudit.core.estimate.profile.PrivacyLossEstimate;
import java.util.EnumSet;

/**
 * The one judgement of an (ε, δ) claim, used by every audit kind (simulated trials, coupled trials, score files): one
 * verdict from every rigorous source of evidence the audit has.
 *
 * <ul>
 *   <li><b>Violated</b> when a source refutes the claim: the attack's δ lower bound at the claim's ε exceeds the
 *       claimed δ ({@link Evidence#BLACK_BOX}), the two-sided estimate's lower δ there does
 *       ({@link Evidence#WHITE_BOX}), or a proven lower bound of the mechanism does ({@link Evidence#ANALYTIC},
 *       {@link ClaimAnalytic}). The result names every source that refuted it.</li>
 *   <li><b>Consistent</b> when no source refutes it, one powers it — the attack would have refuted, with
 *       probability 0.9, a Laplace or Gaussian mechanism with {@value EpsilonPower#CONSISTENT_FACTOR} times the
 *       claimed ε at its δ ({@link EpsilonPower}), or the estimate proves the pair needs at most that
 *       ({@link ClaimEstimate#powers}) — and nothing certified speaks against it: a claim whose ε lower bound at its
 *       δ exceeds its ε ({@link ClaimResult#epsilonBoundAboveClaim}, contested) is not consistent.</li>
 *   <li><b>Inconclusive</b> otherwise, with the factor of trials that would let the attack power it (-1 when it is
 *       powered but contested: fresh trials settle it).</li>
 * </ul>
 *
 * <p><b>False alarms.</b> Each source refutes a true claim with probability at most its own error level. An audit
 * with both sources makes each at half the verdict's error level ({@link ConfidenceSplit}), so by the union bound a
 * true claim is found violated with probability at most {@code 1 - confidence}, the level the verdict states. The
 * analytic source adds no error probability: a proven lower bound never exceeds a true claim's δ.
 */
public final class ClaimJudgement {
    private ClaimJudgement() {
    }

    /**
     * The verdict on {@code claim} from the attack's bounds at its ε ({@code d}) and δ ({@code e}), the events the
     * attack could have certified ({@code candidates}, for the power in ε), and the two-sided estimate (null when the
     * audit has none); {@code pairFromBelow}: the simulated pair is only a lower-bound pair of the mechanism;
     * {@code analytic}: the largest proven lower bound on the mechanism's δ at the claim's ε, or null.
     */
    public static ClaimResult judge(Claim claim, DeltaLowerBound d, EpsilonLowerBound e,
            EpsilonPower.Candidates candidates, PrivacyLossEstimate estimate, boolean pairFromBelow,
            ClaimAnalytic analytic) {
        double eps = claim.epsilon();
        double delta = claim.delta();
        double detectable = DetectionPower.detectableDelta(d, eps, delta);
        double powerEpsilon = EpsilonPower.epsilon(d, candidates, eps, delta);
        ClaimEstimate white = estimate == null ? null : ClaimEstimate.judge(claim, estimate, pairFromBelow);
        EnumSet<Evidence> refuted = EnumSet.noneOf(Evidence.class);
        if (d.delta() > delta) {
            refuted.add(Evidence.BLACK_BOX);
        }
        if (white != null && white.verdict() == EstimateVerdict.VIOLATED) {
            refuted.add(Evidence.WHITE_BOX);
        }
        if (analytic != null && analytic.refutes(claim)) {
            refuted.add(Evidence.ANALYTIC);
        }
        if (!refuted.isEmpty()) {
            return new ClaimResult(claim, Verdict.VIOLATED, d, e, new ClaimPower(detectable, powerEpsilon,
                    DetectionPower.PROBABILITY), white, refuted, analytic);
        }
        EnumSet<Evidence> powered = EnumSet.noneOf(Evidence.class);
        boolean blackBoxPowered = EpsilonPower.powered(powerEpsilon, detectable, eps, delta);
        if (blackBoxPowered) {
            powered.add(Evidence.BLACK_BOX);
        }
        if (white != null && white.powers(claim)) {
            powered.add(Evidence.WHITE_BOX);
        }
        boolean contested = e.epsilon() > eps; // certified evidence against it, though not the verdict's test
        if (!powered.isEmpty() && !contested) {
            return new ClaimResult(claim, Verdict.CONSISTENT, d, e, new ClaimPower(detectable, powerEpsilon,
                    DetectionPower.PROBABILITY), white, powered, analytic);
        }
        long factor = blackBoxPowered ? -1 : EpsilonPower.scaleToResolve(d, candidates, eps, delta);
        return new ClaimResult(claim, Verdict.INCONCLUSIVE, d, e, new ClaimPower(detectable, powerEpsilon,
                DetectionPower.PROBABILITY, factor), white, EnumSet.noneOf(Evidence.class), analytic);
    }
}

package io.dpaudit.runner.analysis;

import io.dpaudit.core.InvalidInputException;
import io.dpaudit.core.audit.AuditResult;
import io.dpaudit.core.audit.ClaimResult;
import io.dpaudit.core.audit.EstimateVerdict;
import io.dpaudit.core.bounds.BoundFamily;
import io.dpaudit.core.bounds.BoundKind;
import io.dpaudit.core.bounds.PrivacyBound;
import io.dpaudit.core.engine.RunControl;
import io.dpaudit.runner.ScenarioAudit.Prepared;
import java.util.ArrayList;
import java.util.List;

/** The noise a claim the two-sided estimate finds loose could be met with, by calibrating a bound it finds tight. */
final class NoiseSavings {
    /**
     * For each claim the estimate finds loose, the calibration parameter at which a bound that the estimate finds
     * tight at the claim's δ meets the claim (the smallest-ε such bound among the calibratable ones that certify: upper
     * bounds and exact pair profiles). None when no calibratable bound is tight there, or calibration finds no value.
     * {@linkplain BoundFamily#costly() Costly} families are left to {@code dp-audit calibrate}.
     */
    static List<NoiseSaving> of(Prepared p, AuditResult result) {
        List<NoiseSaving> out = new ArrayList<>();
        if (result.estimate() == null) {
            return out;
        }
        for (ClaimResult c : result.claims()) {
            if (c.estimate().verdict() != EstimateVerdict.LOOSE) {
                continue;
            }
            double delta = c.claim().delta();
            var need = c.estimate().requiredEpsilon();
            BoundFamily best = null;
            double bestEpsilon = Double.POSITIVE_INFINITY;
            for (BoundFamily f : p.mechanism().boundFamilies()) {
                if (f.costly()) {
                    continue; // calibrated on request (dp-audit calibrate), not for every report
                }
                PrivacyBound b = p.bounds().stream().filter(x -> x.name().equals(f.name())).findFirst().orElse(null);
                if (b == null || !(b.certified() || b.kind() == BoundKind.PAIR_PROFILE)) {
                    continue;
                }
                double e = LoosenessAnalysis.epsilonOrInfinity(b, delta);
                if (e >= need.lower() && e <= need.upper() && e < bestEpsilon) {
                    best = f;
                    bestEpsilon = e;
                }
            }
            if (best == null) {
                continue;
            }
            try {
                double needed = best.calibrate(c.claim().epsilon(), delta);
                out.add(new NoiseSaving(c.claim().label(), best.name(), best.parameter().name(), best.current(),
                        needed));
            } catch (RunControl.Stopped e) {
                throw e;
            } catch (InvalidInputException e) {
                // no value of the parameter meets the claim under this bound: nothing to report
            }
        }
        return out;
    }

    private NoiseSavings() {
    }
}

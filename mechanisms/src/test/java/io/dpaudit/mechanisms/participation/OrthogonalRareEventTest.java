package io.dpaudit.mechanisms.participation;

import static org.junit.jupiter.api.Assertions.assertTrue;

import io.dpaudit.core.estimate.profile.PrivacyLossEstimate;
import io.dpaudit.core.estimate.profile.TiltedProfileEstimator;
import io.dpaudit.core.model.OutputModel;
import io.dpaudit.core.rng.RandomStreams;
import java.util.List;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

/**
 * Seed 000's orthogonal configuration (a two-dimensional statistic) at δ = 1e-10, by importance sampling, against its
 * exact profile (numerical integration, checked against an independent implementation to 1e-4 relative in
 * {@link RandomParticipationBoundsTest}). Fixed seed; each interval holds with probability at least 95% over seeds.
 * Statistical tier (about 10 s).
 */
@Tag("statistical")
class OrthogonalRareEventTest {
    @Test
    void figureOneSettingAtOneInTenBillion() {
        RandomParticipation m = RandomParticipationBoundsTest.mechanism("p", 0.1, "q", 0.1, "d", 10, "sigma", 1.0,
                "adversary", "orthogonal");
        OutputModel model = m.reduced().outputModel();
        assertTrue(TiltedProfileEstimator.supports(model.withCanary(), model.withoutCanary(), model.rounds()));
        TiltedProfileEstimator.Result r = TiltedProfileEstimator.estimate(model.withCanary(), model.withoutCanary(),
                model.rounds(), List.of(), List.of(1e-10), 100_000, 0.95, new RandomStreams(1005), 2);
        PrivacyLossEstimate.EpsilonInterval e = r.estimate().epsilonAt(1e-10);
        double exact = m.bounds().stream().filter(b -> b.name().equals("exact(orthogonal)")).findFirst()
                .orElseThrow().epsilon(1e-10);
        assertTrue(e.lower() <= exact * (1 + 1e-4) && exact * (1 - 1e-4) <= e.upper(), e + " vs exact " + exact);
        assertTrue((e.upper() - e.lower()) / exact <= 0.02, "relative width " + e);
        // A planted claim 10% below the truth, and Theorem 4.1 (which assumes the aligned configuration), are refuted.
        assertTrue(e.lower() > 0.9 * exact, "a claim at 0.9 x the exact epsilon would not be flagged: " + e);
        double theorem = m.bounds().stream().filter(b -> b.name().equals("thm-4.1")).findFirst().orElseThrow()
                .epsilon(1e-10);
        assertTrue(e.lower() > theorem, "Theorem 4.1 (" + theorem + ") not refuted: " + e);
    }
}

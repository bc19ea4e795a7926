package io.dpaudit.runner.validation;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.dpaudit.core.audit.AuditPlan;
import io.dpaudit.core.audit.AuditResult;
import io.dpaudit.core.audit.Auditor;
import io.dpaudit.core.audit.Verdict;
import io.dpaudit.core.bounds.PrivacyBound;
import io.dpaudit.core.engine.ProgressListener;
import io.dpaudit.core.model.AuditableMechanism;
import io.dpaudit.mechanisms.MechanismCatalog;
import io.dpaudit.runner.ScenarioAudit;
import io.dpaudit.runner.scenario.Scenario;
import io.dpaudit.runner.scenario.ScenarioReader;
import java.util.Locale;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

/**
 * Audits of seed 003 (DP-Fed with Laplacian smoothing) with fixed seeds. Verdicts are certified at 95% confidence
 * each; the margins stated per test (observed with these seeds, and far from the thresholds) make them robust.
 */
@Tag("statistical")
class DpFedAuditTest {
    private static ScenarioAudit.Prepared prepare(String json, long trials, long seed) {
        Scenario s = ScenarioReader.parse(json, "dpfed");
        return ScenarioAudit.prepare(s, trials, seed, 2);
    }

    private static AuditResult audit(ScenarioAudit.Prepared p) {
        return Auditor.run(AuditPlan.of(p.simulator(), p.scorer(), p.settings()).withClaims(p.claims()),
                ProgressListener.NONE);
    }

    private static double epsilon(AuditableMechanism m, String bound, double delta) {
        return m.bounds().stream().filter(b -> b.name().equals(bound)).findFirst().orElseThrow().epsilon(delta);
    }

    private static String mechanism(String body) {
        return "{" + body + "}";
    }

    /**
     * The replace-one sensitivity 2G, pinned: with K = 100, m = 10, nu = 2, G = 1, T = 10 the audit of the
     * replacement configuration finds epsilon >= 1.86 at delta = 1e-4 (seed 51, 10^6 trials), far above the 0.65 that
     * the PLD gives with sensitivity G. A halved sensitivity anywhere in the bounds would be reported violated; the
     * correct pld (2.30) is consistent and the empirical epsilon stays below the simulated pair's exact 2.23.
     */
    @Test
    void replaceOneSensitivityIsPinned() {
        String m = "\"type\": \"fixed-size-subsampled-gaussian\", \"clients\": 100, \"selected\": 10, \"sigma\": 2, "
                + "\"rounds\": 10";
        AuditableMechanism halved = MechanismCatalog.parse(ScenarioReader.parse("{\"mechanism\": " + mechanism(m
                + ", \"clip\": 0.5") + "}", "h").mechanism());
        double halvedPld = epsilon(halved, "pld", 1e-4);
        ScenarioAudit.Prepared p = prepare(String.format(Locale.ROOT, "{\"mechanism\": %s, \"deltas\": [1e-4], "
                + "\"epsilons\": [1], \"claims\": [{\"label\": \"pld with sensitivity G\", \"epsilon\": %s, "
                + "\"delta\": 1e-4}, {\"bound\": \"pld\", \"delta\": 1e-4}]}", mechanism(m + ", \"clip\": 1"),
                halvedPld), 1_000_000, 51);
        AuditResult r = audit(p);
        assertEquals(Verdict.VIOLATED, r.claims().get(0).verdict(), "halved sensitivity must be refuted");
        assertNotEquals(Verdict.VIOLATED, r.claims().get(1).verdict());
        double lb = r.epsilonLowerBounds().get(0).epsilon();
        assertTrue(lb > 2 * halvedPld, lb + " vs " + halvedPld);
        assertTrue(lb <= epsilon(p.mechanism(), "pair-profile(replacement)", 1e-4));
    }

    /**
     * Laplacian smoothing is post-processing. Faithful simulator, same seed, so the same selections and noise with
     * and without A_3^{-1}: the likelihood-ratio attack (which reads <y, A u>) gives the same counts, hence the same
     * empirical epsilon to rounding; every bound is the same; and the projection on the canary coordinate loses
     * power under smoothing (the test asks for less than 0.8 times the exact attack's epsilon at delta = 1e-3).
     */
    @Test
    void smoothingChangesNeitherTheExactAttackNorTheBounds() {
        String base = "\"clients\": 100, \"selected\": 10, \"sigma\": 2, \"rounds\": 4, \"dimension\": 64";
        String plain = mechanism("\"type\": \"dp-fed\", " + base);
        String smooth = mechanism("\"type\": \"dp-fed-ls\", \"smoothing\": 3, " + base);
        double[] lr = new double[2];
        double[] projection = new double[2];
        String[] mechanisms = {plain, smooth};
        for (int i = 0; i < 2; i++) {
            for (String attack : new String[] {"likelihood-ratio", "projection"}) {
                ScenarioAudit.Prepared p = prepare("{\"mechanism\": " + mechanisms[i] + ", \"simulator\": {\"kind\": "
                        + "\"faithful\"}, \"attack\": \"" + attack + "\", \"deltas\": [1e-3]}", 200_000, 61);
                double e = audit(p).epsilonLowerBounds().get(0).epsilon();
                (attack.equals("projection") ? projection : lr)[i] = e;
            }
        }
        assertEquals(lr[0], lr[1], 1e-9 * lr[0], "exact attack with and without smoothing");
        assertTrue(lr[0] > 0.5, "the audit has power: " + lr[0]);
        assertTrue(projection[1] < 0.8 * lr[1], "naive projection under smoothing " + projection[1] + " vs " + lr[1]);
        AuditableMechanism a = prepare("{\"mechanism\": " + plain + "}", 1000, 1).mechanism();
        AuditableMechanism b = prepare("{\"mechanism\": " + smooth + "}", 1000, 1).mechanism();
        for (PrivacyBound x : a.bounds()) {
            assertEquals(x.epsilon(1e-3), epsilon(b, x.name(), 1e-3), 0.0, x.name());
        }
    }

    /**
     * The paper's SVHN epsilon for uniform selection at z = 1.5 (5.23 at delta = 2000^-1.1) holds only with
     * sensitivity G: the replacement configuration's exact epsilon is 6.98, and 4 x 10^6 trials of 200 rounds show
     * delta >= 2.2e-3 at epsilon 5.23 (seed 5; nine times the claimed delta). The Poisson claim at z = 1 (5.07) is
     * valid: the PLD gives 3.70.
     */
    @Test
    void svhnUniformClaimIsRefutedAndPoissonClaimHolds() {
        double delta = Math.pow(2000, -1.1);
        String svhn = "\"type\": \"dp-fed\", \"clients\": 2000, \"fraction\": 0.05, \"clip\": 0.7, \"rounds\": 200";
        AuditResult u = audit(prepare(String.format(Locale.ROOT, "{\"mechanism\": %s, \"deltas\": [%s], "
                + "\"claims\": [{\"epsilon\": 5.23, \"delta\": %s}]}", mechanism(svhn + ", \"sigma\": 1.05"), delta,
                delta), 4_000_000, 5));
        assertEquals(Verdict.VIOLATED, u.claims().get(0).verdict());
        AuditResult p = audit(prepare(String.format(Locale.ROOT, "{\"mechanism\": %s, \"deltas\": [%s], "
                + "\"claims\": [{\"epsilon\": 5.07, \"delta\": %s}]}", mechanism(svhn + ", \"sigma\": 0.7, "
                + "\"sampling\": \"poisson\""), delta, delta), 1_000_000, 6));
        assertNotEquals(Verdict.VIOLATED, p.claims().get(0).verdict());
        assertTrue(p.epsilonLowerBounds().get(0).epsilon() <= 3.701);
    }
}

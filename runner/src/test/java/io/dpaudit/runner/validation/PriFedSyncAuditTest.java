package io.dpaudit.runner.validation;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.dpaudit.core.audit.TradeOffClaimResult;
import io.dpaudit.core.audit.Verdict;
import io.dpaudit.runner.analysis.AuditOutcome;
import java.util.Map;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

/**
 * The shipped seed-002 (PriFedSync) scenarios whose verdicts carry the README's findings, audited as shipped (their
 * trial counts, at most 10^7 per world, and seeds): five planted bugs, each VIOLATED, and a control for each that is
 * not; the broadcast threat model; the MNIST-like setting in both noise conventions. Each verdict holds at 95%
 * confidence (the certified points hold simultaneously); the fixed seeds make the outcome reproducible. Margins when
 * written (beta below the claimed curve): Theorem 1 under persistent state 0.037, the p^2 amplification under
 * persistent state 0.14, the misreported batch rate 0.062, the central limit as a bound at K R = 5 0.0025, the noise
 * convention (fig-e1-symmetric) 0.10, the MNIST-like setting with noise std sigma C 0.053.
 */
@Tag("statistical")
class PriFedSyncAuditTest {
    private static AuditOutcome audit(String file) {
        return ShippedScenarios.audit("seed-002", file);
    }

    /** Every f-DP claim has its expected verdict; a refuted one by at least {@code margin} in beta. */
    private static void assertTradeOffVerdicts(AuditOutcome r, Map<String, Verdict> expected, double margin) {
        assertEquals(expected.size(), r.result().tradeOffClaims().size());
        for (TradeOffClaimResult c : r.result().tradeOffClaims()) {
            String bound = c.claim().label().replace(" (trade-off)", "");
            Verdict v = expected.get(bound);
            ShippedScenarios.assertVerdict(v, c.verdict(), c.claim().label() + ": " + c.refutation());
            if (v == Verdict.VIOLATED) {
                assertTrue(c.refutation().margin() >= margin, c.claim().label() + ": margin " + c.refutation());
            }
        }
    }

    @Test
    void theoremOneFailsUnderPersistentStateAndHoldsForFreshRounds() {
        assertTradeOffVerdicts(audit("persistent-state-thm1.json"), Map.of("zcls21-thm1", Verdict.VIOLATED,
                "lemma38-tight", Verdict.VIOLATED, "swr-replace-one-pld", Verdict.CONSISTENT, "prifedsync-exact",
                Verdict.CONSISTENT), 0.01);
        assertTradeOffVerdicts(audit("fresh-state-thm1.json"), Map.of("zcls21-thm1", Verdict.CONSISTENT,
                "lemma38-tight", Verdict.CONSISTENT, "swr-replace-one-pld", Verdict.CONSISTENT), 0);
    }

    @Test
    void pSquaredAmplificationFailsUnderPersistentStateAndHoldsForFreshRounds() {
        assertTradeOffVerdicts(audit("persistent-state-p2-amplification.json"), Map.of("lemma38-tight",
                Verdict.VIOLATED, "zcls21-thm1", Verdict.CONSISTENT, "swr-replace-one-pld", Verdict.CONSISTENT), 0.05);
        assertTradeOffVerdicts(audit("fresh-state-p2-amplification.json"), Map.of("lemma38-tight",
                Verdict.CONSISTENT, "zcls21-thm1", Verdict.CONSISTENT, "swr-replace-one-pld", Verdict.CONSISTENT), 0);
    }

    @Test
    void aMisreportedBatchRateIsRefutedAndTheTrueOneIsNot() {
        assertTradeOffVerdicts(audit("batch-rate-misreported.json"), Map.of("swr-replace-one-pld at B = 16",
                Verdict.VIOLATED), 0.02);
        assertTradeOffVerdicts(audit("batch-rate-reported.json"), Map.of("swr-replace-one-pld at B = 32",
                Verdict.CONSISTENT), 0);
    }

    @Test
    void theCentralLimitMuIsNotABoundFarFromItsLimit() {
        assertTradeOffVerdicts(audit("clt-as-bound-small-KR.json"), Map.of("zcls21-thm2-clt (mu = 0.3964) as a bound",
                Verdict.VIOLATED, "zcls21-thm2-finite", Verdict.CONSISTENT), 0.001);
        assertTradeOffVerdicts(audit("clt-small-KR.json"), Map.of("zcls21-thm2-clt", Verdict.VIOLATED,
                "zcls21-thm2-finite", Verdict.CONSISTENT), 0.001);
        assertTradeOffVerdicts(audit("clt-large-KR.json"), Map.of("zcls21-thm2-clt", Verdict.CONSISTENT,
                "zcls21-thm2-finite", Verdict.CONSISTENT), 0);
    }

    @Test
    void theNoiseConventionBugIsRefutedAndTheSeedsConventionHolds() {
        assertTradeOffVerdicts(audit("fig-e1-symmetric.json"), Map.of("zcls21-thm2-finite", Verdict.VIOLATED,
                "swr-replace-one-pld", Verdict.CONSISTENT), 0.05);
        assertTradeOffVerdicts(audit("fig-e1.json"), Map.of("zcls21-thm2-finite", Verdict.CONSISTENT,
                "prifedsync-exact", Verdict.CONSISTENT, "swr-replace-one-pld", Verdict.CONSISTENT), 0);
        assertTradeOffVerdicts(audit("mnist-like-sigma0.75-add-remove.json"), Map.of("zcls21-thm1",
                Verdict.VIOLATED, "zcls21-thm2-finite", Verdict.VIOLATED, "zcls21-thm2-clt", Verdict.VIOLATED,
                "swr-replace-one-pld", Verdict.CONSISTENT), 0.02);
        assertTradeOffVerdicts(audit("mnist-like-sigma0.75.json"), Map.of("zcls21-thm1", Verdict.CONSISTENT,
                "zcls21-thm2-finite", Verdict.CONSISTENT, "zcls21-thm2-clt", Verdict.CONSISTENT,
                "swr-replace-one-pld", Verdict.CONSISTENT), 0);
    }

    @Test
    void lemma38FailsOnlyInTheBroadcastThreatModel() {
        assertTradeOffVerdicts(audit("lemma38-per-round.json"), Map.of("zcls21-thm1", Verdict.CONSISTENT,
                "lemma38-tight", Verdict.CONSISTENT, "swr-replace-one-pld", Verdict.CONSISTENT), 0);
        assertTradeOffVerdicts(audit("lemma38-broadcast.json"), Map.of("zcls21-thm1", Verdict.VIOLATED,
                "swr-replace-one-pld", Verdict.CONSISTENT), 0.02);
    }
}

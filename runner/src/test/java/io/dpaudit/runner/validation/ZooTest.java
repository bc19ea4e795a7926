package io.dpaudit.runner.validation;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.dpaudit.core.audit.ClaimResult;
import io.dpaudit.core.audit.TradeOffClaimResult;
import io.dpaudit.core.audit.Verdict;
import io.dpaudit.core.estimate.EpsilonLowerBound;
import io.dpaudit.runner.analysis.AuditOutcome;
import java.util.LinkedHashMap;
import java.util.Locale;
import java.util.Map;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

/**
 * The zoo as a regression suite of the auditor itself ({@code scenarios/zoo/}): every correct algorithm must come out
 * consistent and every buggy one violated, each at its shipped trial budget and seed.
 *
 * <p>Black-box entries (learned distinguisher, claims of pure 0.1-DP at 10^7 trials per world) and federated-learning
 * bugs (exact likelihood-ratio attack; claims computed with the wrong parameters through {@code "assuming"}). The seeds
 * are fixed, so the outcome is deterministic; for a random seed a correct entry is flagged with probability at most
 * 5% (its confidence), and the buggy ones are refuted by the margins printed (δ lower bounds far above the claims' δ).
 */
@Tag("statistical")
class ZooTest {
    private static final Map<String, Verdict> EXPECTED = new LinkedHashMap<>();

    static {
        for (String correct : new String[] {"laplace", "noisy-histogram-correct", "noisy-max-laplace-index",
            "noisy-max-exponential-index", "sparse-vector-1", "sparse-vector-1-coupled", "sparse-vector-2",
            "fl-dpsgd-correct", "fl-replace-one-correct", "fl-gdp-clt-accurate",
            "dpsgd-balls-and-bins-accounted-as-deterministic"}) {
            EXPECTED.put(correct, Verdict.CONSISTENT);
        }
        for (String buggy : new String[] {"noisy-histogram-scale-epsilon", "noisy-max-laplace-value",
            "noisy-max-exponential-value", "sparse-vector-3", "sparse-vector-4", "sparse-vector-5", "sparse-vector-6",
            "fl-sigma-halved", "fl-q-misreported", "fl-replace-one-sensitivity-G", "fl-poisson-accounting-fixed-size",
            "fl-gdp-clt-at-T1", "dpsgd-shuffle-accounted-as-poisson", "noisy-max-laplace-value-pair-search"}) {
            EXPECTED.put(buggy, Verdict.VIOLATED);
        }
    }

    @Test
    void everyCorrectAlgorithmIsConsistentAndEveryBuggyOneViolated() {
        assertEquals(EXPECTED.size(), java.util.Objects.requireNonNull(new java.io.File("../scenarios/zoo")
                .list((d, n) -> n.endsWith(".json"))).length, "every zoo scenario has an expected verdict");
        Map<String, Double> epsilonAtZero = new LinkedHashMap<>();
        for (Map.Entry<String, Verdict> e : EXPECTED.entrySet()) {
            AuditOutcome r = ShippedScenarios.audit("zoo", e.getKey() + ".json");
            if (!r.result().epsilonLowerBounds().isEmpty()) {
                epsilonAtZero.put(e.getKey(), r.result().epsilonLowerBounds().get(0).epsilon());
            }
            Verdict worst = Verdict.CONSISTENT;
            StringBuilder line = new StringBuilder();
            for (ClaimResult c : r.result().claims()) {
                worst = c.verdict() == Verdict.VIOLATED ? Verdict.VIOLATED : worst;
                line.append(String.format(Locale.ROOT, " claim (%.4g, %.3g): delta_lb %.3g", c.claim().epsilon(),
                        c.claim().delta(), c.deltaLowerBound().delta()));
            }
            for (TradeOffClaimResult c : r.result().tradeOffClaims()) {
                worst = c.verdict() == Verdict.VIOLATED ? Verdict.VIOLATED : worst;
                line.append(String.format(Locale.ROOT, " f-DP claim: mu_lb %.4g", c.gdpMuLowerBound()));
            }
            for (EpsilonLowerBound eps : r.result().epsilonLowerBounds()) {
                line.append(String.format(Locale.ROOT, " eps_lb(delta=%s) %.4g", eps.delta() == 0 ? "0"
                        : String.format(Locale.ROOT, "%.0e", eps.delta()), eps.epsilon()));
            }
            System.out.printf("[zoo] %-34s %-10s%s%n", e.getKey(), worst.label(), line);
            assertEquals(e.getValue(), worst, e.getKey() + ":" + line);
            if (e.getValue() == Verdict.CONSISTENT) {
                assertTrue(r.result().tradeOffClaims().stream().noneMatch(c -> c.verdict() == Verdict.VIOLATED));
            }
        }
        // Coupled trials gain what they promise: the same pair, trials and seed, paired bound above the independent
        // one and below the pair's true epsilon (0.0878).
        double independent = epsilonAtZero.get("sparse-vector-1");
        double coupled = epsilonAtZero.get("sparse-vector-1-coupled");
        assertTrue(coupled > independent && coupled < 0.0878, independent + " " + coupled);
    }
}

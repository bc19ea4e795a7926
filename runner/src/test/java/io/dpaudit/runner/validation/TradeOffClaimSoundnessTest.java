package io.dpaudit.runner.validation;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.dpaudit.core.audit.AuditPlan;
import io.dpaudit.core.audit.AuditResult;
import io.dpaudit.core.audit.AuditSettings;
import io.dpaudit.core.audit.Auditor;
import io.dpaudit.core.audit.TradeOffClaim;
import io.dpaudit.core.audit.TradeOffClaimResult;
import io.dpaudit.core.audit.Verdict;
import io.dpaudit.core.bounds.BoundKind;
import io.dpaudit.core.bounds.PrivacyBound;
import io.dpaudit.core.engine.ShardedPhase;
import io.dpaudit.core.engine.Pilot;
import io.dpaudit.core.engine.ProgressListener;
import io.dpaudit.core.fdp.BoundTradeOff;
import io.dpaudit.core.fdp.TradeOffFunction;
import io.dpaudit.core.model.AuditableMechanism;
import io.dpaudit.core.model.MechanismSimulator;
import io.dpaudit.core.model.Parameters;
import io.dpaudit.runner.ScenarioAudit;
import io.dpaudit.runner.scenario.Scenario;
import io.dpaudit.runner.scenario.ScenarioReader;
import io.dpaudit.mechanisms.MechanismCatalog;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

/**
 * A true curve claimed as a trade-off bound is never refuted: the exact pair profile ({@link BoundKind#PAIR_PROFILE})
 * of the simulated pair of every mechanism type and variant in the catalog — at the cheapest shipped configuration of
 * each (type, text-valued parameters), plus the repro configuration — claimed as an f-DP claim ({@code "kind":
 * "trade-off"}), audited with the exact likelihood-ratio attack at 10^5 trials per world under 20 seeds (1 to 20),
 * gives no VIOLATED verdict. Each audit's certified points hold simultaneously at 95%, so a sound check fails a tight
 * true claim with probability at most 5% per audit; the Bonferroni grid makes the actual rate far smaller, and the
 * seeds are fixed, so the test is deterministic. Before the fix of the reversed-test check (reversed points of an
 * ordered pair were held to {@code f} instead of {@code f^{-1}}), seed 000's {@code exact(aligned)} at p = 1,
 * q = 0.5, d = 0, sigma = 0.5 was refuted (seed 7: margin 0.23).
 */
@Tag("statistical")
class TradeOffClaimSoundnessTest {
    private static final long TRIALS = 100_000;
    private static final int SEEDS = 20;
    /** Pilot trials per world: a quarter of the default (the pilot only places the histogram; any size is valid). */
    private static final int PILOT = Pilot.DEFAULT_TRIALS / 4;

    /** Distinct mechanism configurations of the shipped scenarios, the repro first. */
    static Map<String, Parameters> configurations() throws IOException {
        Map<String, Parameters> out = new LinkedHashMap<>();
        out.put("issue repro: random-participation p=1 q=0.5 d=0 sigma=0.5", new Parameters("mechanism.", Map.of(
                "type", "random-participation", "p", 1.0, "q", 0.5, "d", 0.0, "sigma", 0.5)));
        List<Path> files;
        try (Stream<Path> walk = Files.walk(Path.of("..", "scenarios"))) {
            files = walk.filter(p -> p.toString().endsWith(".json")).sorted().toList();
        }
        for (Path f : files) {
            Scenario s = ScenarioReader.read(f);
            out.putIfAbsent(s.mechanism().values().toString(), s.mechanism());
        }
        return out;
    }

    /** One exact pair profile to audit: where it comes from, the mechanism and its simulator's output length. */
    private record Candidate(String configuration, AuditableMechanism mechanism, PrivacyBound bound, int length) {
    }

    /**
     * Every exact pair profile of the catalog: the shipped configurations are grouped by mechanism type and their
     * text-valued parameters (the variant: sampling scheme, adversary, pair, randomizer...), and in each group the one
     * whose simulator output is shortest (the cheapest to simulate) contributes all its profiles; the repro
     * configuration contributes all of its own.
     */
    static List<Candidate> candidates() throws IOException {
        Map<String, AuditableMechanism> cheapest = new LinkedHashMap<>();
        Map<String, String> names = new LinkedHashMap<>();
        for (Map.Entry<String, Parameters> e : configurations().entrySet()) {
            AuditableMechanism m = MechanismCatalog.parse(e.getValue());
            StringBuilder variant = new StringBuilder(e.getKey().startsWith("issue repro") ? "repro" : m.type());
            new java.util.TreeMap<>(m.parameters().values()).forEach((k, v) -> {
                if (v instanceof String text) {
                    variant.append(' ').append(k).append('=').append(text);
                }
            });
            String key = variant.toString();
            AuditableMechanism old = cheapest.get(key);
            if (old == null || m.reduced().outputLength() < old.reduced().outputLength()) {
                cheapest.put(key, m);
                names.put(key, e.getKey());
            }
        }
        List<Candidate> all = new ArrayList<>();
        for (Map.Entry<String, AuditableMechanism> e : cheapest.entrySet()) {
            if (!e.getValue().view().equals("transcript") && e.getValue().reduced().outputModel() == null) {
                // A final-model black box (noisy-sgd): its exact profile is the last-iterate pair's, audited here
                // through the view's own configuration (dpsgd-last-iterate), and NoisySgdTest tests its simulator equal
                // in law to that pair; running the algorithm itself 4 * 10^6 times cost 80 s of this tier.
                continue;
            }
            PrivacyBound b = simulatedPairProfile(e.getValue());
            if (b != null) {
                all.add(new Candidate(names.get(e.getKey()), e.getValue(), b, e.getValue().reduced().outputLength()));
            }
        }
        return all;
    }

    /**
     * The exact profile of the pair the reduced simulator draws — the bound the mechanism names as its reference, else
     * one named {@code TYPE-exact}, else its first exact pair profile (as reports choose it) — or null. Only that one is
     * a true claim about the simulated pair: the other profiles of a configuration describe other pairs (seed 000's
     * {@code exact(aligned)} on the zero configuration is refuted, rightly).
     */
    static PrivacyBound simulatedPairProfile(AuditableMechanism m) {
        List<PrivacyBound> bounds = m.bounds();
        for (String name : new String[] {m.referenceBound(), m.type() + "-exact"}) {
            for (PrivacyBound b : bounds) {
                if (b.name().equals(name) && b.kind() == BoundKind.PAIR_PROFILE) {
                    return b;
                }
            }
        }
        return bounds.stream().filter(b -> b.kind() == BoundKind.PAIR_PROFILE).findFirst().orElse(null);
    }

    @Test
    void everyExactPairProfileClaimedAsATradeOffBoundIsConsistent() throws IOException {
        int audited = 0;
        int orderedPairs = 0;
        List<String> violations = new ArrayList<>();
        Map<String, List<Candidate>> byConfiguration = new LinkedHashMap<>();
        for (Candidate c : candidates()) {
            byConfiguration.computeIfAbsent(c.configuration(), k -> new ArrayList<>()).add(c);
        }
        java.util.Set<String> types = new java.util.TreeSet<>();
        for (List<Candidate> group : byConfiguration.values()) {
            AuditableMechanism m = group.get(0).mechanism();
            types.add(m.type());
            List<TradeOffClaim> claims = new ArrayList<>();
            for (Candidate c : group) {
                PrivacyBound b = c.bound();
                boolean ordered = BoundTradeOff.isOrderedPair(b);
                orderedPairs += ordered ? 1 : 0;
                TradeOffFunction f = BoundTradeOff.of(b);
                claims.add(new TradeOffClaim(b.name(), f, ordered ? BoundTradeOff.reverseOf(b) : f, b.gdpMu(),
                        b.source()));
            }
            String mechanism = json(m.parameters());
            Scenario scenario = ScenarioReader.parse("{\"mechanism\": " + mechanism + ", \"attack\": "
                    + "\"likelihood-ratio\"}", "soundness");
            io.dpaudit.runner.ScenarioTrials.Prepared t;
            try {
                t = io.dpaudit.runner.ScenarioTrials.prepare(scenario, TRIALS, 1);
            } catch (io.dpaudit.core.InvalidInputException blackBox) {
                // a simulator without a stated law (the zoo's): a threshold on its output
                scenario = ScenarioReader.parse("{\"mechanism\": " + mechanism + ", \"attack\": \"statistic\"}",
                        "soundness");
                t = io.dpaudit.runner.ScenarioTrials.prepare(scenario, TRIALS, 1);
            }
            MechanismSimulator simulator = t.simulator();
            for (int seed = 1; seed <= SEEDS; seed++) {
                AuditSettings settings = new AuditSettings(TRIALS, seed, 2, scenario.confidence(),
                        scenario.selection(), scenario.histogramBins(), PILOT,
                        ShardedPhase.shardTrialsFor(simulator.outputLength()), scenario.deltas(),
                        scenario.epsilons(), scenario.tradeOff());
                AuditResult r = Auditor.run(AuditPlan.of(simulator, t.scorer(), settings).withTradeOffClaims(claims),
                        ProgressListener.NONE);
                for (TradeOffClaimResult c : r.tradeOffClaims()) {
                    audited++;
                    if (c.verdict() == Verdict.VIOLATED) {
                        violations.add(group.get(0).configuration() + " / " + c.claim().label() + " seed " + seed
                                + ": margin " + c.refutation().margin() + " at " + c.refutation().point());
                    }
                }
            }
        }
        assertTrue(audited >= SEEDS * 10, "audited " + audited);
        assertTrue(orderedPairs > 0, "no ordered pair profile among the shipped configurations");
        assertTrue(types.size() >= 5, "mechanism types with exact pair profiles: " + types);
        assertEquals(List.of(), violations);
    }

    private static String json(Parameters p) {
        try {
            return new com.fasterxml.jackson.databind.ObjectMapper().writeValueAsString(p.values());
        } catch (com.fasterxml.jackson.core.JsonProcessingException ex) {
            throw new IllegalStateException(ex);
        }
    }
}

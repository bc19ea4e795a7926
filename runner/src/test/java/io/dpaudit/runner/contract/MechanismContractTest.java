package io.dpaudit.runner.contract;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.dpaudit.core.InvalidInputException;
import io.dpaudit.core.bounds.PrivacyBound;
import io.dpaudit.core.model.AuditableMechanism;
import io.dpaudit.core.model.MechanismSimulator;
import io.dpaudit.core.model.MechanismType;
import io.dpaudit.core.model.Parameters;
import io.dpaudit.mechanisms.MechanismCatalog;
import io.dpaudit.runner.scenario.Scenario;
import io.dpaudit.runner.scenario.ScenarioReader;
import java.io.IOException;
import java.io.InputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.TestReporter;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * The family contract's fast half (in {@code mvn test}; the statistical half is
 * {@link MechanismContractStatisticalTest}), checked the same way for every mechanism type of the catalog:
 * <ul>
 *   <li>its bounds against reference values of δ(ε) from an independent source ({@code contract/TYPE.json}, written by
 *       {@code scripts/contract-references.py} from closed forms at configurations where the family reduces to a
 *       Gaussian, randomized-response or Laplace pair); a black box without an exact profile has none and is reported
 *       as skipped, never passed silently;</li>
 *   <li>at the cheapest shipped scenario of the type: its parameters parse, a numeric parameter that is not a number is
 *       refused in one line naming the field; the rounds it declares per trial are what its parameters say (T E for a
 *       batch sampler) and a whole number of its simulator's independent rounds; only a black box declares coupled
 *       trials.</li>
 * </ul>
 */
class MechanismContractTest {
    private static final ObjectMapper JSON = new ObjectMapper();

    /** One type and the shipped scenario whose simulator output is shortest. */
    record Case(MechanismType type, Scenario scenario) {
        @Override
        public String toString() {
            return type.type() + " (" + scenario.name() + ")";
        }
    }

    /** The cases, found once per test run (reading every shipped scenario takes seconds). */
    private static List<Case> cases;

    static synchronized List<Case> cases() throws IOException {
        if (cases == null) {
            cases = findCases();
        }
        return cases;
    }

    private static List<Case> findCases() throws IOException {
        List<Path> files;
        try (Stream<Path> walk = Files.walk(Path.of("..", "scenarios"))) {
            files = walk.filter(p -> p.toString().endsWith(".json")).sorted().toList();
        }
        Map<String, Case> byType = new LinkedHashMap<>();
        Map<String, Integer> lengths = new LinkedHashMap<>();
        Map<String, Double> sizes = new LinkedHashMap<>();
        for (Path f : files) {
            Scenario s = ScenarioReader.read(f);
            AuditableMechanism m = MechanismCatalog.parse(s.mechanism());
            int length = m.reduced().outputLength() * (int) Math.min(1 << 20, m.roundsPerTrial());
            // An importance-sampled estimate's samples cost as much as the audit's trials: counted in the size, so
            // that balls-and-bins-tiny-delta (10^5 samples per target) does not displace balls-and-bins.
            double size = instanceSize(s) * (1 + s.estimateSamples() / 1e4);
            // Shortest output first; among equals the smallest instance, so that the faithful simulator (whose cost
            // grows with the clients, records and dimensions) stays cheap: the 10^5-client dss-SGD scenario, first by
            // name, took 40 s of the statistical half where a 200-client one checks the same equivalence.
            // One case per type and view: a last-iterate scenario's output is shorter, and must not displace the
            // transcript's simulators from the contract.
            String key = m.type() + (m.view().equals("transcript") ? "" : " " + m.view());
            if (!lengths.containsKey(key) || length < lengths.get(key)
                    || (length == lengths.get(key) && size < sizes.get(key))) {
                lengths.put(key, length);
                sizes.put(key, size);
                byType.put(key, new Case(MechanismCatalog.find(m.type()), s));
            }
        }
        List<Case> out = new ArrayList<>();
        for (MechanismType t : MechanismCatalog.types()) {
            Case c = byType.get(t.type());
            Case lastIterate = byType.get(t.type() + " last-iterate");
            assertNotNull(c != null ? c : lastIterate, "no shipped scenario of type " + t.type() + ": every type "
                    + "needs one");
            if (c != null) {
                out.add(c);
            }
            if (lastIterate != null) {
                out.add(lastIterate); // a family that has only this view (noisy-sgd) has it as its one case
            }
        }
        return out;
    }

    static List<MechanismType> types() {
        return MechanismCatalog.types();
    }

    /** The sum of a scenario's numeric mechanism parameters: a proxy for the size of the instance. */
    private static double instanceSize(Scenario s) {
        double sum = 0;
        for (Object v : s.mechanism().values().values()) {
            if (v instanceof Double d) {
                sum += Math.abs(d);
            }
        }
        return sum;
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("types")
    void boundsMatchTheIndependentReferenceValues(MechanismType type, TestReporter reporter) throws IOException {
        JsonNode file;
        try (InputStream in = getClass().getResourceAsStream("/contract/" + type.type() + ".json")) {
            if (in == null) {
                AuditableMechanism sample = MechanismCatalog.parse(sampleOf(type));
                boolean blackBox = sample.reduced().outputModel() == null;
                boolean exact = sample.bounds().stream().anyMatch(b -> b.name().endsWith("-exact"));
                assertTrue(blackBox && !exact, type.type() + " has no reference file (scripts/contract-references.py); "
                        + "only a black box without an exact profile may go without");
                Assumptions.abort(type.type() + " is a black box without an exact profile: no reference to check");
                return;
            }
            file = JSON.readTree(in);
        }
        int checked = 0;
        for (JsonNode ref : file.get("references")) {
            Map<String, Object> values = new LinkedHashMap<>();
            ref.get("mechanism").fields().forEachRemaining(e -> values.put(e.getKey(), e.getValue().isNumber()
                    ? (Object) e.getValue().asDouble() : e.getValue().asText()));
            AuditableMechanism m = MechanismCatalog.parse(new Parameters("mechanism.", values));
            String name = ref.get("bound").asText();
            PrivacyBound b = m.bounds().stream().filter(x -> x.name().equals(name)).findFirst().orElse(null);
            assertNotNull(b, type.type() + " " + values + ": no bound " + name);
            String relation = ref.get("relation").asText();
            double rtol = ref.get("rtol").asDouble();
            PrivacyBound partner = !ref.has("partner") ? null : m.bounds().stream().filter(x -> x.name().equals(
                    ref.get("partner").asText())).findFirst().orElseThrow(() -> new AssertionError(type.type()
                            + ": no bound " + ref.get("partner").asText()));
            for (JsonNode p : ref.get("points")) {
                double eps = p.get("epsilon").asDouble();
                double truth = p.get("delta").asDouble();
                double got = b.delta(eps);
                String where = type.type() + " " + values + ", " + name + " at eps " + eps + ": " + got
                        + " against the reference " + truth + " (" + relation + ", rtol " + rtol + "; "
                        + ref.get("why").asText() + ")";
                switch (relation) {
                    case "equal" -> assertTrue(Math.abs(got - truth) <= rtol * truth + 1e-15, where);
                    case "upper" -> assertTrue(got >= truth * (1 - 1e-12) - 1e-15 && got <= truth * (1 + rtol)
                            + 1e-15, where);
                    case "lower" -> assertTrue(got <= truth * (1 + 1e-12) + 1e-15 && got >= truth * (1 - rtol)
                            - 1e-15, where);
                    case "bracket" -> {
                        double low = partner.delta(eps);
                        assertTrue(got >= truth * (1 - 1e-12) - 1e-15 && low <= truth * (1 + 1e-12) + 1e-15,
                                where + ", lower end " + low);
                    }
                    default -> throw new AssertionError("unknown relation " + relation);
                }
                checked++;
            }
        }
        assertTrue(checked > 0, type.type() + ": the reference file holds no point");
        reporter.publishEntry("reference points", Integer.toString(checked));
    }

    /** The parameters of the cheapest shipped scenario of {@code type}. */
    private static Parameters sampleOf(MechanismType type) throws IOException {
        for (Case c : cases()) {
            if (c.type().type().equals(type.type())) {
                return c.scenario().mechanism();
            }
        }
        throw new AssertionError("no shipped scenario of " + type.type());
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("cases")
    void parsesAndRefusesANonNumber(Case c) {
        AuditableMechanism m = MechanismCatalog.parse(c.scenario().mechanism());
        assertEquals(c.type().type(), m.type());
        for (Map.Entry<String, Object> e : c.scenario().mechanism().values().entrySet()) {
            if (!(e.getValue() instanceof Double)) {
                continue;
            }
            for (Object bad : new Object[] {"lots", Double.NaN}) {
                Map<String, Object> values = new LinkedHashMap<>(c.scenario().mechanism().values());
                values.put(e.getKey(), bad);
                InvalidInputException x = assertThrows(InvalidInputException.class, () -> MechanismCatalog.parse(
                        new Parameters("mechanism.", values)), e.getKey() + " = " + bad);
                assertTrue(x.getMessage().contains(e.getKey()) && !x.getMessage().contains("\n"), x.getMessage());
            }
        }
    }

    /**
     * The rounds a family declares per trial ({@code roundsPerTrial}) are what its parameters say — T E for a batch
     * sampler of {@code steps} T over {@code epochs} E, the {@code rounds} parameter for the others, 1 when there is
     * none — and a whole number of its simulator's independent rounds. (Reports used to read a parameter called
     * {@code rounds}, so every batch sampler's said 1 where T = 1000.)
     */
    @ParameterizedTest(name = "{0}")
    @MethodSource("cases")
    void declaredRoundsAreTheParametersAndTheSimulators(Case c) {
        AuditableMechanism m = MechanismCatalog.parse(c.scenario().mechanism());
        Map<String, Object> v = c.scenario().mechanism().values();
        long expected = v.containsKey("steps") ? (long) (number(v, "steps") * number(v, "epochs", 1))
                : (long) number(v, "rounds", 1);
        assertEquals(expected, m.roundsPerTrial(), c + ": declared rounds per trial");
        MechanismSimulator reduced = m.reduced();
        if (reduced.outputModel() != null) {
            int modelRounds = reduced.outputModel().rounds();
            assertEquals(0, m.roundsPerTrial() % modelRounds, c + ": " + m.roundsPerTrial() + " declared rounds are not "
                    + "a whole number of the simulator's " + modelRounds + " independent rounds");
        }
    }

    /** Coupled trials are a capability the zoo's black boxes declare; a family with an exact law declares none. */
    @ParameterizedTest(name = "{0}")
    @MethodSource("cases")
    void onlyBlackBoxesDeclareCoupledTrials(Case c) {
        MechanismSimulator reduced = MechanismCatalog.parse(c.scenario().mechanism()).reduced();
        if (reduced.outputModel() != null) {
            assertEquals(null, reduced.coupling(), c + " has an exact law and declares coupled trials");
        } else {
            assertNotNull(reduced.coupling(), c + " is a black box without coupled trials");
        }
    }

    private static double number(Map<String, Object> v, String key) {
        return ((Number) v.get(key)).doubleValue();
    }

    private static double number(Map<String, Object> v, String key, double fallback) {
        return v.get(key) instanceof Number n ? n.doubleValue() : fallback;
    }
}

package io.dpaudit.mechanisms.shuffle;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.dpaudit.core.bounds.DiscretePairProfile;
import io.dpaudit.core.bounds.PrivacyBound;
import io.dpaudit.core.law.DiscreteLaw;
import io.dpaudit.core.model.Parameters;
import java.io.IOException;
import java.io.InputStream;
import java.util.LinkedHashMap;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * The exact law of a shuffled round against an independent evaluation (test resource
 * {@code reference/shuffle_reference.json}, made by {@code make_shuffle_reference.py} beside it in 50-digit mpmath,
 * conditioning on the target's report rather than tilting a multinomial as the Java code does).
 */
class ShuffleLawTest {
    static ShuffleParameters parameters(Object... kv) {
        Map<String, Object> m = new LinkedHashMap<>();
        for (int i = 0; i < kv.length; i += 2) {
            Object v = kv[i + 1];
            m.put((String) kv[i], v instanceof Number n ? (Object) n.doubleValue() : v);
        }
        String type = (String) m.get("type");
        return ShuffleParameters.parse(type, new Parameters("mechanism.", m));
    }

    @Test
    void exactCurvesMatchAnIndependentHighPrecisionEvaluation() throws IOException {
        JsonNode root;
        try (InputStream in = getClass().getResourceAsStream("/reference/shuffle_reference.json")) {
            root = new ObjectMapper().readTree(in);
        }
        int checked = 0;
        for (JsonNode c : root.get("cases")) {
            Map<String, Object> m = new LinkedHashMap<>();
            c.fields().forEachRemaining(e -> {
                if (e.getValue().isValueNode()) {
                    m.put(e.getKey(), e.getValue().isNumber() ? (Object) e.getValue().doubleValue()
                            : e.getValue().asText());
                }
            });
            m.put("config", "canonical");
            ShuffleParameters p = ShuffleParameters.parse((String) m.get("type"), new Parameters("mechanism.", m));
            PrivacyBound exact = ShuffleBounds.exact(new ShuffleModel(p));
            for (JsonNode r : c.get("deltaAtEpsilon")) {
                double expected = r.get("delta").doubleValue();
                double got = exact.delta(r.get("epsilon").doubleValue());
                assertEquals(expected, got, 1e-10 * expected + 1e-15, p.describe() + " at eps "
                        + r.get("epsilon"));
                assertTrue(got >= expected * (1 - 1e-13), "rounded up");
                checked++;
            }
            for (JsonNode r : c.get("epsilonAtDelta")) {
                double expected = r.get("epsilon").doubleValue();
                double got = exact.epsilon(r.get("delta").doubleValue());
                assertEquals(expected, got, 1e-9 * Math.max(1, expected), p.describe() + " at delta "
                        + r.get("delta"));
                checked++;
            }
        }
        assertEquals(8 * 7, checked);
    }

    @Test
    void lawsAreNormalisedAndBinaryReportsGiveKAndOnes() {
        ShuffleParameters p = parameters("type", "dss-sgd", "clients", 300, "records", 3, "q", 0.2, "eps0", 1.5);
        ShuffleLaw law = p.law("canonical");
        assertEquals(2, law.groups());
        DiscreteLaw with = law.withCanary();
        DiscreteLaw without = law.withoutCanary();
        assertEquals(1.0, java.util.Arrays.stream(with.probabilities()).sum(), 1e-12);
        assertEquals(1.0, java.util.Arrays.stream(without.probabilities()).sum(), 1e-12);
        assertTrue(law.droppedMass() < 1e-30, "dropped " + law.droppedMass());
        // Closed form of the tilt: P_D/P_D' = 1 + (c (e^eps0 - 1) + (k - c)(e^-eps0 - 1)) / n, with c the ones.
        for (int atom = 0; atom < law.atoms(); atom += 97) {
            int k = law.reports(atom);
            int ones = law.count(atom, law.groupOf(1));
            double ratio = 1 + (ones * Math.expm1(1.5) + (k - ones) * Math.expm1(-1.5)) / 900.0;
            assertEquals(Math.log(ratio), with.logProbability(atom) - without.logProbability(atom), 1e-12,
                    with.describeAtom(atom));
        }
    }

    /** Canonical and opposite datasets are mirror images for every randomizer here: same profile, swapped directions. */
    @Test
    void canonicalAndOppositeDatasetsHaveTheSameProfile() {
        for (String randomizer : new String[] {"rr", "krr", "sign"}) {
            ShuffleParameters p = parameters("type", "dss-sgd", "clients", 40, "records", 2, "q", 0.4, "eps0", 2.0,
                    "randomizer", randomizer);
            DiscretePairProfile c = new ShuffleModel(p).perRound("canonical");
            DiscretePairProfile o = new ShuffleModel(p).perRound("opposite");
            for (double eps : new double[] {0, 0.1, 0.4, 1}) {
                assertEquals(c.remove(eps), o.add(eps), 1e-13, randomizer + " at " + eps);
                assertEquals(c.add(eps), o.remove(eps), 1e-13, randomizer + " at " + eps);
            }
        }
    }

    /** On its worst-case pair the sign randomizer is binary randomized response on the sign: the same exact curve. */
    @Test
    void theSignRandomizerOnItsWorstPairIsRandomizedResponse() {
        ShuffleParameters sign = parameters("type", "shuffled-randomizer", "clients", 200, "eps0", 1.2, "randomizer",
                "sign", "dimension", 16);
        ShuffleParameters rr = parameters("type", "shuffled-randomizer", "clients", 200, "eps0", 1.2);
        for (double eps : new double[] {0, 0.2, 0.6}) {
            assertEquals(ShuffleBounds.exact(new ShuffleModel(rr)).delta(eps), ShuffleBounds.exact(new ShuffleModel(sign)).delta(eps), 1e-13);
        }
    }
}

package io.dpaudit.mechanisms.checkin;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.dpaudit.core.bounds.PrivacyBound;
import io.dpaudit.core.model.Parameters;
import java.io.IOException;
import java.io.InputStream;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * The exact curves of random check-ins against an independent evaluation (test resource
 * {@code reference/checkin_reference.json}, made by {@code make_checkin_reference.py} beside it in 50-digit mpmath):
 * brute-force enumeration of every check-in configuration with the law of the full vector of releases (which also
 * checks that the number of ones in the target's window is sufficient), and closed forms with direct binomial
 * convolution at larger sizes.
 */
class CheckInExactTest {
    static CheckInParameters parameters(Object... kv) {
        Map<String, Object> m = new LinkedHashMap<>();
        for (int i = 0; i < kv.length; i += 2) {
            Object v = kv[i + 1];
            m.put((String) kv[i], v instanceof Number n ? (Object) n.doubleValue() : v);
        }
        return CheckInParameters.parse((String) m.get("type"), new Parameters("mechanism.", m));
    }

    @Test
    void exactCurvesMatchAnIndependentHighPrecisionEvaluation() throws IOException {
        JsonNode root;
        try (InputStream in = getClass().getResourceAsStream("/reference/checkin_reference.json")) {
            root = new ObjectMapper().readTree(in);
        }
        int checked = 0;
        int i = 0;
        for (JsonNode c : root.get("cases")) {
            String type = c.get("type").asText();
            List<Object> kv = new java.util.ArrayList<>(List.of("type", type, "clients", c.get("clients").asInt(),
                    "slots", c.get("slots").asInt(), "p0", c.get("p0").asDouble(), "eps0", c.get("eps0").asDouble()));
            if (c.has("target")) {
                kv.addAll(List.of("target", c.get("target").asText()));
            }
            if (type.equals(CheckInParameters.FIXED_TYPE)) {
                kv.addAll(List.of("dataset", "canonical"));
            }
            CheckInParameters p = parameters(kv.toArray());
            CheckInModel model = new CheckInModel(p);
            CheckInDataset d = c.has("highOthers")
                    ? new CheckInDataset("case " + i++, c.get("highOthers").asInt(), c.get("dummyHigh").asBoolean())
                    : CheckInDataset.CANONICAL;
            PrivacyBound exact = model.perRound(d);
            if (c.has("selection")) {
                assertEquals(c.get("selection").asDouble(), CheckInModel.selection(p),
                        1e-14 * c.get("selection").asDouble(), p.describe());
            }
            for (int k = 0; k < c.get("epsilons").size(); k++) {
                double eps = c.get("epsilons").get(k).asDouble();
                double expected = c.get("deltas").get(k).asDouble();
                double got = exact.delta(eps);
                String what = c.get("route").asText() + " " + p.describe() + " " + d + " at eps " + eps;
                // Profiles are rounded up by a relative 1e-10 (SafeRounding) and carry an allowance of about 1e-23 for
                // dropped tails; a loss equal to eps (at eps = eps0) may come out 1 ulp above it, adding ~1e-16.
                assertEquals(expected, got, 2e-10 * expected + 1e-15, what);
                assertTrue(got >= expected * (1 - 1e-12), "rounded up: " + what);
                checked++;
            }
        }
        assertEquals(21 * 7, checked);
    }

    @Test
    void theOccupancyComputationOfTheCanonicalPairIsTheClosedForm() {
        for (int[] nm : new int[][] {{1, 1}, {1, 5}, {7, 3}, {50, 20}, {400, 1000}, {3000, 300}}) {
            for (double p0 : new double[] {0.05, 0.5, 1.0}) {
                CheckInParameters p = parameters("type", "random-checkin", "clients", nm[0], "slots", nm[1], "p0", p0,
                        "eps0", 1.0, "dataset", "canonical");
                double s = CheckInModel.selection(p);
                double[] u = new SlotValueLaw(nm[0], nm[1], p0, 1, false).logProbabilities();
                assertEquals(s, Math.exp(u[1]), 1e-12 * s, p.describe());
                assertEquals(1 - s, Math.exp(u[0]), 1e-12, p.describe());
                double[] none = new SlotValueLaw(nm[0], nm[1], p0, 0, false).logProbabilities();
                assertEquals(0.0, none[0], 1e-15);
            }
        }
    }

    @Test
    void mirrorImageDatasetsHaveTheSameCurve() {
        CheckInParameters p = parameters("type", "random-checkin", "clients", 9, "slots", 6, "p0", 0.7, "eps0", 2.0,
                "dataset", "canonical");
        CheckInModel model = new CheckInModel(p);
        for (int h = 0; h < 9; h++) {
            for (boolean d : new boolean[] {false, true}) {
                PrivacyBound a = model.perRound(new CheckInDataset("a" + h + d, h, d));
                PrivacyBound b = model.perRound(new CheckInDataset("b" + h + d, 8 - h, !d));
                for (double eps : new double[] {0.0, 0.1, 0.5}) {
                    assertEquals(a.delta(eps), b.delta(eps), 1e-12, "h = " + h + ", dummy " + d);
                }
            }
        }
    }

    @Test
    void exhaustiveSearchFindsADatasetWorseThanTheCanonicalOneForSmallN() {
        CheckInParameters p = parameters("type", "random-checkin", "clients", 4, "slots", 3, "p0", 1, "eps0", 2.0,
                "dataset", "exhaustive");
        CheckInModel model = new CheckInModel(p);
        List<CheckInModel.Ranked> ranking = model.ranking();
        assertEquals(4, ranking.size(), "h = 0..3 with the dummy 0 or 1, up to relabelling");
        double canonical = model.perRound(CheckInDataset.CANONICAL).epsilon(CheckInModel.REFERENCE_DELTA);
        assertTrue(ranking.get(0).epsilon() >= canonical);
        assertEquals(ranking.get(0).epsilon(), model.exact().epsilon(CheckInModel.REFERENCE_DELTA),
                1e-9 * ranking.get(0).epsilon());
    }
}

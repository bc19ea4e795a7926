package io.dpaudit.mechanisms.zoo;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.dpaudit.core.InvalidInputException;
import io.dpaudit.core.bounds.BoundKind;
import io.dpaudit.core.bounds.PrivacyBound;
import io.dpaudit.core.model.AuditableMechanism;
import io.dpaudit.core.model.Parameters;
import io.dpaudit.mechanisms.MechanismCatalog;
import java.util.LinkedHashMap;
import java.util.Map;
import org.apache.commons.rng.UniformRandomProvider;
import org.apache.commons.rng.simple.RandomSource;
import org.junit.jupiter.api.Test;

/** The zoo's parameters, bounds and algorithms. */
class ZooMechanismsTest {
    private static AuditableMechanism parse(Object... kv) {
        Map<String, Object> m = new LinkedHashMap<>();
        for (int i = 0; i < kv.length; i += 2) {
            m.put((String) kv[i], kv[i + 1]);
        }
        return MechanismCatalog.parse(new Parameters("mechanism.", m));
    }

    private static String error(Object... kv) {
        return assertThrows(InvalidInputException.class, () -> parse(kv)).getMessage();
    }

    @Test
    void pairsMustBeNeighboursAndParametersValid() {
        assertTrue(error("type", "noisy-max", "epsilon", 0.1, "d", "1,1,1", "dPrime", "1,3,1")
                .startsWith("mechanism.dPrime = 1, 3, 1: entry 2 differs from d's by 2"));
        assertTrue(error("type", "noisy-histogram", "epsilon", 0.1, "d", "1,1", "dPrime", "0,0")
                .contains("differs from d by 2 in total"));
        assertTrue(error("type", "sparse-vector", "variant", 7.0, "epsilon", 0.1, "d", "1", "dPrime", "1")
                .startsWith("mechanism.variant = 7: must be 1 to 6"));
        assertTrue(error("type", "sparse-vector", "variant", 1.0, "epsilon", 0.1, "d", "1,x", "dPrime", "1,1")
                .startsWith("mechanism.d = 1,x: entry 2 (x) is not a number"));
        assertTrue(error("type", "noisy-max", "epsilon", 0.1, "d", "1,1", "dPrime", "1")
                .startsWith("mechanism.dPrime = 1: has 1 entries, d has 2"));
        assertTrue(error("type", "laplace", "epsilon", -1.0).startsWith("mechanism.epsilon = -1"));
        assertTrue(error("type", "noisy-max", "epsilon", 0.1, "noise", "gaussian", "d", "1", "dPrime", "1")
                .startsWith("mechanism.noise = gaussian"));
    }

    @Test
    void claimedBoundsAreCertifiedOnlyForCorrectAlgorithms() {
        assertEquals(BoundKind.UPPER_BOUND, claimed(parse("type", "noisy-max", "epsilon", 0.1, "d", "1,1",
                "dPrime", "0,2")).kind());
        assertEquals(BoundKind.KNOWN_WRONG, claimed(parse("type", "noisy-max", "epsilon", 0.1, "output", "value",
                "d", "1,1", "dPrime", "0,2")).kind());
        for (int v = 1; v <= 6; v++) {
            AuditableMechanism m = parse("type", "sparse-vector", "variant", (double) v, "epsilon", 0.1, "d", "1,0",
                    "dPrime", "0,1");
            assertEquals(v <= 2 ? BoundKind.UPPER_BOUND : BoundKind.KNOWN_WRONG, claimed(m).kind(), "variant " + v);
            assertNull(m.reduced().outputModel(), "a black box states no law");
            assertEquals(2, m.reduced().outputLength());
        }
        AuditableMechanism svt4 = parse("type", "sparse-vector", "variant", 4.0, "epsilon", 0.1, "c", 2.0, "d", "1",
                "dPrime", "0");
        assertEquals(0.1 * 13 / 4, svt4.bounds().get(1).pureEpsilon(), 1e-15, "(1 + 6c)/4 epsilon");
    }

    private static PrivacyBound claimed(AuditableMechanism m) {
        return m.bounds().get(0);
    }

    @Test
    void pureDpProfileIsRandomizedResponse() {
        PureDpBound b = new PureDpBound("x", "test", BoundKind.UPPER_BOUND, 1.0);
        double e = Math.E;
        assertEquals((e - 1) / (1 + e), b.delta(0), 1e-9); // total variation of RR with odds e : 1 (rounded up 1e-10)
        assertEquals(0.0, b.delta(1.0));
        assertEquals(1.0, b.epsilon(0), 0.0);
        assertEquals(1.0, PrivacyBound.epsilonAt(b, 0.0), 0.0);
        assertTrue(Math.abs(b.epsilon(0.1) - Math.log(e - 0.1 * (1 + e))) < 1e-9);
        assertEquals(Double.POSITIVE_INFINITY, PrivacyBound.epsilonAt(new io.dpaudit.core.bounds.GaussianBound(1),
                0.0), "a Gaussian profile certifies no pure DP");
    }

    /**
     * The Laplace pair profile against a numerical integral of E_D[(1 - e^(eps - L))_+] with L the exact loss of
     * Lap(0, b) against Lap(s, b) (midpoint rule on 2 x 10^6 points over +-60 b; error far below the tolerance).
     */
    @Test
    void laplacePairProfileMatchesItsIntegral() {
        double b = 10;
        double s = 1;
        LaplacePairProfile p = new LaplacePairProfile(s, b);
        for (double eps : new double[] {0, 0.02, 0.05, 0.09}) {
            double sum = 0;
            int n = 2_000_000;
            double lo = -60 * b;
            double h = 120 * b / n;
            for (int i = 0; i < n; i++) {
                double x = lo + (i + 0.5) * h;
                double density = Math.exp(-Math.abs(x) / b) / (2 * b);
                double loss = (Math.abs(x - s) - Math.abs(x)) / b;
                sum += density * Math.max(0, -Math.expm1(eps - loss)) * h;
            }
            assertEquals(sum, p.delta(eps), 1e-6, "eps = " + eps);
        }
        assertEquals(0.1, p.pureEpsilon(), 1e-15);
    }

    @Test
    void algorithmsFollowTheirDescriptions() {
        UniformRandomProvider rng = RandomSource.XO_SHI_RO_256_PP.create(1L);
        // Algorithm 1 stops after c = 1 "above": every code after the first 1 is -1.
        var svt1 = ZooAlgorithms.sparseVector(1, 1e6, 1, 0.5); // essentially no noise
        assertEquals(java.util.List.of(0.0, 1.0, -1.0, -1.0), toList(svt1.run(new double[] {0, 1, 1, 0}, rng)));
        var svt5 = ZooAlgorithms.sparseVector(5, 1e6, 1, 0.5); // no cut-off
        assertEquals(java.util.List.of(0.0, 1.0, 1.0, 0.0), toList(svt5.run(new double[] {0, 1, 1, 0}, rng)));
        var svt3 = ZooAlgorithms.sparseVector(3, 1e6, 1, 0.5);
        double[] o = svt3.run(new double[] {0, 1, 1}, rng);
        assertEquals(-1000.0, o[0]);
        assertEquals(1.0, o[1], 1e-3);
        assertEquals(-2000.0, o[2]);
        var max = ZooAlgorithms.noisyMax(1e6, false, false);
        assertEquals(2.0, max.run(new double[] {0, 1, 5, 2}, rng)[0]);
        assertEquals(5.0, ZooAlgorithms.noisyMax(1e6, true, true).run(new double[] {0, 1, 5, 2}, rng)[0], 1e-4);
        // Laplace noise has the right scale: mean |X| = b.
        double sum = 0;
        for (int i = 0; i < 200_000; i++) {
            sum += Math.abs(Noise.laplace(rng, 3.0));
        }
        assertEquals(3.0, sum / 200_000, 0.03); // sd of the mean 3/sqrt(2e5) = 0.0067
    }

    private static java.util.List<Double> toList(double[] a) {
        return java.util.Arrays.stream(a).boxed().toList();
    }
}

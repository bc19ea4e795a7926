package io.dpaudit.mechanisms.noisysgd;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.dpaudit.core.InvalidInputException;
import io.dpaudit.core.bounds.BoundKind;
import io.dpaudit.core.bounds.PrivacyBound;
import io.dpaudit.core.engine.TrialSampler;
import io.dpaudit.core.engine.World;
import io.dpaudit.core.model.AuditableMechanism;
import io.dpaudit.core.model.MechanismSimulator;
import io.dpaudit.core.model.Parameters;
import io.dpaudit.core.rng.RandomStreams;
import io.dpaudit.mechanisms.MechanismCatalog;
import io.dpaudit.mechanisms.view.CountLaw;
import io.dpaudit.mechanisms.view.CountMixtureDistribution;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.apache.commons.math3.distribution.AbstractRealDistribution;
import org.apache.commons.math3.stat.inference.KolmogorovSmirnovTest;
import org.junit.jupiter.api.Test;

/**
 * {@code noisy-sgd}: with the gradient canary and no projection, the model's first coordinate over {@code eta C} is the
 * last-iterate pair {@code Binomial(T, q) + N(0, T sigma^2)} against {@code N(0, T sigma^2)} in law (one-sample
 * Kolmogorov–Smirnov tests at level 0.001 on 4,000 runs per world from fixed seeds: two comparisons, so a random seed
 * would fail one with probability at most 0.2% if the simulator is right); a canary drawn twice as often is rejected;
 * the projection keeps every model in its ball; runs are reproducible from their stream.
 */
class NoisySgdTest {
    private static final int N = 4_000;

    private static AuditableMechanism parse(Object... kv) {
        Map<String, Object> m = new LinkedHashMap<>();
        m.put("type", "noisy-sgd");
        for (int i = 0; i < kv.length; i += 2) {
            m.put((String) kv[i], kv[i + 1] instanceof Integer n ? (double) n : kv[i + 1]);
        }
        return MechanismCatalog.parse(new Parameters("mechanism.", m));
    }

    private static double[] runs(MechanismSimulator sim, World w, long seed, int coordinate, double scale) {
        TrialSampler s = sim.create(new RandomStreams(seed).next());
        int len = sim.outputLength();
        double[] out = new double[N * len];
        s.sample(w, out, N);
        double[] x = new double[N];
        for (int i = 0; i < N; i++) {
            x[i] = out[i * len + coordinate] / scale;
        }
        return x;
    }

    /** {@code sum_k p_k N(k, s^2)} as a distribution function. */
    private static AbstractRealDistribution mixture(CountLaw law, double s) {
        return new CountMixtureDistribution(law, s);
    }

    @Test
    void withTheGradientCanaryTheFirstCoordinateIsTheLastIteratePair() {
        double q = 0.1;
        double sigma = 0.8;
        double eta = 0.05;
        double clip = 2.0;
        int steps = 30;
        AuditableMechanism m = parse("loss", "logistic", "dimension", 4, "records", 20, "q", q, "steps", steps,
                "sigma", sigma, "clip", clip, "learningRate", eta);
        double s = sigma * Math.sqrt(steps);
        double pWith = new KolmogorovSmirnovTest().kolmogorovSmirnovTest(mixture(CountLaw.binomial(steps, q), s),
                runs(m.reduced(), World.WITH_CANARY, 1, 0, eta * clip));
        double pWithout = new KolmogorovSmirnovTest().kolmogorovSmirnovTest(mixture(CountLaw.point(0), s),
                runs(m.reduced(), World.WITHOUT_CANARY, 2, 0, eta * clip));
        assertTrue(pWith > 0.001 && pWithout > 0.001, pWith + " " + pWithout);
        // a canary drawn with probability 2q is not this law
        double planted = new KolmogorovSmirnovTest().kolmogorovSmirnovTest(mixture(CountLaw.binomial(steps, 2 * q), s),
                runs(m.reduced(), World.WITH_CANARY, 1, 0, eta * clip));
        assertTrue(planted < 1e-6, "planted: " + planted);
        PrivacyBound exact = m.bounds().stream().filter(b -> b.name().equals("last-iterate-exact")).findFirst()
                .orElseThrow();
        assertEquals(BoundKind.PAIR_PROFILE, exact.kind());
        assertEquals("last-iterate-exact", m.referenceBound());
    }

    @Test
    void theProjectionKeepsTheModelInItsBallAndRunsAreReproducible() {
        AuditableMechanism m = parse("q", 0.5, "steps", 40, "sigma", 3.0, "learningRate", 0.5, "diameter", 1.0,
                "canary", "input");
        MechanismSimulator sim = m.reduced();
        double[] a = runs(sim, World.WITH_CANARY, 9, 0, 1.0);
        double[] b = runs(sim, World.WITH_CANARY, 9, 0, 1.0);
        assertArrayEquals(a, b);
        TrialSampler s = sim.create(new RandomStreams(3).next());
        double[] out = new double[200 * 5];
        s.sample(World.WITHOUT_CANARY, out, 200);
        for (int i = 0; i < 200; i++) {
            double n2 = 0;
            for (int j = 0; j < 5; j++) {
                n2 += out[i * 5 + j] * out[i * 5 + j];
            }
            assertTrue(Math.sqrt(n2) <= 0.5 + 1e-12, "norm " + Math.sqrt(n2));
        }
        List<String> names = m.bounds().stream().map(PrivacyBound::name).toList();
        assertEquals(List.of("pld", "rdp", "last-iterate-heuristic"), names);
        assertEquals("none", m.referenceBound());
    }

    @Test
    void badInputIsRefusedNamingTheField() {
        InvalidInputException e = assertThrows(InvalidInputException.class, () -> parse("q", 0.1, "sigma", 1.0,
                "loss", "hinge"));
        assertTrue(e.getMessage().contains("mechanism.loss") && e.getMessage().contains("hinge"), e.getMessage());
        e = assertThrows(InvalidInputException.class, () -> parse("q", 0.1, "sigma", 1.0, "records", 100000,
                "steps", 100000));
        assertTrue(e.getMessage().contains("mechanism.steps"), e.getMessage());
        e = assertThrows(InvalidInputException.class, () -> parse("q", 0.1, "sigma", 1.0, "canaryNorm", 3.0));
        assertTrue(e.getMessage().contains("mechanism.canaryNorm"), e.getMessage());
    }
}

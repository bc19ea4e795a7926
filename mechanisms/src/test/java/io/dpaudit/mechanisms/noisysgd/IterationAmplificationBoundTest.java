package io.dpaudit.mechanisms.noisysgd;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.dpaudit.core.accounting.Adjacency;
import io.dpaudit.core.accounting.DpEvent;
import io.dpaudit.core.accounting.RdpAccountant;
import io.dpaudit.core.bounds.PrivacyBound;
import io.dpaudit.core.model.AuditableMechanism;
import io.dpaudit.core.model.Parameters;
import io.dpaudit.mechanisms.MechanismCatalog;
import java.util.LinkedHashMap;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * {@code amplification-by-iteration}: its {@code rho} is the best split of the domain's shift (against a search over
 * every tau), without a bounded domain it is the unsampled transcript's RDP composition, it stops growing with T, and
 * {@code noisy-sgd} offers it only where its hypotheses hold.
 */
class IterationAmplificationBoundTest {
    private static AuditableMechanism parse(Object... kv) {
        Map<String, Object> m = new LinkedHashMap<>();
        m.put("type", "noisy-sgd");
        for (int i = 0; i < kv.length; i += 2) {
            m.put((String) kv[i], kv[i + 1] instanceof Integer n ? (double) n : kv[i + 1]);
        }
        return MechanismCatalog.parse(new Parameters("mechanism.", m));
    }

    @Test
    void rhoIsTheBestSplitOfTheDomainsShift() {
        double sigma = 1.7;
        for (double x : new double[] {0.01, 0.5, 1.25, 3.0, 7.5, 40, 999}) {
            for (long steps : new long[] {1, 2, 3, 10, 100}) {
                double best = steps;
                for (long tau = 1; tau < steps; tau++) {
                    best = Math.min(best, (x + tau) * (x + tau) / tau);
                }
                double rho = new IterationAmplificationBound(sigma, steps, x, "test").rho();
                assertEquals(best / (2 * sigma * sigma), rho, 1e-12 * rho, "x = " + x + ", T = " + steps);
            }
        }
    }

    @Test
    void withoutABoundedDomainItIsTheUnsampledComposition() {
        IterationAmplificationBound b = new IterationAmplificationBound(2, 50, Double.POSITIVE_INFINITY, "test");
        PrivacyBound composed = new RdpAccountant().account("rdp", new DpEvent.SelfComposed(new DpEvent.Gaussian(2, 1),
                50), Adjacency.ADD_REMOVE);
        for (double delta : new double[] {1e-3, 1e-6, 1e-10}) {
            assertEquals(composed.epsilon(delta), b.epsilon(delta), 1e-9 * composed.epsilon(delta), "at " + delta);
        }
        assertEquals(composed.delta(1.0), b.delta(1.0), 1e-9 * composed.delta(1.0));
    }

    @Test
    void itStopsGrowingWithTheNumberOfSteps() {
        // x = D / (eta C) = 1.25: the best split is tau = 1, (2.25)^2 = 5.0625, whatever T beyond 1.
        double short50 = new IterationAmplificationBound(2, 50, 1.25, "test").epsilon(1e-3);
        double long5000 = new IterationAmplificationBound(2, 5000, 1.25, "test").epsilon(1e-3);
        assertEquals(short50, long5000);
        assertEquals(5.0625 / 8, new IterationAmplificationBound(2, 50, 1.25, "test").rho(), 1e-15);
        assertEquals(4.084, short50, 5e-4, "the shipped scenario's value");
    }

    @Test
    void noisySgdOffersItOnlyWhereEveryStepIsAContractionOnABall() {
        AuditableMechanism ok = parse("loss", "logistic", "records", 5, "q", 1, "steps", 50, "sigma", 2,
                "learningRate", 0.4, "diameter", 0.5);
        assertTrue(ok.bounds().stream().anyMatch(b -> b.name().equals(IterationAmplificationBound.NAME)));
        // 5 logistic records are 1.25-smooth: eta = 2 exceeds 2 / 1.25
        AuditableMechanism tooLong = parse("loss", "logistic", "records", 5, "q", 1, "steps", 50, "sigma", 2,
                "learningRate", 2.0, "diameter", 0.5);
        assertFalse(tooLong.bounds().stream().anyMatch(b -> b.name().equals(IterationAmplificationBound.NAME)));
        assertTrue(tooLong.notes().stream().anyMatch(n -> n.contains("amplification-by-iteration is not offered")),
                String.valueOf(tooLong.notes()));
        // the quadratic input canary of norm 10 is 100-smooth: eta = 0.1 exceeds 2 / 105
        AuditableMechanism stiffCanary = parse("loss", "quadratic", "records", 5, "q", 1, "steps", 50, "sigma", 2,
                "learningRate", 0.1, "diameter", 0.5, "canary", "input");
        assertFalse(stiffCanary.bounds().stream().anyMatch(b -> b.name().equals(IterationAmplificationBound.NAME)));
        AuditableMechanism unprojected = parse("loss", "logistic", "records", 5, "q", 1, "steps", 50, "sigma", 2,
                "learningRate", 0.4);
        assertFalse(unprojected.bounds().stream().anyMatch(b -> b.name().equals(IterationAmplificationBound.NAME)));
    }
}

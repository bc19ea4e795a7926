package io.dpaudit.mechanisms;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.dpaudit.core.InvalidInputException;
import io.dpaudit.core.bounds.PrivacyBound;
import io.dpaudit.core.model.AuditableMechanism;
import io.dpaudit.core.model.Parameters;
import io.dpaudit.mechanisms.gaussian.PoissonSubsampledGaussian;
import java.util.LinkedHashMap;
import java.util.Map;
import org.junit.jupiter.api.Test;

class MechanismCatalogTest {
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
    void parsesBothTypesWithDefaults() {
        PoissonSubsampledGaussian g = (PoissonSubsampledGaussian) parse("type", "gaussian", "sigma", 2.0);
        assertEquals(1.0, g.gaussianParameters().q());
        assertEquals(1.0, g.gaussianParameters().clip());
        assertEquals(1, g.gaussianParameters().rounds());
        assertEquals("gaussian-exact", g.bounds().get(0).name());
        AuditableMechanism p = parse("type", "poisson-subsampled-gaussian", "q", 0.01, "sigma", 1.0);
        assertEquals(java.util.List.of("poisson-subsampled-gaussian-exact", "bbg18-poisson-amplification(gaussian-exact)",
                "pld", "rdp", "gdp-clt"), p.bounds().stream().map(PrivacyBound::name).toList());
    }

    @Test
    void badParametersNameTheFieldAndValue() {
        assertEquals("mechanism.sigma = -1: must be > 0 and finite", error("type", "gaussian", "sigma", -1.0));
        assertTrue(error("type", "poisson-subsampled-gaussian", "q", 1.5, "sigma", 1.0)
                .startsWith("mechanism.q = 1.5: must be in (0, 1]"));
        assertTrue(error("type", "poisson-subsampled-gaussian", "q", 0.0, "sigma", 1.0)
                .startsWith("mechanism.q = 0: must be in (0, 1]"));
        assertTrue(error("type", "no-such-type", "sigma", 1.0).startsWith("mechanism.type = no-such-type: unknown mechanism "
                + "type"));
        assertTrue(error("type", "gaussian", "sigma", 1.0, "q", 0.5).startsWith("mechanism.q = 0.5: unknown parameter"));
        assertTrue(error("type", "gaussian", "sigma", 1.0, "rounds", 2.5).startsWith("mechanism.rounds = 2.5"));
        assertTrue(error("type", "gaussian").startsWith("mechanism.sigma = (missing)"));
        assertTrue(error("sigma", 1.0).startsWith("mechanism.type = (missing)"));
        assertTrue(error("type", "gaussian", "sigma", "big").startsWith("mechanism.sigma = big: must be a number"));
    }

    @Test
    void multiRoundSubsamplingIsBoundedByTheAccountantsOnly() {
        AuditableMechanism p = parse("type", "poisson-subsampled-gaussian", "q", 0.01, "sigma", 1.0, "rounds", 3.0);
        assertEquals(java.util.List.of("pld", "rdp", "gdp-clt"), p.bounds().stream().map(PrivacyBound::name).toList());
        for (PrivacyBound b : p.bounds()) {
            assertEquals(!b.name().equals("gdp-clt"), b.certified(), b.name());
        }
        // The accountants' one-round values agree with the exact profile where it exists.
        AuditableMechanism one = parse("type", "poisson-subsampled-gaussian", "q", 0.01, "sigma", 1.0);
        double exact = one.bounds().get(0).epsilon(1e-5);
        double pld = one.bounds().stream().filter(b -> b.name().equals("pld")).findFirst().orElseThrow().epsilon(1e-5);
        assertTrue(pld >= exact && pld < exact * 1.001, pld + " vs " + exact);
    }
}

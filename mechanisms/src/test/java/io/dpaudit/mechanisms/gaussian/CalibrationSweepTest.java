package io.dpaudit.mechanisms.gaussian;

import static org.junit.jupiter.api.Assertions.assertTrue;

import io.dpaudit.core.InvalidInputException;
import io.dpaudit.core.bounds.BoundFamily;
import io.dpaudit.core.model.AuditableMechanism;
import io.dpaudit.core.model.Parameters;
import io.dpaudit.mechanisms.MechanismCatalog;
import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.util.LinkedHashMap;
import java.util.Locale;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * Calibration from ε = 0.1 to 1000 (where e^ε overflows a double), δ = 1e-5 and 1e-15, q from 1e-6 to 1, against an
 * independent evaluation: the noise levels in {@code calibration/poisson-gaussian-sigma.csv}, roots of the exact
 * profile written as normal tails at an explicit threshold and solved by mpmath at 60 digits
 * ({@code scripts/calibration-references.py}). Every returned σ must be at least the reference (never optimistic:
 * a σ below it does not meet the target) and, for the exact profiles, within 1e-6 of it; the accountants (RDP) are
 * checked for the safe side only, at δ = 1e-5 and ε = 1, 10, 709, 1000 (seconds each).
 */
class CalibrationSweepTest {
    private static AuditableMechanism mechanism(double q) {
        Map<String, Object> p = new LinkedHashMap<>();
        p.put("type", q == 1 ? "gaussian" : "poisson-subsampled-gaussian");
        if (q != 1) {
            p.put("q", q);
        }
        p.put("sigma", 1.0);
        return MechanismCatalog.parse(new Parameters("", p));
    }

    @Test
    void everyCalibratedSigmaMeetsTheTargetAndTheExactOnesAreTight() throws IOException {
        int checked = 0;
        try (BufferedReader in = new BufferedReader(new InputStreamReader(CalibrationSweepTest.class
                .getResourceAsStream("/calibration/poisson-gaussian-sigma.csv"), StandardCharsets.UTF_8))) {
            in.readLine();
            for (String line = in.readLine(); line != null; line = in.readLine()) {
                String[] f = line.split(",");
                double q = Double.parseDouble(f[0]);
                double eps = Double.parseDouble(f[1]);
                double delta = Double.parseDouble(f[2]);
                double reference = Double.parseDouble(f[3]);
                for (BoundFamily family : mechanism(q).boundFamilies()) {
                    boolean exact = family.name().endsWith("-exact") || family.name().startsWith("bbg18");
                    boolean rdpRow = delta == 1e-5 && (eps == 1 || eps == 10 || eps == 709 || eps == 1000);
                    if (!exact && !(family.name().equals("rdp") && rdpRow)) {
                        continue; // accountants at a few rows only (seconds each); PLD has its own tests
                    }
                    String what = String.format(Locale.ROOT, "%s at q = %s, eps = %s, delta = %s", family.name(), f[0],
                            f[1], f[2]);
                    double sigma;
                    try {
                        sigma = family.calibrate(eps, delta);

                    } catch (InvalidInputException e) {
                        assertTrue(!exact, what + ": an exact profile must calibrate: " + e.getMessage());
                        continue; // an accountant may refuse; it must not be optimistic
                    }
                    assertTrue(sigma >= reference * (1 - 1e-15), what + ": " + sigma + " below the reference "
                            + reference + " (optimistic)");
                    if (exact) {
                        assertTrue(sigma <= reference * (1 + 1e-6), what + ": " + sigma + " far above " + reference);
                    }
                    checked++;
                }
            }
        }
        assertTrue(checked >= 80, "checked " + checked);
    }
}

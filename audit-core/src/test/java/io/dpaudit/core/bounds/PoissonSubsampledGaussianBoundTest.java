package io.dpaudit.core.bounds;

import static io.dpaudit.core.testing.ReferenceData.assertRelative;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import io.dpaudit.core.testing.ReferenceData;
import java.util.Iterator;
import java.util.Map;
import org.junit.jupiter.api.Test;

class PoissonSubsampledGaussianBoundTest {

    /** Formula sheet §2.2 test table (mpmath and dp_accounting agree with these). */
    @Test
    void formulaSheetTable() {
        double[][] rows = {
            // eps, q, s, remove, add
            {1.0, 0.01, 1.0, 2.7320092615461311e-9, 0},
            {0.5, 0.1, 2.0, 8.4497081487671479e-7, 0},
            {0.0, 0.2, 1.0, 0.07658498450960527, 0.07658498450960527},
            {2.0, 0.5, 0.8, 0.012904407262830772, 0},
            {0.05, 0.3, 1.0, 0.10047872446166876, 0.086911348067390238},
            {0.2, 0.5, 1.0, 0.13724185638950961, 0.09794725313832238},
        };
        for (double[] r : rows) {
            double mu = 1.0 / r[2];
            String what = "eps=" + r[0] + " q=" + r[1] + " s=" + r[2];
            assertRelative(r[3], PoissonSubsampledGaussianBound.remove(r[0], r[1], mu), 1e-12, "remove " + what);
            if (r[4] == 0) {
                assertEquals(0.0, PoissonSubsampledGaussianBound.add(r[0], r[1], mu), what);
            } else {
                assertRelative(r[4], PoissonSubsampledGaussianBound.add(r[0], r[1], mu), 1e-12, "add " + what);
            }
        }
    }

    /** T = 1 cells of the reference set: dp_accounting's exact privacy loss (both directions) and quadrature. */
    @Test
    void matchesDpAccountingExactPrivacyLossForOneRound() {
        JsonNode rows = ReferenceData.load("pld_poisson_gaussian.json").get("spot_checks")
                .get("T1_numeric_quadrature").get("rows");
        int checked = 0;
        for (JsonNode row : rows) {
            double q = row.get("q").doubleValue();
            double sigma = row.get("sigma").doubleValue();
            PoissonSubsampledGaussianBound b = new PoissonSubsampledGaussianBound(q, 1.0 / sigma);
            for (Iterator<Map.Entry<String, JsonNode>> it = row.get("delta_for_epsilon").fields(); it.hasNext(); ) {
                Map.Entry<String, JsonNode> e = it.next();
                double eps = Double.parseDouble(e.getKey());
                double remove = e.getValue().get("lib_exact_privacy_loss_remove").doubleValue();
                double add = e.getValue().get("lib_exact_privacy_loss_add").doubleValue();
                String what = "q=" + q + " sigma=" + sigma + " eps=" + eps;
                if (remove > 1e-300) {
                    assertRelative(remove, PoissonSubsampledGaussianBound.remove(eps, q, 1 / sigma), 1e-9, what);
                }
                assertEquals(add, PoissonSubsampledGaussianBound.add(eps, q, 1 / sigma), 1e-9 * add + 1e-300, what);
                double exact = Math.max(remove, add);
                assertTrue(b.delta(eps) >= exact, "rounded up: " + what);
                checked++;
            }
            for (Iterator<Map.Entry<String, JsonNode>> it = row.get("epsilon_for_delta").fields(); it.hasNext(); ) {
                Map.Entry<String, JsonNode> e = it.next();
                double delta = Double.parseDouble(e.getKey());
                double quad = ReferenceData.number(e.getValue().get("quad"));
                assertRelative(quad, b.epsilon(delta), 1e-7, "epsilon q=" + q + " sigma=" + sigma + " d=" + delta);
            }
        }
        assertTrue(checked >= 60, "checked " + checked);
    }

    /** The dual identity H(Q||P) = 1 - e^eps + e^eps H_{e^-eps}(P||Q) (formula sheet §2.3), where it is stable. */
    @Test
    void addDirectionSatisfiesTheDualIdentity() {
        for (double q : new double[] {0.05, 0.3, 0.8}) {
            for (double eps : new double[] {0.0, 0.01, 0.1, 0.3}) {
                double mu = 1.3;
                double viaIdentity = 1 - Math.exp(eps) + Math.exp(eps) * PoissonSubsampledGaussianBound.remove(-eps, q, mu);
                assertEquals(viaIdentity, PoissonSubsampledGaussianBound.add(eps, q, mu), 1e-13,
                        "q=" + q + " eps=" + eps);
            }
        }
    }

    @Test
    void bbg18AmplificationOfTheGaussianEqualsTheExactRemoveDirection() {
        for (double q : new double[] {1e-4, 0.01, 0.3}) {
            PoissonAmplificationBound bbg = new PoissonAmplificationBound(q, new GaussianBound(1.0));
            PoissonSubsampledGaussianBound exact = new PoissonSubsampledGaussianBound(q, 1.0);
            for (double eps : new double[] {0.01, 0.2, 1, 3}) {
                assertRelative(exact.delta(eps), bbg.delta(eps), 1e-9, "q=" + q + " eps=" + eps);
            }
        }
    }

    @Test
    void qOfOneIsThePlainGaussian() {
        PoissonSubsampledGaussianBound b = new PoissonSubsampledGaussianBound(1.0, 0.8);
        for (double eps : new double[] {0, 0.5, 2}) {
            assertEquals(GaussianBound.exactDelta(eps, 0.8), b.delta(eps), 1e-9 * b.delta(eps));
        }
    }

    @Test
    void tinySamplingRatesGiveFiniteConservativeValues() {
        PoissonSubsampledGaussianBound b = new PoissonSubsampledGaussianBound(1e-6, 1 / 0.3);
        for (double eps : new double[] {0, 1e-6, 0.01, 1, 10, 50}) {
            double d = b.delta(eps);
            assertTrue(d >= 0 && d <= 1e-6 * (1 + 1e-9), "delta(" + eps + ") = " + d);
        }
        double eps = b.epsilon(1e-15);
        assertTrue(Double.isFinite(eps) && eps > 0, "epsilon(1e-15) = " + eps);
    }

    /**
     * Where e^eps overflows a double (eps >= 709.79) the answer is still right: with q = 0.01 and mu = 1e4 the
     * sampled record alone is almost surely revealed, so delta(eps) = q for every eps up to far beyond 1000 (the
     * loss of a sampled record is about mu^2 / 2 = 5e7). Before the log-space fix the remove direction overflowed
     * to delta = 0, and calibration said every sigma met eps = 709 at delta = 1e-5.
     */
    @Test
    void hugeEpsilonStaysInLogSpace() {
        for (double eps : new double[] {700, 709, 709.8, 710, 1000, 1e5}) {
            assertEquals(0.01, PoissonSubsampledGaussianBound.remove(eps, 0.01, 1e4), 1e-12, "eps " + eps);
        }
        double base = PoissonAmplificationBound.baseEpsilon(800, 0.01);
        assertEquals(800 - Math.log(0.01), base, 1e-9);
        assertEquals(800, PoissonAmplificationBound.amplifiedEpsilon(base, 0.01), 1e-9);
        // Continuity across the overflow point.
        assertEquals(PoissonAmplificationBound.baseEpsilon(709.7, 0.3), PoissonAmplificationBound.baseEpsilon(709.8,
                0.3) - 0.1, 1e-9);
        BoundFamily family = new BoundFamily("exact", "test", CalibrationParameter.SIGMA, 1.0,
                sigma -> new PoissonSubsampledGaussianBound(0.01, 1 / sigma));
        double sigma = family.calibrate(709, 1e-5);
        assertTrue(sigma > 0.02 && sigma < 0.04, "calibrated sigma " + sigma);
        assertTrue(new PoissonSubsampledGaussianBound(0.01, 1 / sigma).delta(709) <= 1e-5);
        assertTrue(new PoissonSubsampledGaussianBound(0.01, 1 / (0.9 * sigma)).delta(709) > 1e-5);
    }
}

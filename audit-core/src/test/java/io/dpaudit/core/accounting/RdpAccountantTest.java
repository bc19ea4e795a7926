package io.dpaudit.core.accounting;

import io.dpaudit.core.bounds.PrivacyBound;
import static io.dpaudit.core.testing.ReferenceData.assertRelative;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import io.dpaudit.core.testing.ReferenceData;
import org.junit.jupiter.api.Test;

class RdpAccountantTest {
    private static double mu(double noiseMultiplier) {
        return 1.0 / noiseMultiplier;
    }

    /** Formula sheet §4.1: integer orders (dp_accounting, mpmath) and fractional orders (quadrature, signed series). */
    @Test
    void subsampledGaussianRdpMatchesFormulaSheet() {
        assertRelative(0.00017181342207455162, SubsampledGaussianRdp.rdp(0.01, mu(1), 2), 1e-12, "q=.01 s=1 a=2");
        assertRelative(0.00089364390760603185, SubsampledGaussianRdp.rdp(0.01, mu(1), 8), 1e-12, "q=.01 s=1 a=8");
        assertRelative(1.6272023010194358, SubsampledGaussianRdp.rdp(0.1, mu(2), 32), 1e-12, "q=.1 s=2 a=32");
        assertRelative(0.7918914327818952, SubsampledGaussianRdp.rdp(256 / 60000.0, mu(1.1), 16), 1e-12, "a=16");
        // Fractional: exact (signed series and quadrature agree to ~1e-10); dp_accounting's abs-sum is larger.
        assertRelative(0.00021757533233005664, SubsampledGaussianRdp.rdp(0.01, mu(1), 2.5), 1e-8, "a=2.5");
        assertRelative(0.012204206046462236, SubsampledGaussianRdp.rdp(0.1, mu(2), 7.3), 1e-8, "a=7.3");
        assertRelative(1.747978454435e-05, SubsampledGaussianRdp.rdp(256 / 60000.0, mu(1.1), 1.5), 1e-8, "a=1.5");
    }

    @Test
    void quadratureAgreesWithTheExactBinomialSumAtIntegerOrders() {
        for (double[] c : new double[][] {{0.01, 1}, {0.2, 0.8}, {1e-4, 0.5}, {0.5, 3}}) {
            for (int a : new int[] {2, 3, 7, 20}) {
                double exact = SubsampledGaussianRdp.logAMinus1Integer(c[0], mu(c[1]), a);
                double quad = SubsampledGaussianRdp.logAMinus1Quadrature(c[0], mu(c[1]), a);
                assertEquals(exact, quad, 1e-9 * Math.max(1, Math.abs(exact)), "q=" + c[0] + " s=" + c[1] + " a=" + a);
            }
        }
    }

    /** The reverse order B (formula sheet §4.1 table) is computed and never exceeds the forward one here. */
    @Test
    void reverseOrderMatchesQuadratureValues() {
        assertRelative(0.000160222649818562, SubsampledGaussianRdp.reverseRdp(0.01, 1, 2), 1e-9, "B q=.01 s=1 a=2");
        assertRelative(0.0831946504805, SubsampledGaussianRdp.reverseRdp(0.2, 1 / 0.8, 4), 1e-9, "B q=.2 s=.8 a=4");
        assertRelative(1.04798661821, SubsampledGaussianRdp.rdp(0.2, 1 / 0.8, 4), 1e-9, "A q=.2 s=.8 a=4");
    }

    /** Formula sheet §4.2: DP-SGD on MNIST-like data, 60 epochs. */
    @Test
    void dpSgdExampleMatchesBothConversions() {
        DpEvent e = new DpEvent.SelfComposed(new DpEvent.PoissonSampled(256 / 60000.0, new DpEvent.Gaussian(1.1, 1)),
                14062);
        RdpAccountant acc = new RdpAccountant();
        double[] curve = acc.curve(e, Adjacency.ADD_REMOVE);
        RdpConversion.Result best = RdpConversion.epsilon(acc.orders(), curve, 1e-5);
        assertRelative(2.596555868962793, best.value(), 1e-9, "improved conversion");
        assertEquals(8.1, best.order(), 1e-12);
        // The Mironov conversion alone: restrict to it by recomputing its minimum.
        double mironov = Double.POSITIVE_INFINITY;
        double[] o = acc.orders();
        for (int i = 0; i < o.length; i++) {
            mironov = Math.min(mironov, curve[i] + Math.log(1e5) / (o[i] - 1));
        }
        assertRelative(3.0082720825255445, mironov, 1e-9, "Mironov conversion");
    }

    /** WBK19 Theorem 9 values of the formula sheet (§4.4), Gaussian sigma = 2 (base RDP alpha/8), gamma = 0.01. */
    @Test
    void withoutReplacementTheorem9MatchesAutodp() {
        double[][] rows = {{2, 0.00011360371352876478}, {3, 0.00017250248949792749}, {8, 0.0004883930419623885},
            {32, 0.0025171821592645}};
        for (double[] r : rows) {
            assertRelative(r[1], WithoutReplacementRdp.rdp(0.01, j -> j / 8.0, false, 0, r[0]), 1e-12, "a=" + r[0]);
        }
        // Pure-DP base with eps0 = 1 (eps(alpha) <= 1), gamma = 0.05.
        assertRelative(0.013499874399189232, WithoutReplacementRdp.rdp(0.05, j -> 1.0, true, 1.0, 2), 1e-12, "pure a=2");
        assertRelative(0.028477665717946177, WithoutReplacementRdp.rdp(0.05, j -> 1.0, true, 1.0, 4), 1e-12, "pure a=4");
        assertRelative(0.09750462006459269, WithoutReplacementRdp.rdp(0.05, j -> 1.0, true, 1.0, 16), 1e-12, "pure 16");
    }

    /**
     * Replace-one adjacency doubles the sensitivity of a clipped sum. dp_accounting's noise multiplier for
     * SampledWithoutReplacement is std / (replace-one sensitivity), so its sigma = 2 is our sigma = 4 with clip 1.
     * This test fails if the replace-one sensitivity is halved to clip.
     */
    @Test
    void replaceOneDoublesTheSensitivity() {
        RdpAccountant acc = new RdpAccountant(new double[] {2, 3, 8, 32});
        DpEvent ours = new DpEvent.SampledWithoutReplacement(10, 1000, new DpEvent.Gaussian(4.0, 1.0));
        double[] curve = acc.curve(ours, Adjacency.REPLACE_ONE);
        assertRelative(0.00011360371352876478, curve[0], 1e-12, "alpha 2");
        assertRelative(0.0020793016331292, curve[3], 1e-9, "alpha 32 (Theorem 27, dp_accounting's value)");
        DpEvent halved = new DpEvent.SampledWithoutReplacement(10, 1000, new DpEvent.Gaussian(2.0, 1.0));
        double[] wrong = acc.curve(halved, Adjacency.REPLACE_ONE);
        assertTrue(wrong[0] > 3 * curve[0], "a sigma of 2 with clip 1 is a noise multiplier of 1 under replace-one");
        // The plain Gaussian: mu doubles from add/remove to replace-one, so RDP quadruples.
        double[] addRemove = acc.curve(new DpEvent.Gaussian(3, 1), Adjacency.ADD_REMOVE);
        double[] replace = acc.curve(new DpEvent.Gaussian(3, 1), Adjacency.REPLACE_ONE);
        assertEquals(4 * addRemove[2], replace[2], 1e-15);
    }

    /**
     * Reference cells (dp_accounting 0.6.0): epsilon at delta in {1e-5, 1e-6} for q, sigma, T on a grid. Its fractional
     * orders are upper bounds (absolute-value series), so the comparison is with the cells' epsilon recomputed from the
     * exact RDP (spot_checks.exact_rdp.per_T.exact_rdp_eps), to 1e-3 relative.
     */
    @Test
    void matchesReferenceEpsilonFromExactRdp() {
        JsonNode rows = ReferenceData.load("rdp_poisson_gaussian.json").get("spot_checks").get("exact_rdp").get("rows");
        RdpAccountant acc = new RdpAccountant();
        int checked = 0;
        for (JsonNode row : rows) {
            double q = row.get("q").doubleValue();
            double sigma = row.get("sigma").doubleValue();
            for (JsonNode perT : row.get("per_T")) {
                long t = perT.get("T").longValue();
                DpEvent e = new DpEvent.SelfComposed(new DpEvent.PoissonSampled(q, new DpEvent.Gaussian(sigma, 1)), t);
                PrivacyBound g = acc.account("test", e, Adjacency.ADD_REMOVE);
                for (String d : new String[] {"1e-05", "1e-06"}) {
                    double exact = perT.get(d).get("exact_rdp_eps").doubleValue();
                    double lib = perT.get(d).get("lib_eps").doubleValue();
                    double mine = g.epsilon(Double.parseDouble(d));
                    String what = "q=" + q + " sigma=" + sigma + " T=" + t + " delta=" + d;
                    assertRelative(exact, mine, 1e-3, what);
                    assertTrue(mine <= lib * (1 + 1e-9), "never above the library's upper bound: " + what);
                    checked++;
                }
            }
        }
        assertTrue(checked >= 100, "checked " + checked);
    }

    /**
     * Sampling without replacement: with Theorem 27 as well as Theorem 9, the accountant agrees with dp_accounting (which
     * uses Theorem 27) within 2% at every reference cell; the order grids and conversions differ, so not to the digit.
     */
    @Test
    void withoutReplacementMatchesDpAccountingsTheorem27() {
        JsonNode cells = ReferenceData.load("rdp_fixed_size_sampling.json").get("cells");
        RdpAccountant acc = new RdpAccountant();
        double worst = 0;
        for (JsonNode c : cells) {
            long m = c.get("m").longValue();
            long n = c.get("n").longValue();
            double sigma = c.get("sigma").doubleValue();
            long t = c.get("T").longValue();
            // Library noise multiplier sigma is std / (replace-one sensitivity): std 2 sigma with clip 1.
            DpEvent e = new DpEvent.SelfComposed(new DpEvent.SampledWithoutReplacement(m, n,
                    new DpEvent.Gaussian(2 * sigma, 1)), t);
            double mine = acc.account("test", e, Adjacency.REPLACE_ONE).epsilon(1e-5);
            double lib = c.get("epsilon").doubleValue();
            String what = "m=" + m + " sigma=" + sigma + " T=" + t;
            assertRelative(lib, mine, 0.02, what);
            worst = Math.max(worst, Math.abs(mine / lib - 1));
        }
        System.out.printf("[rdp wor] largest relative difference from dp_accounting: %.4f%n", worst);
    }

    /** Theorem 27 at the formula sheet's orders (sigma = 2, gamma = 0.01; §4.4, dp_accounting's values). */
    @Test
    void theorem27MatchesTheFormulaSheet() {
        double mu2 = 1 / 4.0;
        assertRelative(0.00011360371352876, WithoutReplacementRdp.theorem27(0.01, mu2, 2), 1e-9, "alpha 2");
        assertRelative(0.00017128897979488, WithoutReplacementRdp.theorem27(0.01, mu2, 3), 1e-9, "alpha 3");
        assertRelative(0.00046841626107202, WithoutReplacementRdp.theorem27(0.01, mu2, 8), 1e-9, "alpha 8");
        assertRelative(0.0020793016331292, WithoutReplacementRdp.theorem27(0.01, mu2, 32), 1e-9, "alpha 32");
        // And Theorem 9 at the same orders, which the Gaussian accountant improves on from alpha 3.
        assertRelative(0.0025171821592645, WithoutReplacementRdp.integerOrder(0.01, j -> j * mu2 / 2, false, 0, 32),
                1e-9, "Thm 9 alpha 32");
        assertRelative(0.0020793016331292, WithoutReplacementRdp.gaussian(0.01, 0.5, 32), 1e-9, "min at 32");
        // With tiny noise contributions the differences cancel almost completely: the error bound then makes
        // Theorem 27 fall back on Theorem 9 (never below the exact alternating sums, which mpmath gives).
        double tiny = WithoutReplacementRdp.gaussian(0.1, 0.00845, 64);
        double nine = WithoutReplacementRdp.integerOrder(0.1, j -> j * 0.00845 * 0.00845 / 2, false, 0, 64);
        assertTrue(tiny <= nine && tiny > 0, tiny + " vs " + nine);
    }

    @Test
    void unsupportedEventsNameTheSubEvent() {
        RdpAccountant acc = new RdpAccountant();
        DpEvent poissonReplace = new DpEvent.PoissonSampled(0.1, new DpEvent.Gaussian(1, 1));
        UnsupportedEventException e = assertThrows(UnsupportedEventException.class,
                () -> acc.account("test", poissonReplace, Adjacency.REPLACE_ONE));
        assertTrue(e.getMessage().contains("PoissonSampled(q=0.1") && e.getMessage().contains("add/remove"), e.getMessage());
        DpEvent nested = new DpEvent.PoissonSampled(0.1, new DpEvent.PoissonSampled(0.5, new DpEvent.Gaussian(1, 1)));
        assertTrue(acc.unsupported(nested, Adjacency.ADD_REMOVE).orElseThrow().contains("only a Gaussian"));
    }

    @Test
    void extremeInputsGiveFiniteConservativeAnswers() {
        RdpAccountant acc = new RdpAccountant();
        for (double q : new double[] {1e-6, 0.01, 1}) {
            for (double sigma : new double[] {0.3, 1, 10}) {
                for (long t : new long[] {1, 1000, 1_000_000}) {
                    DpEvent e = new DpEvent.SelfComposed(new DpEvent.PoissonSampled(q, new DpEvent.Gaussian(sigma, 1)), t);
                    PrivacyBound g = acc.account("test", e, Adjacency.ADD_REMOVE);
                    for (double delta : new double[] {1e-15, 1e-5, 0.5}) {
                        double eps = g.epsilon(delta);
                        assertTrue(eps >= 0 && !Double.isNaN(eps), "eps " + eps + " q=" + q + " s=" + sigma + " T=" + t);
                    }
                    for (double eps : new double[] {0, 1, 50}) {
                        double d = g.delta(eps);
                        assertTrue(d >= 0 && d <= 1, "delta " + d);
                    }
                }
            }
        }
    }
}

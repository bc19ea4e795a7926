package io.dpaudit.core.accounting;

import io.dpaudit.core.bounds.PrivacyBound;
import static io.dpaudit.core.testing.ReferenceData.assertRelative;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.dpaudit.core.bounds.PoissonSubsampledGaussianBound;
import io.dpaudit.core.fdp.CentralLimitMu;
import io.dpaudit.core.fdp.EpsilonDeltaTradeOff;
import io.dpaudit.core.fdp.GaussianTradeOff;
import io.dpaudit.core.fdp.SubsampledTradeOff;
import io.dpaudit.core.fdp.TradeOffConversions;
import org.junit.jupiter.api.Test;

/** Formula sheet §5 (opacus / TF-Privacy values, and numerically verified identities). */
class GdpAndTradeOffTest {
    @Test
    void gaussianTradeOffAndConversions() {
        assertRelative(0.740488977158556, new GaussianTradeOff(1).beta(0.05), 1e-12, "G_1(0.05)");
        assertRelative(0.9999127823898596, new GaussianTradeOff(1).beta(1e-6), 1e-12, "G_1(1e-6)");
        assertRelative(4.3771780956812, TradeOffConversions.epsilonForMu(1, 1e-5), 1e-9, "eps(mu=1)");
        assertRelative(0.26805112321129454, TradeOffConversions.muFor(1, 1e-5), 1e-9, "mu(1, 1e-5)");
        // The true root, 0.26805112321129421790 (mpmath, 40 digits), lies 1.2 ulps below the opacus value above;
        // 0.26805112321129415 is the largest double below it.
        assertTrue(TradeOffConversions.muFor(1, 1e-5) <= 0.26805112321129415, "rounded down");
        assertRelative(0.7281618171540956, new EpsilonDeltaTradeOff(1, 1e-5).beta(0.1), 1e-12, "f_{1,1e-5}(0.1)");
    }

    @Test
    void profileOfATradeOffFunctionMatchesTheClosedForm() {
        GaussianTradeOff g = new GaussianTradeOff(1.3);
        for (double eps : new double[] {0, 0.5, 2, 6}) {
            double closed = TradeOffConversions.deltaForMu(1.3, eps);
            assertRelative(closed, TradeOffConversions.profile(g, eps), 1e-8, "eps=" + eps);
        }
        // And back: the trade-off curve from the profile on a grid is a lower bound of G_mu, and close to it.
        double[] grid = new double[400];
        for (int i = 0; i < grid.length; i++) {
            grid[i] = i * 0.02;
        }
        for (double a : new double[] {0.01, 0.1, 0.5}) {
            double f = TradeOffConversions.tradeOff(e -> TradeOffConversions.deltaForMu(1.3, e), grid, a);
            assertTrue(f <= g.beta(a) + 1e-12 && f >= g.beta(a) - 2e-3, "alpha " + a + ": " + f + " vs " + g.beta(a));
        }
    }

    @Test
    void subsamplingOperatorMatchesTheFormulaSheet() {
        SubsampledTradeOff c = new SubsampledTradeOff(new GaussianTradeOff(1), 0.1);
        assertEquals(0.3085375387259869, c.fixedPoint(), 1e-12);
        assertEquals(0.76370792, c.beta(0.2), 1e-8);
        assertEquals(0.46170751, c.beta(0.5), 1e-8);
        assertEquals(0.07455562, c.beta(0.9), 1e-8);
        double[][] rows = {{0.5, 0.0020325369203}, {1, 0.000207121486021}, {2, 2.35518631885e-06},
            {3, 1.61104843627e-08}};
        for (double[] r : rows) {
            assertRelative(r[1], TradeOffConversions.profile(c, r[0]), 1e-7, "profile of C_p(G_1) at " + r[0]);
            // One routine serves both: the profile of C_p(G_mu) is the Poisson remove-direction closed form.
            assertRelative(PoissonSubsampledGaussianBound.remove(r[0], 0.1, 1), r[1], 1e-9, "closed form " + r[0]);
        }
    }

    @Test
    void centralLimitMusMatchOpacus() {
        double p = 256 / 60000.0;
        assertRelative(0.573581076035896, CentralLimitMu.poisson(p, 1.1, 14062), 1e-12, "poisson mu");
        assertRelative(0.7373882529873216, CentralLimitMu.uniform(p, 1.1, 14062), 1e-12, "uniform mu");
        assertRelative(2.324268873347135, TradeOffConversions.epsilonForMu(0.573581076035896, 1e-5), 1e-9, "eps");
        assertRelative(3.0867076754112945, TradeOffConversions.epsilonForMu(0.7373882529873216, 1e-5), 1e-9, "eps");
    }

    @Test
    void gdpAccountantFlagsItsApproximations() {
        GdpAccountant gdp = new GdpAccountant();
        DpEvent poisson = new DpEvent.SelfComposed(new DpEvent.PoissonSampled(256 / 60000.0,
                new DpEvent.Gaussian(1.1, 1)), 14062);
        PrivacyBound clt = gdp.account("test", poisson, Adjacency.ADD_REMOVE);
        assertFalse(clt.certified());
        assertTrue(clt.source().contains("APPROXIMATION"));
        assertRelative(2.324268873347135, clt.epsilon(1e-5), 1e-9, "CLT epsilon");
        PrivacyBound exact = gdp.account("test", new DpEvent.SelfComposed(new DpEvent.Gaussian(2, 1), 4),
                Adjacency.ADD_REMOVE);
        assertTrue(exact.certified());
        assertRelative(4.3771780956812, exact.epsilon(1e-5), 1e-9, "exact Gaussian composition");
        DpEvent wor = new DpEvent.SelfComposed(new DpEvent.SampledWithoutReplacement(256, 60000,
                new DpEvent.Gaussian(2.2, 1)), 14062);
        // Replace-one: noise multiplier = std / (2 clip) = 1.1.
        assertRelative(3.0867076754112945, gdp.account("test", wor, Adjacency.REPLACE_ONE).epsilon(1e-5), 1e-9, "uniform");
    }
}

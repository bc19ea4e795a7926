package io.dpaudit.core.bounds;

import static io.dpaudit.core.testing.ReferenceData.assertRelative;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import io.dpaudit.core.InvalidInputException;
import io.dpaudit.core.numerics.Normal;
import io.dpaudit.core.numerics.SafeRounding;
import io.dpaudit.core.testing.ReferenceData;
import org.junit.jupiter.api.Test;

class GaussianBoundTest {
    private static final JsonNode REF = ReferenceData.load("single_gaussian.json");

    /** dp_accounting 0.6.0 and 50-digit mpmath values (reference set); ours must agree to 1e-9 and not be lower. */
    @Test
    void profileMatchesIndependentReferenceToOneInABillion() {
        int checked = 0;
        for (JsonNode row : REF.get("rows")) {
            double sigma = row.get("sigma").doubleValue();
            double eps = row.get("epsilon").doubleValue();
            double exact = row.get("delta_mpmath_50digits").doubleValue();
            double mine = GaussianBound.of(sigma, 1.0, 1).delta(eps);
            assertRelative(exact, mine, 1e-9, "delta(sigma=" + sigma + ", eps=" + eps + ")");
            assertTrue(mine >= exact, "rounded up");
            checked++;
        }
        assertEquals(20, checked);
    }

    @Test
    void epsilonForDeltaMatchesReference() {
        for (JsonNode row : REF.get("epsilon_for_delta")) {
            double sigma = row.get("sigma").doubleValue();
            double delta = row.get("delta").doubleValue();
            double ref = row.get("epsilon_own_brentq").doubleValue();
            double mine = GaussianBound.of(sigma, 1.0, 1).epsilon(delta);
            assertRelative(ref, mine, 1e-9, "epsilon(sigma=" + sigma + ", delta=" + delta + ")");
        }
    }

    /** Formula sheet §1.3 (mpmath values), including the delta >= delta_0 branch. */
    @Test
    void formulaSheetValues() {
        assertRelative(0.1269367375066439458, GaussianBound.of(1, 1, 1).delta(1), 1e-9, "d(1;1)");
        assertRelative(0.3829249225480263, GaussianBound.of(1, 1, 1).delta(0), 1e-9, "d(0;1)");
        assertRelative(0.18381307654447215597, GaussianBound.of(0.5, 1, 1).delta(3), 1e-9, "d(3;0.5)");
        assertRelative(1.7546333318962326948e-8, GaussianBound.of(5, 1, 1).delta(1), 1e-9, "d(1;5)");
    }

    @Test
    void roundsComposeAsMuTimesSqrtT() {
        GaussianBound t4 = GaussianBound.of(2.0, 1.0, 4);
        GaussianBound one = GaussianBound.of(1.0, 1.0, 1);
        assertEquals(one.delta(1.3), t4.delta(1.3), 1e-15);
        assertEquals(1.0, t4.mu(), 0);
    }

    @Test
    void extremeArgumentsStayInRangeAndFinite() {
        GaussianBound g = new GaussianBound(0.1);
        assertEquals(0.0, g.delta(Double.POSITIVE_INFINITY));
        for (double eps : new double[] {0, 1, 10, 50, 200}) {
            for (double mu : new double[] {1e-3, 0.1, 1, 10, 40}) {
                double d = new GaussianBound(mu).delta(eps);
                assertTrue(d >= 0 && d <= 1, "delta(" + eps + "; " + mu + ") = " + d);
            }
        }
        assertThrows(InvalidInputException.class, () -> GaussianBound.of(-1, 1, 1));
        assertThrows(InvalidInputException.class, () -> GaussianBound.of(Double.NaN, 1, 1));
        assertThrows(InvalidInputException.class, () -> GaussianBound.of(1, 0, 1));
    }

    @Test
    void profileIsDecreasingInEpsilon() {
        GaussianBound g = new GaussianBound(0.7);
        double prev = 1.0;
        for (double eps = 0; eps < 40; eps += 0.05) {
            double d = g.delta(eps);
            assertTrue(d <= prev, "not decreasing at " + eps);
            prev = d;
        }
    }

    /**
     * Beyond the generic search limit (eps = 1e4): mu = 1000 (sigma = 1 over 10^6 rounds) needs eps = 504263.89292065408
     * at delta = 1e-5 (mpmath, 50 digits); it used to be reported as +inf (safe, not exact).
     */
    @Test
    void epsilonBeyondTheGenericSearchLimit() {
        GaussianBound g = new GaussianBound(1000);
        double e = g.epsilon(1e-5);
        // Measured: 504263.89297108, 1.0e-10 above (log Phi at -1004 carries that much relative error).
        assertTrue(e >= 504263.89292065408 && e <= 504263.89292065408 * (1 + 1e-9), "eps " + e);
        assertTrue(g.delta(e) <= 1e-5);
        assertTrue(new GaussianBound(1e9).epsilon(1e-5) > 4.99e17);
    }

    /**
     * Where both arguments of the profile are in the normal tail ({@code a, b < -20}) or eps is huge, the profile once
     * formed {@code eps + log Phi(b)}, a difference of terms of order {@code b^2/2}: at {@code mu = 8e6} it came out
     * 1.8e-10 below the truth, beyond the 1e-10 by which {@link GaussianBound#delta} rounds up. Against mpmath 1.3.0
     * at 120 digits ({@code ncdf(mu/2 - eps/mu) - exp(eps) ncdf(-mu/2 - eps/mu)}), the exact doubles given here:
     * the first is the CLT curve of {@code rare-events/subsampled-gaussian-T100-delta1e-10} at its 31st point.
     */
    @Test
    void profileKeepsItsPrecisionInTheFarTail() {
        double[][] epsilonMuTruth = {
            {2.789411578896869, 0.13108324944320862, 2.1610470498810811397e-102},
            {525000, 1000, 2.9820242922233444848e-138},
            {5.0025e9, 1e5, 3.055931504709413765e-138},
            {3.2000003e13, 8e6, 0.35383018684539165074},
        };
        for (double[] row : epsilonMuTruth) {
            assertRelative(row[2], GaussianBound.exactDelta(row[0], row[1]), 1e-12,
                    "eps " + row[0] + ", mu " + row[1]);
        }
    }

    /**
     * Tiny noise over many rounds (random allocation, k = 64, sigma = 1e-12: mu = 8e12) once failed its root search
     * ("no sign change"), and its profile cancelled two terms of order 1e25 (delta 0 where it is 0.3). Where the
     * profile's second term is negligible, eps = mu^2/2 + mu z with {@code Phi(-z) = delta}. The answer must not be
     * below that (0.01 standard deviations allowed for the rounding of eps near 1e25) nor above it by more than the
     * bracket's relative width (1e-13) and the upward rounding of every analytic bound ({@link SafeRounding#MARGIN}).
     */
    @Test
    void epsilonAtTinyNoiseIsFiniteAndAtTheGaussianTail() {
        for (double mu : new double[] {1e6, 8e12, 1e14, 1e15}) {
            for (double delta : new double[] {0.3, 1e-6, 1e-12}) {
                GaussianBound g = new GaussianBound(mu);
                double e = g.epsilon(delta);
                double z = -Normal.quantile(delta);
                String where = "mu " + mu + ", delta " + delta + ": eps " + e;
                assertTrue(e >= mu * mu / 2 + mu * (z - 0.01), where);
                assertTrue(e <= (mu * mu / 2 + mu * (z + 0.01)) * (1 + 1e-13 + 2 * SafeRounding.MARGIN), where);
                // One standard deviation inside: delta = Phi(a) minus a second term below |a|/mu of it.
                double inside = mu * mu / 2 + mu * (z - 1);
                double phiA = Normal.cdf(mu / 2 - inside / mu);
                assertEquals(phiA, GaussianBound.exactDelta(inside, mu), 1e-4 * phiA, where);
            }
        }
        // Where doubles no longer resolve the profile (PriFedSync's CLT mu at p = 1e-9, sigma = 0.05, 10^6 rounds),
        // the search's end is the answer: above the true eps, by a relative 1e-84 at most.
        double mu = 1e85;
        double e = new GaussianBound(mu).epsilon(1e-6);
        assertTrue(e >= mu * mu / 2 && e <= mu * mu / 2 * (1 + 3 * SafeRounding.MARGIN), "eps " + e);
        assertEquals(Double.POSITIVE_INFINITY, new GaussianBound(1e160).epsilon(1e-6));
    }

    /**
     * The default search stops at ε = 8192 and the Gaussian's own search took over at 1e4, so a root between the two
     * had no bracket: {@code bound gaussian sigma=0.0077 --delta 1e-6} (ε about 9049) was an internal error ("no sign
     * change on [10000.0, 10000.0]"). Every mu from 100 to 200 (ε(1e-6) from about 5500 to 21000) now gets a finite
     * ε whose profile is at most δ and just above it a hair below, increasing with mu.
     */
    @Test
    void epsilonBetweenTheTwoSearchesHasABracket() {
        double previous = 0;
        for (double mu = 100; mu <= 200; mu += 0.5) {
            GaussianBound g = new GaussianBound(mu);
            double e = g.epsilon(1e-6);
            String where = "mu " + mu + ": eps " + e;
            assertTrue(Double.isFinite(e) && e > previous, where);
            assertTrue(g.delta(e) <= 1e-6, where);
            assertTrue(GaussianBound.exactDelta(e * (1 - 1e-9), mu) > 1e-6 * (1 - 1e-4), where);
            previous = e;
        }
    }
}

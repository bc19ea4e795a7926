package io.dpaudit.core.accounting;

import static org.junit.jupiter.api.Assertions.assertTrue;

import io.dpaudit.core.bounds.GaussianBound;
import io.dpaudit.core.bounds.PrivacyBound;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;

/**
 * The lower end of the PLD accountant's numerical bracket ({@link PrivacyBound#deltaLowerEnd}): below the exact δ of
 * the composition it discretises, and no further below than its grid explains (T steps of spacing h: its δ at
 * {@code eps + T h}). Checked against compositions known in closed form.
 */
class PldLowerEndTest {
    private static final double[] EPSILONS = {0, 0.25, 0.5, 1, 2, 3, 4};

    /** The grid spacing the accountant reports in its method string. */
    private static double gridSpacing(PrivacyBound b) {
        Matcher m = Pattern.compile("h = ([0-9.eE+-]+)").matcher(b.source());
        assertTrue(m.find(), b.source());
        return Double.parseDouble(m.group(1));
    }

    /**
     * A Gaussian profile given to the accountant as a profile (so that it discretises it by connect-the-dots on its
     * coarse profiled grid instead of composing it in closed form), 20 times: the exact answer is the Gaussian with
     * {@code mu sqrt(20)}.
     */
    @Test
    void aProfiledGaussianComposedTwentyTimesIsBracketed() {
        double mu = 0.5;
        int t = 20;
        GaussianBound one = new GaussianBound(mu);
        DpEvent round = DpEvent.Profiled.symmetric("gaussian", one::delta, 16);
        PrivacyBound pld = new PldAccountant().account("test", new DpEvent.SelfComposed(round, t),
                Adjacency.ADD_REMOVE);
        GaussianBound exact = new GaussianBound(mu * Math.sqrt(t));
        double shift = t * gridSpacing(pld);
        assertTrue(shift > 0.05, "the profiled grid is coarse enough to matter here: T h = " + shift);
        for (double e : EPSILONS) {
            double truth = GaussianBound.exactDelta(e, mu * Math.sqrt(t));
            double low = pld.deltaLowerEnd(e);
            String at = "eps = " + e + ": lower end " + low + ", exact " + truth + ", PLD " + pld.delta(e);
            assertTrue(low <= truth, "above the exact curve, " + at);
            assertTrue(truth <= pld.delta(e), "the PLD below the exact curve, " + at);
            // connect-the-dots lies on or above the exact curve, so its δ at eps + T h is at least the exact one
            // there; the lower end of a profiled event comes from a grid 16 times finer (T h / 16; checked with / 8)
            assertTrue(low >= GaussianBound.exactDelta(e + shift / 8, mu * Math.sqrt(t)) - 1e-12,
                    "lower than the refined grid explains (T h = " + shift + " on the curve's grid), " + at);
        }
        assertTrue(exact.epsilon(1e-5) < pld.epsilon(1e-5));
    }

    /**
     * Randomized response with {@code eps0 = 0.7}, 50 times, through the accountant's discrete-loss path: the loss is
     * {@code (2K - T) eps0} with {@code K ~ Binomial(T, e^eps0 / (1 + e^eps0))} under the first world.
     */
    @Test
    void randomizedResponseComposedFiftyTimesIsBracketed() {
        double eps0 = 0.7;
        int t = 50;
        double p = Math.exp(eps0) / (1 + Math.exp(eps0));
        DpEvent rr = DpEvent.DiscreteLoss.ofPair("rr", new double[] {p, 1 - p}, new double[] {1 - p, p});
        PrivacyBound pld = new PldAccountant().account("test", new DpEvent.SelfComposed(rr, t), Adjacency.ADD_REMOVE);
        for (double e : EPSILONS) {
            double truth = 0;
            for (int k = 0; k <= t; k++) {
                double logMass = logChoose(t, k) + k * Math.log(p) + (t - k) * Math.log1p(-p);
                double loss = (2.0 * k - t) * eps0;
                if (loss > e) {
                    truth += Math.exp(logMass) * -Math.expm1(e - loss);
                }
            }
            double low = pld.deltaLowerEnd(e);
            String at = "eps = " + e + ": lower end " + low + ", exact " + truth + ", PLD " + pld.delta(e);
            assertTrue(low <= truth * (1 + 1e-12), "above the exact curve, " + at);
            assertTrue(truth <= pld.delta(e) * (1 + 1e-12), "the PLD below the exact curve, " + at);
            assertTrue(low >= 0.9 * truth || truth < 1e-12, "a uselessly wide bracket, " + at);
        }
    }

    private static double logChoose(int n, int k) {
        double s = 0;
        for (int i = 1; i <= k; i++) {
            s += Math.log(n - k + i) - Math.log(i);
        }
        return s;
    }

    /** A refusal (δ = 1 everywhere, no claim) knows nothing from below: its lower end is 0, not 1. */
    @Test
    void aRefusalHasNoLowerEnd() {
        DpEvent tooWide = new DpEvent.SelfComposed(new DpEvent.PoissonSampled(0.01, new DpEvent.Gaussian(1e-7, 1)), 2);
        PrivacyBound refused = new PldAccountant().account("test", tooWide, Adjacency.ADD_REMOVE);
        assertTrue(refused.source().contains("no bound given"), refused.source());
        assertTrue(refused.delta(1) == 1.0 && refused.deltaLowerEnd(1) == 0.0);
    }

    /** Closed forms keep the default: their lower end is their δ. */
    @Test
    void closedFormsAreTheirOwnLowerEnd() {
        PrivacyBound g = new PldAccountant().account("test", new DpEvent.SelfComposed(new DpEvent.Gaussian(2.0, 1.0),
                4), Adjacency.ADD_REMOVE);
        for (double e : EPSILONS) {
            assertTrue(g.deltaLowerEnd(e) == g.delta(e));
        }
    }
}

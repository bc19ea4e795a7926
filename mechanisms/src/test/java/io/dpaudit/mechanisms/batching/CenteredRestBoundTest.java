package io.dpaudit.mechanisms.batching;

import static org.junit.jupiter.api.Assertions.assertTrue;

import io.dpaudit.core.numerics.Normal;
import org.junit.jupiter.api.Test;

/**
 * The large term's share expanded around the rest's mean ({@link CenteredRestBound}): an upper bound on
 * {@code E[H(c - R)]} against exact values, for a rest whose law attains Scarf's bound (two points) and for one
 * lognormal term (T = 2, by quadrature), and second order in the rest's spread where the first-order bound was not.
 */
class CenteredRestBoundTest {
    /** {@code H(k) = E[(w - k); w > max(k, b)]}, {@code log w ~ N(0, tau^2)}, in closed form. */
    private static double share(double k, double b, double tau) {
        double m = Math.max(k, b);
        double call = Math.exp(tau * tau / 2) * Normal.sf((Math.log(m) - tau * tau) / tau) - m * Normal.sf(Math.log(m) / tau);
        return call + (m - k) * Normal.sf(Math.log(m) / tau);
    }

    @Test
    void aTwoPointRestWithScarfsExcessIsBoundedFromAbove() {
        // R = mu - sd or mu + sd with probability 1/2: pi(mu + z sd) = sd (1 - |z|)_+ / 2 on both sides, exactly
        // (at z = 0 it is Scarf's bound: this law attains it)
        double tau = 1;
        double mu = 1000;
        double sd = 60;
        CenteredRestBound bound = new CenteredRestBound(tau, mu, sd, z -> sd * Math.max(0, 1 - Math.abs(z)) / 2);
        for (double excess : new double[] {300, 600, 1000, 2000}) {
            double c = mu + excess;
            for (double level : new double[] {0.5, 0.8, 0.95}) {
                double b = level * excess;
                double exact = 0.5 * (share(c - mu - sd, b, tau) + share(c - mu + sd, b, tau));
                double upper = Math.exp(bound.log(c, b));
                assertTrue(upper >= exact * (1 - 1e-12), "c - mu = " + excess + ", b = " + b + ": " + upper + " < "
                        + exact);
                // second order in the spread: measured 0.12% (c - mu = 2000) to 2.5% (300) above the exact value
                assertTrue(upper <= exact * 1.03, "c - mu = " + excess + ", b = " + b + ": " + upper + " vs " + exact);
            }
        }
    }

    @Test
    void oneLognormalRestIsBoundedAgainstQuadrature() {
        for (double sigma : new double[] {0.5, 0.7, 1.0}) {
            double tau = 1 / sigma;
            double e1 = Math.exp(tau * tau / 2);
            double sd = e1 * Math.sqrt(Math.expm1(tau * tau));
            // the rest's excess by Scarf alone (valid for every law of this mean and variance)
            CenteredRestBound bound = new CenteredRestBound(tau, e1, sd, z -> CenteredRestBound.scarf(sd, z));
            for (double eps : new double[] {2, 4, 6}) {
                double c = 2 * e1 * Math.exp(eps);
                double b = 0.8 * (c - 2 * e1);
                // E[H(c - R)] over log R ~ N(0, tau^2), by Simpson's rule on log R
                double exact = AllocationDeepTailTest.simpson(u -> Math.exp(-u * u / (2 * tau * tau))
                        / (tau * Math.sqrt(2 * Math.PI)) * share(c - Math.exp(u), b, tau), -12 * tau, 12 * tau, 400_000);
                double upper = Math.exp(bound.log(c, b));
                assertTrue(upper >= exact * (1 - 1e-6), "sigma = " + sigma + ", eps = " + eps + ": " + upper + " < "
                        + exact);
                // Scarf's spread for one lognormal term: measured 4-6% above at eps = 2, 0.03% at 6
                assertTrue(upper <= exact * 1.08, "sigma = " + sigma + ", eps = " + eps + ": " + upper + " vs " + exact);
            }
        }
    }

    @Test
    void theLowerEndHoldsBelowTheExactShare() {
        // the two-point rest (exact pi on both sides) and one lognormal term (its call and put in closed form); the
        // rest is not conditioned here (meanB = its mean, no tail loss), which the expansion allows
        double tau = 1;
        double mu = 1000;
        double sd = 60;
        java.util.function.DoubleUnaryOperator twoPoint = z -> sd * Math.max(0, 1 - Math.abs(z)) / 2;
        CenteredRestBound bound = new CenteredRestBound(tau, mu, sd, twoPoint, twoPoint, twoPoint);
        for (double excess : new double[] {300, 600, 1000, 2000}) {
            double c = mu + excess;
            for (double level : new double[] {0.5, 0.8, 1.0}) {
                double b = level * excess;
                double exact = 0.5 * (share(c - mu - sd, b, tau) + share(c - mu + sd, b, tau));
                double lower = Math.exp(bound.logLower(c, b, mu, 0));
                assertTrue(lower <= exact * (1 + 1e-12), "c - mu = " + excess + ", b = " + b + ": " + lower + " > "
                        + exact);
                // measured 0.05% (c - mu = 2000) to 2.4% (300) below
                assertTrue(lower >= exact * 0.97, "c - mu = " + excess + ", b = " + b + ": " + lower + " vs " + exact);
            }
        }
        for (double sigma : new double[] {0.5, 0.7, 1.0}) {
            double t = 1 / sigma;
            double e1 = Math.exp(t * t / 2);
            double sdOne = e1 * Math.sqrt(Math.expm1(t * t));
            // E(R - r)_+ and E(r - R)_+ of one lognormal, r = e1 + z sd
            java.util.function.DoubleUnaryOperator call = z -> share(e1 + z * sdOne, 1e-300, t);
            java.util.function.DoubleUnaryOperator put = z -> call.applyAsDouble(z) - (e1 - (e1 + z * sdOne));
            CenteredRestBound one = new CenteredRestBound(t, e1, sdOne, z -> CenteredRestBound.scarf(sdOne, z), put,
                    call);
            for (double eps : new double[] {2, 4, 6}) {
                double c = 2 * e1 * Math.exp(eps);
                double b = 0.8 * (c - 2 * e1);
                double exact = AllocationDeepTailTest.simpson(u -> Math.exp(-u * u / (2 * t * t))
                        / (t * Math.sqrt(2 * Math.PI)) * share(c - Math.exp(u), b, t), -12 * t, 12 * t, 400_000);
                double lower = Math.exp(one.logLower(c, b, e1, 0));
                assertTrue(lower <= exact * (1 + 1e-6), "sigma = " + sigma + ", eps = " + eps + ": " + lower + " > "
                        + exact);
                // measured at most 0.12% below
                assertTrue(lower >= exact * 0.995, "sigma = " + sigma + ", eps = " + eps + ": " + lower + " vs " + exact);
            }
        }
    }
}

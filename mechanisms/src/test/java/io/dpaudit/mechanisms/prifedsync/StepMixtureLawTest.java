package io.dpaudit.mechanisms.prifedsync;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.dpaudit.core.law.StatisticLaw;
import io.dpaudit.core.numerics.LogSpace;
import java.util.Arrays;
import java.util.SplittableRandom;
import org.junit.jupiter.api.Test;

/**
 * The cancelled log-likelihood ratio of {@link StepMixtureLaw#logRatio} against the same ratio term by term in log
 * space, and against the difference of the two densities (the interface's default), over mixture weights from 1e-300
 * to 1, noise scales from 1e-3 to 100, the seed's pairs of means (opposite ones take their own path) and arguments
 * from the laws' bulk out to 10^6. Fixed seed; deterministic.
 */
class StepMixtureLawTest {
    private static final double[] GAMMAS = {1e-300, 1e-6, 0.01, 0.5, 0.999, 1.0};
    private static final double[] SDS = {1e-3, 0.1, 1.0, 100.0};
    private static final double[][] MEANS = {{1, -1}, {2, 0}, {0, -1}, {1, 0}, {0, 0}, {1, 1}};
    /** Enough steps that products of quotients leave [1e-40, 1e40] and are folded into the log mid-round. */
    private static final int STEPS = 12;

    /** Per step {@code log((1-g) + g e^{cp}) - log((1-g) + g e^{cq})}, each term by log-sum-exp. */
    private static double logSpaceReference(double gamma, double sd, double mp, double mq, double[] x) {
        double total = 0;
        for (double v : x) {
            total += term(gamma, sd, mp, v) - term(gamma, sd, mq, v);
        }
        return total;
    }

    private static double term(double gamma, double sd, double m, double v) {
        if (m == 0.0) {
            return 0.0;
        }
        double c = (v * m - 0.5 * m * m) / (sd * sd);
        return LogSpace.add(Math.log1p(-gamma), Math.log(gamma) + c);
    }

    @Test
    void cancelledRatioMatchesTheLogSpaceRatioAndTheDifferenceOfDensities() {
        SplittableRandom random = new SplittableRandom(20261127L);
        int compared = 0;
        for (double gamma : GAMMAS) {
            for (double sd : SDS) {
                for (double[] means : MEANS) {
                    StepMixtureLaw p = new StepMixtureLaw(STEPS, gamma, means[0] * sd * 2, sd);
                    StepMixtureLaw q = new StepMixtureLaw(STEPS, gamma, means[1] * sd * 2, sd);
                    StepMixtureLaw pUnscaled = new StepMixtureLaw(STEPS, gamma, means[0], sd);
                    StepMixtureLaw qUnscaled = new StepMixtureLaw(STEPS, gamma, means[1], sd);
                    for (int draw = 0; draw < 200; draw++) {
                        double[] x = new double[STEPS];
                        double scale = draw < 100 ? sd * 3 : Math.pow(10, random.nextDouble(-3, 6));
                        for (int k = 0; k < STEPS; k++) {
                            x[k] = scale * (2 * random.nextDouble() - 1);
                        }
                        compared += check(p, q, gamma, sd, means[0] * sd * 2, means[1] * sd * 2, x);
                        compared += check(pUnscaled, qUnscaled, gamma, sd, means[0], means[1], x);
                    }
                }
            }
        }
        assertTrue(compared > 50_000, "compared " + compared);
    }

    private static int check(StepMixtureLaw p, StepMixtureLaw q, double gamma, double sd, double mp, double mq,
            double[] x) {
        double fast = p.logRatio(q, x, 0);
        double reference = logSpaceReference(gamma, sd, mp, mq, x);
        // the ratio's condition: a relative error of a few ulps in each exponent c moves it by that much of |c|
        double exponents = 0;
        for (double v : x) {
            exponents += Math.abs((v * mp - 0.5 * mp * mp) / (sd * sd))
                    + Math.abs((v * mq - 0.5 * mq * mq) / (sd * sd));
        }
        double tolerance = 1e-13 * (STEPS + Math.abs(reference) + exponents);
        assertTrue(Double.isFinite(fast), () -> "not finite at gamma " + gamma + " sd " + sd);
        assertEquals(reference, fast, tolerance,
                () -> "gamma " + gamma + " sd " + sd + " means " + mp + ", " + mq + " x " + Arrays.toString(x));
        int compared = 1;
        double byDensities = p.logDensity(x, 0) - q.logDensity(x, 0);
        if (Double.isFinite(byDensities)) {
            // the difference of densities loses the ulps of the squared, standardised arguments it cancels
            double cancelled = 0;
            for (double v : x) {
                cancelled += 0.5 * (v / sd) * (v / sd) + 0.5 * ((v - mp) / sd) * ((v - mp) / sd)
                        + 0.5 * ((v - mq) / sd) * ((v - mq) / sd);
            }
            assertEquals(byDensities, fast, tolerance + 8 * Math.ulp(cancelled),
                    () -> "densities: gamma " + gamma + " sd " + sd + " x " + Arrays.toString(x));
            compared++;
        }
        return compared;
    }

    @Test
    void aLawAgainstItselfOrAnotherKindFallsBackCorrectly() {
        StepMixtureLaw p = new StepMixtureLaw(3, 0.01, 1.0, 0.7);
        double[] x = {0.3, -2.0, 5.0};
        assertEquals(0.0, p.logRatio(p, x, 0), 0.0);
        StepMixtureLaw otherSteps = new StepMixtureLaw(3, 0.02, -1.0, 0.7);
        assertEquals(p.logDensity(x, 0) - otherSteps.logDensity(x, 0), p.logRatio(otherSteps, x, 0), 0.0);
        StatisticLaw foreign = new StatisticLaw() {
            @Override
            public int dimension() {
                return 3;
            }

            @Override
            public double logDensity(double[] y, int offset) {
                return -y[offset] * y[offset];
            }
        };
        assertEquals(p.logDensity(x, 0) - foreign.logDensity(x, 0), p.logRatio(foreign, x, 0), 0.0);
    }
}

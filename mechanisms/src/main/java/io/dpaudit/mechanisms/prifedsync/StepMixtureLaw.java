package io.dpaudit.mechanisms.prifedsync;

import io.dpaudit.core.law.StatisticLaw;
import io.dpaudit.core.numerics.LogSpace;

/**
 * The law of the {@code K} released step sums of client j along the canary, given that the round reaches the
 * adversary: independent across steps (each batch is drawn afresh), each {@code (1 - gamma) N(0, s^2) + gamma N(mean,
 * s^2)} — the target record (or its replacement) is in the batch with probability {@code gamma = B/n} and then
 * shifts the step sum, less the other records' known gradients, by {@code mean} ({@link PriFedSyncParameters#meanWith}
 * or {@link PriFedSyncParameters#meanWithout} times C); {@code s} is the noise standard deviation.
 */
final class StepMixtureLaw implements StatisticLaw {
    private static final double LOG_SQRT_2PI = 0.5 * Math.log(2 * Math.PI);
    private final int steps;
    private final double logKeep;
    private final double logInclude;
    private final double mean;
    private final double sd;

    static StepMixtureLaw withCanary(PriFedSyncParameters p) {
        return new StepMixtureLaw(p.localSteps(), p.gamma(), p.meanWith() * p.clip(), p.noiseScale() * p.clip());
    }

    static StepMixtureLaw withoutCanary(PriFedSyncParameters p) {
        return new StepMixtureLaw(p.localSteps(), p.gamma(), p.meanWithout() * p.clip(), p.noiseScale() * p.clip());
    }

    StepMixtureLaw(int steps, double gamma, double mean, double sd) {
        this.steps = steps;
        this.logKeep = Math.log1p(-gamma);
        this.logInclude = Math.log(gamma);
        this.mean = mean;
        this.sd = sd;
    }

    @Override
    public int dimension() {
        return steps;
    }

    @Override
    public double logDensity(double[] x, int offset) {
        double inv = 1.0 / sd;
        double total = -steps * (Math.log(sd) + LOG_SQRT_2PI);
        for (int k = 0; k < steps; k++) {
            double a = x[offset + k] * inv;
            double b = (x[offset + k] - mean) * inv;
            total += mean == 0.0 ? -0.5 * a * a : LogSpace.add(logKeep - 0.5 * a * a, logInclude - 0.5 * b * b);
        }
        return total;
    }
}

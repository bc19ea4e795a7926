package io.dpaudit.mechanisms.prifedsync;

import io.dpaudit.core.law.StatisticLaw;

/**
 * The law of one observation under {@code state: persistent} with full-batch local steps: given the public count
 * {@code s} of client j's updates the observer has not seen yet, the model's change along the canary is the sum of
 * {@code s K} noisy steps, {@code N(s K mean, s K sd^2)}, with {@code mean} the pair's shift ({@code a C} in {@code D},
 * {@code b C} in {@code D'}). The density is that of the change given {@code s}, with respect to Lebesgue measure; the
 * count's own law is the same in both worlds (it comes from the clients' sampling coins alone), so it cancels from the
 * likelihood ratio and is left out. Observations are independent given their counts.
 */
final class PersistentBlockLaw implements StatisticLaw {
    private static final double LOG_SQRT_2PI = 0.5 * Math.log(2 * Math.PI);
    private final int steps;
    private final double mean;
    private final double sd;

    PersistentBlockLaw(int steps, double mean, double sd) {
        this.steps = steps;
        this.mean = mean;
        this.sd = sd;
    }

    static PersistentBlockLaw withCanary(PriFedSyncParameters p) {
        return new PersistentBlockLaw(p.localSteps(), p.meanWith() * p.clip(), p.noiseScale() * p.clip());
    }

    static PersistentBlockLaw withoutCanary(PriFedSyncParameters p) {
        return new PersistentBlockLaw(p.localSteps(), p.meanWithout() * p.clip(), p.noiseScale() * p.clip());
    }

    @Override
    public int dimension() {
        return 2;
    }

    @Override
    public double logDensity(double[] x, int offset) {
        double n = x[offset] * steps;
        if (!(n >= 1)) {
            return Double.NEGATIVE_INFINITY;
        }
        double scale = sd * Math.sqrt(n);
        double z = (x[offset + 1] - n * mean) / scale;
        return -0.5 * z * z - Math.log(scale) - LOG_SQRT_2PI;
    }
}

package io.dpaudit.core.engine;

import org.apache.commons.rng.UniformRandomProvider;

/**
 * The pilot run that fixes the histogram range before the counted trials start.
 *
 * <p>It draws {@code trials} outputs in each world from its own stream, scores them and records the smallest and
 * largest finite score. Its trials are never counted in any estimate, so the range (and a Bonferroni threshold grid
 * placed on it) is independent of the data that later certifies a bound.
 */
public final class Pilot {
    /** Default pilot size per world. */
    public static final int DEFAULT_TRIALS = 1 << 16;

    private Pilot() {
    }

    /**
     * Runs the pilot and returns the binning for {@code bins} interior bins.
     *
     * @throws IllegalStateException if the attack produced a NaN score or no finite score at all
     */
    public static HistogramBinning binning(TrialSamplerFactory factory, Scorer scorer, int trials, int bins,
            UniformRandomProvider rng) {
        double[] ranks = scorer.rankValues();
        HistogramBinning exact = ranks == null ? null : HistogramBinning.ranks(ranks);
        TrialSampler sampler = factory.create(rng);
        int length = factory.outputLength();
        int batch = MonteCarloEngine.batchTrials(length);
        double[] outputs = new double[batch * length];
        double[] scores = new double[batch];
        double min = Double.POSITIVE_INFINITY;
        double max = Double.NEGATIVE_INFINITY;
        for (int done = 0; done < trials; ) {
            int b = Math.min(batch, trials - done);
            for (World world : World.values()) {
                sampler.sample(world, outputs, b);
                double[] scored = scorer.score(outputs, b, scores);
                for (int i = 0; i < b; i++) {
                    double s = scored[i];
                    if (Double.isNaN(s)) {
                        throw new IllegalStateException("attack " + scorer.description()
                                + " produced a NaN score in world " + world.symbol());
                    }
                    if (Double.isFinite(s)) {
                        min = Math.min(min, s);
                        max = Math.max(max, s);
                    }
                }
            }
            done += b;
        }
        if (min > max) {
            throw new IllegalStateException("attack " + scorer.description() + " produced no finite score");
        }
        if (exact != null) {
            if (min < 0 || max > ranks.length - 1) {
                throw new IllegalStateException("attack " + scorer.description() + " produced a rank outside [0, "
                        + (ranks.length - 1) + "]");
            }
            return exact;
        }
        return HistogramBinning.fromPilot(min, max, bins);
    }
}

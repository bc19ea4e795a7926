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
    /** Most distinct values a {@link Scorer#mayBeDiscrete()} score may show in the pilot to be counted exactly. */
    public static final int MAX_DISCOVERED_VALUES = 4096;

    /**
     * What the pilot fixes: the binning, and the scorer to count with (the given one, or a {@link RankedScorer} over it
     * when its scores turned out to take few values).
     *
     * @param binning the histogram layout
     * @param scorer the scorer whose scores the binning is for
     * @param warmSecondsPerTrial wall seconds per trial (both worlds, one thread) over the pilot's second half, once the
     *     JIT has compiled the trial loop (over the whole pilot when it is one batch)
     */
    public record Result(HistogramBinning binning, Scorer scorer, double warmSecondsPerTrial) {
    }

    private Pilot() {
    }

    /**
     * Runs the pilot and returns the binning for {@code bins} interior bins.
     *
     * @throws IllegalStateException if the attack produced a NaN score or no finite score at all
     */
    public static HistogramBinning binning(TrialSamplerFactory factory, Scorer scorer, int trials, int bins,
            UniformRandomProvider rng) {
        return run(factory, scorer, trials, bins, rng, ProgressListener.NONE).binning();
    }

    /** {@link #binning} checking {@code progress} between batches (a run's budget). */
    public static HistogramBinning binning(TrialSamplerFactory factory, Scorer scorer, int trials, int bins,
            UniformRandomProvider rng, ProgressListener progress) {
        return run(factory, scorer, trials, bins, rng, progress).binning();
    }

    /** {@link #run(TrialSamplerFactory, Scorer, int, int, UniformRandomProvider, ProgressListener)} unchecked. */
    public static Result run(TrialSamplerFactory factory, Scorer scorer, int trials, int bins,
            UniformRandomProvider rng) {
        return run(factory, scorer, trials, bins, rng, ProgressListener.NONE);
    }

    /**
     * Runs the pilot, checking {@code progress} between batches. For a scorer that {@linkplain Scorer#mayBeDiscrete() may be discrete}, the pilot's scores are
     * kept (2 x {@code trials} doubles) and, when they take at most {@link #MAX_DISCOVERED_VALUES} distinct finite
     * values, the result counts with a {@link RankedScorer} over them and its exact binning.
     *
     * @throws IllegalStateException if the attack produced a NaN score or no finite score at all
     */
    public static Result run(TrialSamplerFactory factory, Scorer scorer, int trials, int bins,
            UniformRandomProvider rng, ProgressListener progress) {
        double[] ranks = scorer.rankValues();
        boolean discover = ranks == null && scorer.mayBeDiscrete();
        double[] seen = discover ? new double[2 * trials] : null;
        int kept = 0;
        HistogramBinning exact = ranks == null ? null : HistogramBinning.ranks(ranks);
        TrialSampler sampler = factory.create(rng);
        int length = factory.outputLength();
        int batch = ShardedPhase.batchTrials(length);
        double[] outputs = new double[batch * length];
        double[] scores = new double[batch];
        double min = Double.POSITIVE_INFINITY;
        double max = Double.NEGATIVE_INFINITY;
        long loopStart = System.nanoTime();
        long warmStart = loopStart;
        int warmFrom = 0;
        for (int done = 0; done < trials; ) {
            if (warmFrom == 0 && done >= trials / 2 && done > 0) { // the second half runs with the JIT warmed up
                warmFrom = done;
                warmStart = System.nanoTime();
            }
            progress.check("pilot, trial " + done + " of " + trials); // a clock read per batch: a budget holds
            // even where one trial is a million rounds
            int b = Math.min(batch, trials - done);
            for (World world : World.values()) {
                sampler.sample(world, outputs, b);
                double[] scored = scorer.score(outputs, b, scores);
                for (int i = 0; i < b; i++) {
                    double s = scored[i];
                    if (Double.isNaN(s)) {
                        throw new io.dpaudit.core.InvalidInputException("mechanism", "(these parameters)",
                                "the attack's score is NaN in world " + world.symbol() + " (" + scorer.description()
                                + "): the outputs or their likelihood ratio leave double precision (a noise scale "
                                + "so small that 1/sigma^2 overflows, or a mechanism that returns NaN); refused");
                    }
                    if (Double.isFinite(s)) {
                        min = Math.min(min, s);
                        max = Math.max(max, s);
                        if (seen != null) {
                            seen[kept++] = s;
                        }
                    }
                }
            }
            done += b;
        }
        double warm = (System.nanoTime() - warmStart) / 1e9 / Math.max(1, trials - warmFrom);
        if (min > max) {
            throw new io.dpaudit.core.InvalidInputException("mechanism", "(these parameters)", "the attack ("
                    + scorer.description() + ") produced no finite score: every output's likelihood ratio is infinite "
                    + "at these parameters (no noise to speak of); refused");
        }
        if (exact != null) {
            if (min < 0 || max > ranks.length - 1) {
                throw new IllegalStateException("attack " + scorer.description() + " produced a rank outside [0, "
                        + (ranks.length - 1) + "]");
            }
            return new Result(exact, scorer, warm);
        }
        if (seen != null) {
            double[] values = distinct(seen, kept);
            if (values != null && values.length >= 2) {
                RankedScorer ranked = new RankedScorer(scorer, values);
                return new Result(HistogramBinning.ranks(values), ranked, warm);
            }
        }
        return new Result(HistogramBinning.fromPilot(min, max, bins), scorer, warm);
    }

    /** The distinct values of {@code a[0, n)}, ascending, or null when there are more than the limit. */
    private static double[] distinct(double[] a, int n) {
        double[] s = java.util.Arrays.copyOf(a, n);
        java.util.Arrays.sort(s);
        int k = 0;
        for (int i = 0; i < n; i++) {
            if (k == 0 || s[i] != s[k - 1]) {
                if (k == MAX_DISCOVERED_VALUES) {
                    return null;
                }
                s[k++] = s[i];
            }
        }
        return java.util.Arrays.copyOf(s, k);
    }
}

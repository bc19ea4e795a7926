package io.dpaudit.runner.scores;

import io.dpaudit.core.Checks;
import io.dpaudit.core.InvalidInputException;
import io.dpaudit.core.engine.ProgressListener;
import io.dpaudit.core.estimate.onerun.GuessSides;
import io.dpaudit.core.estimate.onerun.OneRunBound;
import io.dpaudit.core.estimate.onerun.OneRunFdpBound;
import io.dpaudit.core.fdp.TradeOffConversions;
import io.dpaudit.core.numerics.IndexSort;
import io.dpaudit.core.numerics.LogSpace;
import io.dpaudit.core.rng.RandomStreams;
import io.dpaudit.mechanisms.onerun.CanaryScores;
import io.dpaudit.mechanisms.onerun.OneRunDpSgd;
import io.dpaudit.mechanisms.onerun.ReducedOneRunSimulator;
import java.io.IOException;
import java.security.MessageDigest;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import org.apache.commons.rng.UniformRandomProvider;

/**
 * Auditing from one training run (Steinke, Nasr &amp; Jagielski 2023; {@link OneRunBound}): the scores of the canaries
 * that were included in training ({@code --with}) and of those that were not ({@code --without}), one score per canary,
 * all from the same trained model. The auditor guesses "included" for the {@code k} canaries with the highest scores
 * (the lowest with {@code --direction lower}), ties broken by a uniform random order drawn from the seed (never by the
 * labels), for each {@code k} of a grid fixed by {@code m} alone — {@code k = ceil(m / 2^j)}, {@code j = 1, 2, ...}, down
 * to 1 — and each guess count is tested at level {@code (1 - confidence) / G} ({@code G} the grid's size; Bonferroni),
 * so that the largest ε lower bound over the grid holds with the stated confidence.
 *
 * <p>The same guesses are also tested against f-DP claims ({@link OneRunFdpBound}; Mahloujifar, Melis &amp; Chaudhuri
 * 2024): the largest μ refuted for μ-GDP, and per δ the largest ε refuted through the trade-off function of
 * (ε, δ)-DP (no Gaussian assumption) and the ε of the refuted μ-GDP (which assumes the run's trade-off curve is
 * Gaussian). Each figure holds with the stated confidence on its own, over the same Bonferroni grid.
 *
 * <p>What the bound assumes, and the user must ensure: every canary was included independently with probability 1/2
 * (the labels are that coin), the rest of the training data did not depend on the coins, and the scores are a function
 * of the trained model. The first is checked where the data can refute it: a split of included and excluded canaries
 * that the coins would give with probability below {@value #IMPLAUSIBLE_SPLIT} is refused. With {@link
 * GuessSides#TWO_SIDED} the auditor also guesses "excluded": for each {@code k} of the grid {@code k = ceil(m / 2^j)},
 * {@code j = 0, 1, ...}, "included" for the {@code ceil(k/2)} highest scores and "excluded" for the {@code floor(k/2)}
 * lowest (the same seeded order), and a right guess is either kind; both bounds hold for such guesses (Steinke et al.'s
 * Theorem 3.1 as stated; the f-DP bound with its two-sided normalisation, {@link OneRunFdpBound}). Memory: all scores
 * are held ({@value #MAX_CANARIES} canaries at most).
 */
public final class OneRunAudit {
    /** Most canaries read. */
    public static final int MAX_CANARIES = 20_000_000;

    private OneRunAudit() {
    }

    /** One file's facts. */
    public record Input(String name, long bytes, String sha256, int scores) {
    }

    /**
     * The bound at one δ.
     *
     * @param delta the δ of the hypothesis
     * @param epsilon the ε lower bound (0 when nothing is rejected)
     * @param guesses the guess count {@code k} that gave it
     * @param correct how many of those guesses were right
     */
    public record Bound(double delta, double epsilon, long guesses, long correct) {
    }

    /**
     * What was found.
     *
     * @param included the file of the included canaries
     * @param excluded the file of the others
     * @param guessCounts the grid of {@code k}
     * @param level the level of each test, {@code (1 - confidence) / G}
     * @param bounds one per δ, in the order asked (Steinke et al.)
     * @param fdp the f-DP bounds of the same guesses
     * @param sides which guesses were made
     */
    public record Outcome(Input included, Input excluded, long[] guessCounts, double level, List<Bound> bounds,
            FdpBounds fdp, GuessSides sides) {
        /** Canaries in all. */
        public long canaries() {
            return (long) included.scores() + excluded.scores();
        }
    }

    /**
     * Reads both files and computes the bounds.
     *
     * @param lowerMeansIncluded true when a low score points to inclusion
     * @param deltas the δ values, each in [0, 1)
     */
    public static Outcome run(ScoreFile included, ScoreFile excluded, boolean lowerMeansIncluded, double confidence,
            List<Double> deltas, long seed, GuessSides sides, ProgressListener progress) {
        Checks.confidence("--confidence", confidence);
        double[][] in = new double[1][];
        double[][] out = new double[1][];
        Input a = read(included, lowerMeansIncluded, in, progress);
        Input b = read(excluded, lowerMeansIncluded, out, progress);
        int m = in[0].length + out[0].length;
        if (m > MAX_CANARIES) {
            throw new InvalidInputException("--with, --without", m + " canaries", "at most " + MAX_CANARIES
                    + " for --one-run");
        }
        checkCoinFlipSplit(in[0].length, m);
        Guesses g = bounds(in[0], out[0], confidence, deltas, seed, sides, progress);
        return new Outcome(a, b, g.guessCounts(), g.level(), g.bounds(), g.fdp(), sides);
    }

    /** Below this two-sided probability the split of included and excluded canaries refutes the coins of 1/2. */
    static final double IMPLAUSIBLE_SPLIT = 1e-6;

    /**
     * Refuses a split of the canaries that their coins of 1/2 would produce with two-sided probability below
     * {@value #IMPLAUSIBLE_SPLIT} (Binomial(m, 1/2)): the bound assumes those coins, and without them it is void. With
     * 500 of 501 included, guessing "included" for every canary is right 99.8% of the time from no information, and
     * the audit printed eps >= 3.8 at delta = 1e-5. An honest run is refused with probability below 1e-6.
     */
    static void checkCoinFlipSplit(int included, int m) {
        int fewer = Math.min(included, m - included);
        // log P(B <= fewer), B ~ Binomial(m, 1/2), summed down from fewer: below the mean each term is at most
        // fewer / (m - fewer + 1) < 1 times the one above it, so the sum stops once the terms are negligible.
        org.apache.commons.math3.distribution.BinomialDistribution b =
                new org.apache.commons.math3.distribution.BinomialDistribution(null, m, 0.5);
        double logTail = Double.NEGATIVE_INFINITY;
        for (int t = fewer; t >= 0; t--) {
            double term = b.logProbability(t);
            logTail = LogSpace.add(logTail, term);
            if (term < logTail - 40) {
                break;
            }
        }
        double log10P = Math.min(0.0, (logTail + Math.log(2)) / Math.log(10));
        if (log10P < Math.log10(IMPLAUSIBLE_SPLIT)) {
            double exponent = Math.floor(log10P);
            double mantissa = Math.pow(10, log10P - exponent);
            if (mantissa >= 9.95) {
                mantissa /= 10;
                exponent += 1;
            }
            throw new InvalidInputException("--with, --without", included + " of " + m + " canaries included",
                    String.format(java.util.Locale.ROOT, "a split this uneven has probability %.1fe%d if each canary "
                            + "was included independently with probability 1/2, as the one-run bound assumes; without "
                            + "those coins it is void. Give the scores of every canary, included or not",
                            mantissa, (long) exponent));
        }
    }

    /**
     * The guesses and their bounds.
     *
     * @param guessCounts the grid of {@code k}
     * @param level the level of each test, {@code (1 - confidence) / G}
     * @param bounds one per δ, in the order asked (Steinke et al.)
     * @param fdp the f-DP bounds of the same guesses
     */
    public record Guesses(long[] guessCounts, double level, List<Bound> bounds, FdpBounds fdp) {
    }

    /**
     * The μ-GDP bound: μ'-GDP is refuted for every {@code mu' <= mu}.
     *
     * @param mu the μ lower bound (0 when nothing is refuted)
     * @param guesses the guess count {@code k} that gave it
     * @param correct how many of those guesses were right
     */
    public record MuBound(double mu, long guesses, long correct) {
    }

    /**
     * What the guesses refute of f-DP claims ({@link OneRunFdpBound}).
     *
     * @param mu the μ-GDP bound
     * @param epsilon per δ, the ε refuted through the (ε, δ) trade-off function
     * @param epsilonIfGaussian per δ, {@code eps(mu; delta)} of μ-GDP at the μ bound (rounded down): an ε lower bound
     *     only if the run's trade-off curve is Gaussian
     */
    public record FdpBounds(MuBound mu, List<Bound> epsilon, List<Bound> epsilonIfGaussian) {
    }

    /**
     * The bounds from scores in memory (higher means included): what {@link #run} computes once it has read the
     * files, for simulated runs (e.g. {@code io.dpaudit.mechanisms.onerun}).
     *
     * @param included scores of the included canaries
     * @param excluded scores of the others
     * @param seed the root seed of the tie-breaking order
     */
    public static Guesses bounds(double[] included, double[] excluded, double confidence, List<Double> deltas,
            long seed, ProgressListener progress) {
        return bounds(included, excluded, confidence, deltas, seed, GuessSides.ONE_SIDED, progress);
    }

    /**
     * The bounds from scores in memory with guesses of {@code sides}.
     *
     * @param included scores of the included canaries
     * @param excluded scores of the others
     * @param seed the root seed of the tie-breaking order
     */
    public static Guesses bounds(double[] included, double[] excluded, double confidence, List<Double> deltas,
            long seed, GuessSides sides, ProgressListener progress) {
        Checks.confidence("confidence", confidence);
        int m = included.length + excluded.length;
        if (m > MAX_CANARIES || m < 1) {
            throw new InvalidInputException("canaries", m, "must be in [1, " + MAX_CANARIES + "]");
        }
        // Every canary's score and label, ordered by score (descending) with a seeded random key breaking ties.
        UniformRandomProvider rng = new RandomStreams(seed).next();
        double[] scores = new double[m];
        for (int i = 0; i < m; i++) {
            scores[i] = i < included.length ? included[i] : excluded[i - included.length];
        }
        int[] index = sortedIndices(scores, rng);
        long[] cumulativeIncluded = new long[m + 1];
        for (int r = 0; r < m; r++) {
            cumulativeIncluded[r + 1] = cumulativeIncluded[r] + (index[r] < included.length ? 1 : 0);
        }
        long[] grid = sides == GuessSides.ONE_SIDED ? guessCounts(m) : twoSidedGuessCounts(m);
        long[] correct = new long[grid.length];
        for (int g = 0; g < grid.length; g++) {
            correct[g] = correctGuesses(grid[g], sides, cumulativeIncluded);
        }
        double level = (1 - confidence) / grid.length;
        List<Bound> bounds = new ArrayList<>();
        for (double delta : deltas) {
            bounds.add(bestOverGrid(delta, grid, correct, "one-run bound", progress,
                    (k, v) -> OneRunBound.epsilonLowerBound(m, k, v, delta, level)));
        }
        return new Guesses(grid, level, bounds, fdpBounds(m, grid, correct, level, deltas, sides, progress));
    }

    /**
     * Right guesses among {@code k}: one-sided, the included among the {@code k} first in score order; two-sided, the
     * included among the {@code ceil(k/2)} first plus the excluded among the {@code floor(k/2)} last.
     */
    static long correctGuesses(long k, GuessSides sides, long[] cumulativeIncluded) {
        if (sides == GuessSides.ONE_SIDED) {
            return cumulativeIncluded[(int) k];
        }
        int m = cumulativeIncluded.length - 1;
        int top = (int) ((k + 1) / 2);
        int bottom = (int) (k / 2);
        long includedInBottom = cumulativeIncluded[m] - cumulativeIncluded[m - bottom];
        return cumulativeIncluded[top] + (bottom - includedInBottom);
    }

    /** A bound from {@code k} guesses of which {@code v} are right. */
    private interface GuessBound {
        double of(long k, long v);
    }

    /** The largest of {@code bound} over the grid of guess counts, with the {@code k} and {@code v} that gave it. */
    private static Bound bestOverGrid(double delta, long[] grid, long[] correct, String what,
            ProgressListener progress, GuessBound bound) {
        Bound best = new Bound(delta, 0.0, 0, 0);
        for (int g = 0; g < grid.length; g++) {
            long k = grid[g];
            progress.check(what + ", delta " + delta + ", " + k + " guesses");
            long v = correct[g];
            double e = bound.of(k, v);
            if (e > best.epsilon()) {
                best = new Bound(delta, e, k, v);
            }
        }
        return best;
    }

    private static FdpBounds fdpBounds(int m, long[] grid, long[] correct, double level,
            List<Double> deltas, GuessSides sides, ProgressListener progress) {
        Bound gdp = bestOverGrid(Double.NaN, grid, correct, "one-run f-DP bound (mu)", progress,
                (k, v) -> OneRunFdpBound.gdpMuLowerBound(m, k, v, level, sides));
        MuBound mu = new MuBound(gdp.epsilon(), gdp.guesses(), gdp.correct());
        List<Bound> epsilon = new ArrayList<>();
        List<Bound> ifGaussian = new ArrayList<>();
        for (double delta : deltas) {
            epsilon.add(bestOverGrid(delta, grid, correct, "one-run f-DP bound", progress,
                    (k, v) -> OneRunFdpBound.epsilonLowerBound(m, k, v, delta, level, sides)));
            ifGaussian.add(new Bound(delta, epsilonOfGdp(mu.mu(), delta), mu.guesses(), mu.correct()));
        }
        return new FdpBounds(mu, epsilon, ifGaussian);
    }

    /**
     * {@code eps(mu; delta)} of μ-GDP, rounded down (a lower bound when μ is); 0 for μ = 0 or δ = 0 with μ > 0 is
     * infinite and reported as {@link OneRunFdpBound#MAX_EPSILON}.
     */
    static double epsilonOfGdp(double mu, double delta) {
        if (mu <= 0) {
            return 0.0;
        }
        if (delta <= 0) {
            return OneRunFdpBound.MAX_EPSILON;
        }
        double e = TradeOffConversions.epsilonForMu(mu, delta);
        return Math.min(OneRunFdpBound.MAX_EPSILON, e * (1 - 1e-9));
    }

    /**
     * The bounds from one simulated DP-SGD run ({@link ReducedOneRunSimulator}, stream 0 of {@code seed}; ties broken
     * from the same seed).
     */
    public static Guesses ofSimulatedRun(OneRunDpSgd setting, long seed, double confidence, List<Double> deltas) {
        return ofSimulatedRun(setting, seed, confidence, deltas, GuessSides.ONE_SIDED);
    }

    /** {@link #ofSimulatedRun(OneRunDpSgd, long, double, List)} with guesses of {@code sides}. */
    public static Guesses ofSimulatedRun(OneRunDpSgd setting, long seed, double confidence, List<Double> deltas,
            GuessSides sides) {
        CanaryScores run = ReducedOneRunSimulator.run(setting, new RandomStreams(seed).next());
        return bounds(run.included(), run.excluded(), confidence, deltas, seed, sides, ProgressListener.NONE);
    }

    /** {@code ceil(m / 2^j)} for {@code j = 1, 2, ...} down to 1, distinct, descending. */
    static long[] guessCounts(long m) {
        return halvings(m, 2);
    }

    /** {@code ceil(m / 2^j)} for {@code j = 0, 1, ...} down to 1, distinct, descending: two-sided guesses may cover all. */
    static long[] twoSidedGuessCounts(long m) {
        return halvings(m, 1);
    }

    private static long[] halvings(long m, long firstDivisor) {
        List<Long> ks = new ArrayList<>();
        for (long d = firstDivisor; ; d *= 2) {
            long k = (m + d - 1) / d;
            if (ks.isEmpty() || ks.get(ks.size() - 1) != k) {
                ks.add(k);
            }
            if (k <= 1) {
                break;
            }
        }
        return ks.stream().mapToLong(Long::longValue).toArray();
    }

    /**
     * Indices of {@code scores} by descending score, ties in a uniformly random order: a seeded uniform permutation
     * (Fisher–Yates), then the stable index sort of the permuted scores.
     */
    static int[] sortedIndices(double[] scores, UniformRandomProvider rng) {
        int m = scores.length;
        int[] perm = new int[m];
        for (int i = 0; i < m; i++) {
            perm[i] = i;
        }
        for (int i = m - 1; i > 0; i--) {
            int j = rng.nextInt(i + 1);
            int t = perm[i];
            perm[i] = perm[j];
            perm[j] = t;
        }
        double[] keys = new double[m];
        for (int i = 0; i < m; i++) {
            keys[i] = scores[perm[i]];
        }
        int[] order = IndexSort.descending(keys);
        for (int i = 0; i < m; i++) {
            order[i] = perm[order[i]];
        }
        return order;
    }

    private static Input read(ScoreFile f, boolean negate, double[][] into, ProgressListener progress) {
        MessageDigest digest = ScoreFile.sha256();
        double[] values = new double[1024];
        int n = 0;
        try (ScoreReader r = f.open(digest)) {
            while (f.next(r)) {
                if (n == values.length) {
                    if (n >= MAX_CANARIES) {
                        throw new InvalidInputException(f.option(), f.name(), "holds more than " + MAX_CANARIES
                                + " scores, the most --one-run reads");
                    }
                    values = Arrays.copyOf(values, (int) Math.min((long) n * 2, MAX_CANARIES));
                }
                values[n++] = negate ? -r.value() : r.value();
                if ((n & ((1 << 22) - 1)) == 0) {
                    progress.check("reading " + f.name() + ", score " + n);
                }
            }
        } catch (IOException e) {
            throw new InvalidInputException(f.name(), "(read error)", e.getMessage());
        }
        if (n == 0) {
            throw new InvalidInputException(f.option(), f.name(), "holds no scores");
        }
        into[0] = Arrays.copyOf(values, n);
        return new Input(f.name(), f.size(), ScoreFile.hex(digest.digest()), n);
    }

}

package io.dpaudit.attacks;

import io.dpaudit.core.engine.LossBracket;
import io.dpaudit.core.engine.Scorer;
import io.dpaudit.core.law.DiscreteLaw;
import io.dpaudit.core.law.GaussianMixture;
import io.dpaudit.core.model.LinearStatistic;
import io.dpaudit.core.model.OutputModel;
import java.util.Locale;

/**
 * The likelihood-ratio (Neyman–Pearson optimal) distinguisher: the score of an output is
 * {@code sum_t L(s_t)}, the sum over rounds of the log-likelihood ratio {@code log p_D(s_t) - log p_D'(s_t)} of the
 * round's sufficient statistic {@code s_t} (the projection of the round's output onto the model's basis). Since the
 * rounds are independent, this is the exact log-likelihood ratio of the whole output, so thresholding it gives the
 * most powerful tests of {@code D} against {@code D'} (and its lower tail those of {@code D'} against {@code D}).
 *
 * <p>Implementations, chosen at construction from the laws and the statistic:
 * <ul>
 *   <li>Gaussian mixtures on a linear statistic:
 *     <ul>
 *       <li><b>order-equivalent statistic</b> — one round, output = statistic, {@code L} non-decreasing (as for every
 *           subsampled Gaussian here): the score is {@code s} itself. Every threshold set of {@code L} is a threshold
 *           set of {@code s}, so the estimator sees the same tests, and no {@code exp}/{@code log} is spent per
 *           trial;</li>
 *       <li><b>tabulated</b> — one-dimensional statistic, several rounds or a projection: {@code L} from a
 *           {@link TabulatedLogRatio};</li>
 *       <li><b>shifted mixture</b> — two-dimensional statistics of that form ({@link ShiftedMixtureScorer});</li>
 *       <li><b>exact</b> — other multi-dimensional statistics: log-sum-exp of the mixture densities per round.</li>
 *     </ul></li>
 *   <li>discrete laws: a table of {@code L} per atom, scores as exact ranks ({@link DiscreteLogRatioScorer});</li>
 *   <li>any other pair of laws: {@code L} from their log densities, per round ({@link GenericScorer}).</li>
 * </ul>
 */
public final class LikelihoodRatioAttack {
    /** Catalog name. */
    public static final String NAME = "likelihood-ratio";

    private LikelihoodRatioAttack() {
    }

    /** The scorer for outputs described by {@code model}. */
    public static Scorer of(OutputModel model) {
        LinearStatistic linear = model.linearStatistic();
        if (linear != null && model.withCanary() instanceof GaussianMixture with
                && model.withoutCanary() instanceof GaussianMixture without) {
            if (model.statisticDimension() == 1 && TabulatedLogRatio.fits(with, without)) {
                TabulatedLogRatio table = new TabulatedLogRatio(with, without);
                if (model.rounds() == 1 && linear.isIdentity() && table.nonDecreasing()) {
                    return new OrderEquivalentScorer(model, table);
                }
                return new TabulatedScorer(model, linear, table);
            }
            ShiftedMixtureScorer separable = ShiftedMixtureScorer.tryOf(model, linear, with, without);
            return separable != null ? separable : new ExactScorer(model, linear, with, without);
        }
        if (model.withCanary() instanceof DiscreteLaw with && model.withoutCanary() instanceof DiscreteLaw without) {
            return DiscreteLogRatioScorer.of(model, with, without);
        }
        return new GenericScorer(model);
    }

    /**
     * The scorer for a privacy-loss estimate: one whose scores bracket the exact log-likelihood ratio
     * ({@link Scorer#lossBracket()} is not null). Every scorer of this attack does, the tabulated ones with a proven
     * interpolation error; the shifted-mixture tables are rebuilt finer, to a proven error of at most
     * {@value #ESTIMATE_TABLE_ERROR} per round where the table stays below 2^22 cells (the attack's own spacing
     * proves only about 1e-3 when the side information spans tens of noise deviations).
     */
    public static Scorer lossScorer(OutputModel model) {
        Scorer s = of(model);
        if (s instanceof ShiftedMixtureScorer) {
            ShiftedMixtureScorer fine = ShiftedMixtureScorer.tryOf(model, model.linearStatistic(),
                    (GaussianMixture) model.withCanary(), (GaussianMixture) model.withoutCanary(),
                    ESTIMATE_TABLE_ERROR);
            return fine != null ? fine : s;
        }
        return s;
    }

    /** Target per-round interpolation error of the shifted-mixture tables of a privacy-loss estimate. */
    static final double ESTIMATE_TABLE_ERROR = 1e-5;

    /** Per-round floating-point slack of an exact log-likelihood ratio (differences of log-sum-exps). */
    static final double ROUND_SLACK = 1e-9;
    /** Relative floating-point slack of a sum of per-round ratios. */
    static final double RELATIVE_SLACK = 1e-12;

    /** Score = the statistic itself (one round; {@code L} non-decreasing). */
    static final class OrderEquivalentScorer implements Scorer {
        private final int length;
        private final TabulatedLogRatio exact;

        OrderEquivalentScorer(OutputModel model, TabulatedLogRatio exact) {
            this.length = model.outputLength();
            this.exact = exact;
        }

        /** The statistic maps to {@code L} by the exact, non-decreasing per-round ratio, plus rounding slack. */
        @Override
        public LossBracket lossBracket() {
            LossBracket slack = LossBracket.within(ROUND_SLACK, RELATIVE_SLACK);
            return new LossBracket() {
                @Override
                public double lower(double score) {
                    return Double.isInfinite(score) ? score : slack.lower(exact.exact(new double[] {score}, 0));
                }

                @Override
                public double upper(double score) {
                    return Double.isInfinite(score) ? score : slack.upper(exact.exact(new double[] {score}, 0));
                }

                @Override
                public String description() {
                    return "score = the statistic, L its exact non-decreasing function (within " + ROUND_SLACK + ")";
                }
            };
        }

        @Override
        public int outputLength() {
            return length;
        }

        @Override
        public double[] score(double[] outputs, int trials, double[] scratch) {
            return outputs;
        }

        @Override
        public String description() {
            return NAME + ": exact LLR via the order-equivalent statistic (LLR is non-decreasing in it)";
        }
    }

    /** Sum over rounds of the tabulated per-round LLR of the projected statistic. */
    static final class TabulatedScorer implements Scorer {
        private final TabulatedLogRatio table;
        private final int rounds;
        private final int roundDimension;
        private final double[] direction;
        private final boolean identity;
        private final int flag;

        TabulatedScorer(OutputModel model, LinearStatistic statistic, TabulatedLogRatio table) {
            this.table = table;
            this.rounds = model.rounds();
            this.roundDimension = model.roundDimension();
            this.direction = statistic.basisRow(0);
            this.identity = statistic.isIdentity();
            this.flag = statistic.flagIndex();
        }

        @Override
        public int outputLength() {
            return rounds * roundDimension;
        }

        @Override
        public double[] score(double[] outputs, int trials, double[] scores) {
            if (identity) {
                for (int i = 0; i < trials; i++) {
                    double sum = 0;
                    int base = i * rounds;
                    for (int t = 0; t < rounds; t++) {
                        sum += table.value(outputs[base + t]);
                    }
                    scores[i] = sum;
                }
            } else {
                int m = roundDimension;
                for (int i = 0; i < trials; i++) {
                    double sum = 0;
                    for (int t = 0; t < rounds; t++) {
                        int base = (i * rounds + t) * m;
                        if (flag >= 0 && outputs[base + flag] == 0) {
                            continue; // the revealed event did not happen: no information in this round
                        }
                        double y = 0;
                        for (int j = 0; j < m; j++) {
                            y += outputs[base + j] * direction[j];
                        }
                        sum += table.value(y);
                    }
                    scores[i] = sum;
                }
            }
            return scores;
        }

        /** Each round's tabulated ratio is within the table's proven interpolation error of the exact one. */
        @Override
        public LossBracket lossBracket() {
            return LossBracket.within(rounds * (table.interpolationErrorBound() + ROUND_SLACK), RELATIVE_SLACK);
        }

        @Override
        public String description() {
            return String.format(Locale.ROOT,
                    "%s: sum over %d round(s) of the per-round LLR (tabulated, max interpolation error %.1e)%s",
                    NAME, rounds, table.maxInterpolationError(), identity ? "" : " of the canary projection");
        }
    }

    /** Exact per-round LLR for multi-dimensional statistics with Gaussian-mixture laws. */
    static final class ExactScorer implements Scorer {
        private final OutputModel model;
        private final int k;
        private final int m;
        private final double[][] basis;
        private final int flag;
        private final GaussianMixture with;
        private final GaussianMixture without;

        ExactScorer(OutputModel model, LinearStatistic statistic, GaussianMixture with, GaussianMixture without) {
            this.model = model;
            this.k = model.statisticDimension();
            this.m = model.roundDimension();
            this.basis = new double[k][];
            for (int i = 0; i < k; i++) {
                basis[i] = statistic.basisRow(i);
            }
            this.flag = statistic.flagIndex();
            this.with = with;
            this.without = without;
        }

        @Override
        public int outputLength() {
            return model.outputLength();
        }

        @Override
        public double[] score(double[] outputs, int trials, double[] scores) {
            double[] s = new double[k]; // one scratch array per batch, none per trial
            for (int i = 0; i < trials; i++) {
                double sum = 0;
                for (int t = 0; t < model.rounds(); t++) {
                    int base = (i * model.rounds() + t) * m;
                    if (flag >= 0 && outputs[base + flag] == 0) {
                        continue;
                    }
                    for (int a = 0; a < k; a++) {
                        double y = 0;
                        for (int j = 0; j < m; j++) {
                            y += outputs[base + j] * basis[a][j];
                        }
                        s[a] = y;
                    }
                    sum += with.logDensityUnnormalized(s, 0) - without.logDensityUnnormalized(s, 0);
                }
                scores[i] = sum;
            }
            return scores;
        }

        @Override
        public LossBracket lossBracket() {
            return LossBracket.within(model.rounds() * ROUND_SLACK, RELATIVE_SLACK);
        }

        @Override
        public String description() {
            return NAME + ": exact LLR of a " + k + "-dimensional statistic, summed over " + model.rounds()
                    + " round(s)";
        }
    }
}

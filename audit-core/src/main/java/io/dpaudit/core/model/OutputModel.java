package io.dpaudit.core.model;

import io.dpaudit.core.law.DiscreteLaw;
import io.dpaudit.core.law.GaussianMixture;
import io.dpaudit.core.law.StatisticLaw;

/**
 * What an attack may know about a simulator's outputs: their layout and the exact law of a sufficient statistic.
 *
 * <p>An output is {@code rounds} consecutive blocks of {@code statistic.roundDimension()} doubles. The statistic of
 * a round is read off its block by {@code statistic}; under the simulated neighbouring pair the statistics of the
 * rounds are independent, distributed as {@code withCanary} in {@code D} and as {@code withoutCanary} in {@code D'},
 * and the rest of the output is independent of the world given them. The exact likelihood-ratio attack therefore needs
 * only the statistics: its score is {@code sum_t [withCanary.logDensity(s_t) - withoutCanary.logDensity(s_t)]} over
 * the rounds that carry information.
 *
 * <p>{@code canaryDirection} is the canary's own direction within a block, as an attacker who knows the canary but not
 * the mechanism's post-processing would use it (a unit vector): the first basis row of a linear statistic unless the
 * mechanism transforms its output (e.g. Laplacian smoothing), in which case the sufficient statistic and the naive
 * "dot product with the canary" part ways. It is {@code null} for mechanisms whose outputs are not vectors along a
 * canary (reports of a local randomizer, for instance); the projection attack then does not apply.
 *
 * @param rounds number of rounds T
 * @param statistic how a round's statistic is read off its block
 * @param withCanary law of the per-round statistic in {@code D}
 * @param withoutCanary law of the per-round statistic in {@code D'}
 * @param canaryDirection the canary's direction in a block, length {@code roundDimension()}, or null
 */
public record OutputModel(int rounds, RoundStatistic statistic, StatisticLaw withCanary,
        StatisticLaw withoutCanary, double[] canaryDirection) {

    public OutputModel {
        if (rounds < 1) {
            throw new IllegalArgumentException("rounds must be >= 1");
        }
        int k = statistic.dimension();
        if (withCanary.dimension() != k || withoutCanary.dimension() != k) {
            throw new IllegalArgumentException("statistic dimension mismatch");
        }
        if (withCanary instanceof GaussianMixture a && withoutCanary instanceof GaussianMixture b
                && a.sd() != b.sd()) {
            throw new IllegalArgumentException("both worlds must share the noise standard deviation");
        }
        if (canaryDirection != null) {
            if (canaryDirection.length != statistic.roundDimension()) {
                throw new IllegalArgumentException("the canary direction must have length "
                        + statistic.roundDimension());
            }
            canaryDirection = canaryDirection.clone();
        }
    }

    /**
     * A model whose statistic is a linear projection of each block (see {@link LinearStatistic}).
     *
     * @param canaryDirection the canary's direction, or null for the first basis row
     */
    public static OutputModel linear(int rounds, int roundDimension, double[][] basis, StatisticLaw withCanary,
            StatisticLaw withoutCanary, int flagIndex, double[] canaryDirection) {
        LinearStatistic s = new LinearStatistic(roundDimension, basis, flagIndex);
        return new OutputModel(rounds, s, withCanary, withoutCanary,
                canaryDirection != null ? canaryDirection : s.basisRow(0));
    }

    /** Model of a simulator whose output per round is a continuous statistic itself (identity basis). */
    public static OutputModel ofStatistic(int rounds, GaussianMixture withCanary, GaussianMixture withoutCanary) {
        LinearStatistic s = LinearStatistic.identity(withCanary.dimension());
        return new OutputModel(rounds, s, withCanary, withoutCanary, s.basisRow(0));
    }

    /** Model of a simulator whose output per round is the index of a discrete statistic's atom. */
    public static OutputModel ofAtoms(int rounds, DiscreteLaw withCanary, DiscreteLaw withoutCanary) {
        return new OutputModel(rounds, LinearStatistic.identity(1), withCanary, withoutCanary, null);
    }

    /** Dimension {@code k} of the per-round statistic. */
    public int statisticDimension() {
        return statistic.dimension();
    }

    /** Doubles per round. */
    public int roundDimension() {
        return statistic.roundDimension();
    }

    /** Total output length: {@code rounds x roundDimension}. */
    public int outputLength() {
        return rounds * roundDimension();
    }

    /** The statistic as a linear projection, or null when it is not one. */
    public LinearStatistic linearStatistic() {
        return statistic instanceof LinearStatistic l ? l : null;
    }

    /** The canary's direction in a block (a copy), or null when the mechanism has none. */
    @Override
    public double[] canaryDirection() {
        return canaryDirection == null ? null : canaryDirection.clone();
    }
}

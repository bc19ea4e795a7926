package io.dpaudit.attacks;

import io.dpaudit.core.engine.LossBracket;
import io.dpaudit.core.engine.Scorer;
import io.dpaudit.core.law.StatisticLaw;
import io.dpaudit.core.model.OutputModel;
import io.dpaudit.core.model.RoundStatistic;

/**
 * The exact log-likelihood ratio for any pair of laws the model states: per round, the statistic is read off the
 * block by the model's {@link RoundStatistic} and {@code L = log p_D(s) - log p_D'(s)} is taken from the laws' own
 * densities; the score is the sum over rounds. The path for laws no specialised scorer knows, so that a mechanism
 * with a law of its own needs no change here. Allocates one scratch vector per batch, none per trial.
 */
final class GenericScorer implements Scorer {
    private final int rounds;
    private final int roundDimension;
    private final RoundStatistic statistic;
    private final StatisticLaw with;
    private final StatisticLaw without;

    GenericScorer(OutputModel model) {
        this.rounds = model.rounds();
        this.roundDimension = model.roundDimension();
        this.statistic = model.statistic();
        this.with = model.withCanary();
        this.without = model.withoutCanary();
    }

    @Override
    public int outputLength() {
        return rounds * roundDimension;
    }

    @Override
    public double[] score(double[] outputs, int trials, double[] scores) {
        double[] s = new double[statistic.dimension()];
        for (int i = 0; i < trials; i++) {
            double sum = 0;
            for (int t = 0; t < rounds; t++) {
                if (statistic.extract(outputs, (i * rounds + t) * roundDimension, s)) {
                    sum += with.logRatio(without, s, 0);
                }
            }
            scores[i] = sum;
        }
        return scores;
    }

    @Override
    public LossBracket lossBracket() {
        return LossBracket.within(rounds * LikelihoodRatioAttack.ROUND_SLACK, LikelihoodRatioAttack.RELATIVE_SLACK);
    }

    @Override
    public String description() {
        return LikelihoodRatioAttack.NAME + ": exact LLR of a " + statistic.dimension()
                + "-dimensional statistic from the laws' densities, summed over " + rounds + " round(s)";
    }
}

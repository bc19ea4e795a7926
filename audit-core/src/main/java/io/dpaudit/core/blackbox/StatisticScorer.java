package io.dpaudit.core.blackbox;

import io.dpaudit.core.engine.Scorer;
import java.util.Objects;
import java.util.function.ToDoubleFunction;

/**
 * The generic threshold distinguisher: a user-chosen statistic of the output (by default its first coordinate) is the
 * score, and the estimator tests both of its tails in both orders of the pair. It knows nothing about the mechanism, so
 * its power depends on the statistic; its validity does not.
 *
 * <p>Each output is copied into a scratch array of the output's length before the statistic sees it (one array per
 * batch, not per trial), so a statistic may keep no reference to it. Scores that take few values (an index, a count)
 * are counted exactly: see {@link #mayBeDiscrete()}.
 */
public final class StatisticScorer implements Scorer {
    private final ToDoubleFunction<double[]> statistic;
    private final int outputLength;
    private final String description;
    private final boolean firstCoordinate;

    private StatisticScorer(ToDoubleFunction<double[]> statistic, int outputLength, String description,
            boolean firstCoordinate) {
        this.statistic = statistic;
        this.outputLength = outputLength;
        this.description = description;
        this.firstCoordinate = firstCoordinate;
    }

    /** The statistic {@code statistic}, described as {@code description}, on outputs of {@code outputLength}. */
    public static StatisticScorer of(ToDoubleFunction<double[]> statistic, int outputLength, String description) {
        return new StatisticScorer(Objects.requireNonNull(statistic, "statistic"), outputLength, description, false);
    }

    /** The first coordinate of the output. */
    public static StatisticScorer firstCoordinate(int outputLength) {
        return new StatisticScorer(o -> o[0], outputLength, "statistic: the output's first coordinate", true);
    }

    @Override
    public int outputLength() {
        return outputLength;
    }

    @Override
    public double[] score(double[] outputs, int trials, double[] scratch) {
        if (firstCoordinate && outputLength == 1) {
            return outputs; // the output is its own score
        }
        if (firstCoordinate) {
            for (int t = 0; t < trials; t++) {
                scratch[t] = outputs[t * outputLength];
            }
            return scratch;
        }
        double[] one = new double[outputLength];
        for (int t = 0; t < trials; t++) {
            System.arraycopy(outputs, t * outputLength, one, 0, outputLength);
            scratch[t] = statistic.applyAsDouble(one);
        }
        return scratch;
    }

    @Override
    public String description() {
        return description;
    }

    @Override
    public boolean mayBeDiscrete() {
        return true;
    }
}

package io.dpaudit.attacks;

import io.dpaudit.core.InvalidInputException;
import io.dpaudit.core.engine.Scorer;
import io.dpaudit.core.model.OutputModel;

/**
 * The canary-projection attack: the score is {@code sum_t <o_t, u>}, the projection of every round's output
 * {@code o_t} onto the canary's own direction {@code u} ({@link OutputModel#canaryDirection()}), summed over rounds.
 * It is the natural "dot product with the canary gradient" attack; for one round of a subsampled Gaussian it equals
 * the likelihood-ratio test, over several rounds it is weaker, and on a post-processed output (Laplacian smoothing)
 * that it does not undo it is weaker still.
 */
public final class ProjectionAttack implements Scorer {
    /** Catalog name. */
    public static final String NAME = "projection";

    private final int rounds;
    private final int roundDimension;
    private final double[] direction;

    private ProjectionAttack(OutputModel model, double[] direction) {
        this.rounds = model.rounds();
        this.roundDimension = model.roundDimension();
        this.direction = direction;
    }

    /**
     * The attack for outputs described by {@code model}.
     *
     * @throws InvalidInputException when the mechanism's outputs have no canary direction (e.g. reports of a local
     *     randomizer), so that a projection means nothing
     */
    public static ProjectionAttack of(OutputModel model) {
        double[] direction = model.canaryDirection();
        if (direction == null) {
            throw new InvalidInputException("attack", NAME, "does not apply: this mechanism's outputs have no canary "
                    + "direction to project on (use likelihood-ratio)");
        }
        return new ProjectionAttack(model, direction);
    }

    @Override
    public int outputLength() {
        return rounds * roundDimension;
    }

    @Override
    public double[] score(double[] outputs, int trials, double[] scores) {
        int m = roundDimension;
        int perTrial = rounds * m;
        for (int i = 0; i < trials; i++) {
            double sum = 0;
            int base = i * perTrial;
            for (int t = 0; t < rounds; t++) {
                int off = base + t * m;
                for (int j = 0; j < m; j++) {
                    sum += outputs[off + j] * direction[j];
                }
            }
            scores[i] = sum;
        }
        return scores;
    }

    @Override
    public String description() {
        return NAME + ": sum over " + rounds + " round(s) of the output's projection on the canary direction";
    }
}

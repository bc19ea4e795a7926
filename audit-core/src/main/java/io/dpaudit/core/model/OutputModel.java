package io.dpaudit.core.model;

import java.util.Arrays;

/**
 * What an attack may know about a simulator's outputs: their layout and the exact law of a sufficient statistic.
 *
 * <p>An output is {@code rounds} consecutive blocks of {@code roundDimension} doubles. The statistic of a round is
 * the projection of its block onto the {@code k} orthonormal rows of {@code basis}; under the simulated worst-case
 * pair, the statistics of the rounds are independent, distributed as {@code withCanary} in {@code D} and as
 * {@code withoutCanary} in {@code D'}, and the rest of the output is independent of the world. The exact
 * likelihood-ratio attack therefore needs only these projections.
 *
 * <p>Some mechanisms publish an event that has the same probability in both worlds and outside which the worlds do
 * not differ at all (e.g. that the canary's client took part, when participation is revealed). Its indicator is then
 * coordinate {@code flagIndex} of each block (1 or 0), the mixtures are the laws <i>given</i> the flag is 1, and a
 * round whose flag is 0 carries no information. {@code flagIndex = -1} when there is no such flag.
 *
 * @param rounds number of rounds T
 * @param roundDimension doubles per round in the output
 * @param basis {@code k x roundDimension} orthonormal rows (weight 0 on the flag coordinate)
 * @param withCanary law of the per-round statistic in {@code D} (given flag 1, if any)
 * @param withoutCanary law of the per-round statistic in {@code D'} (given flag 1, if any)
 * <p>{@code canaryDirection} is the canary's own direction within a block, as an attacker who knows the canary but
 * not the mechanism's post-processing would use it (a unit vector). It is the first basis row unless the mechanism
 * transforms its output (e.g. Laplacian smoothing), in which case the sufficient statistic and the naive
 * "dot product with the canary" part ways.
 *
 * @param flagIndex coordinate of the revealed-event flag in a block, or -1
 * @param canaryDirection the canary's direction in a block, length {@code roundDimension}
 */
public record OutputModel(int rounds, int roundDimension, double[][] basis, IsotropicGaussianMixture withCanary,
        IsotropicGaussianMixture withoutCanary, int flagIndex, double[] canaryDirection) {

    /** A model whose canary direction is the first basis row. */
    public OutputModel(int rounds, int roundDimension, double[][] basis, IsotropicGaussianMixture withCanary,
            IsotropicGaussianMixture withoutCanary, int flagIndex) {
        this(rounds, roundDimension, basis, withCanary, withoutCanary, flagIndex, basis[0]);
    }

    /** A model without a revealed-event flag. */
    public OutputModel(int rounds, int roundDimension, double[][] basis, IsotropicGaussianMixture withCanary,
            IsotropicGaussianMixture withoutCanary) {
        this(rounds, roundDimension, basis, withCanary, withoutCanary, -1);
    }

    public OutputModel {
        if (rounds < 1 || roundDimension < 1) {
            throw new IllegalArgumentException("rounds and dimension must be >= 1");
        }
        int k = withCanary.dimension();
        if (withoutCanary.dimension() != k || basis.length != k) {
            throw new IllegalArgumentException("statistic dimension mismatch");
        }
        if (withCanary.sd() != withoutCanary.sd()) {
            throw new IllegalArgumentException("both worlds must share the noise standard deviation");
        }
        for (double[] row : basis) {
            if (row.length != roundDimension) {
                throw new IllegalArgumentException("basis rows must have length " + roundDimension);
            }
            if (flagIndex >= 0 && row[flagIndex] != 0) {
                throw new IllegalArgumentException("the basis must not weigh the flag coordinate");
            }
        }
        if (flagIndex >= roundDimension) {
            throw new IllegalArgumentException("flag index " + flagIndex + " outside the block");
        }
        if (canaryDirection.length != roundDimension) {
            throw new IllegalArgumentException("the canary direction must have length " + roundDimension);
        }
        basis = Arrays.stream(basis).map(double[]::clone).toArray(double[][]::new);
        canaryDirection = canaryDirection.clone();
    }

    /** Model of a simulator whose output per round is the statistic itself (identity basis). */
    public static OutputModel ofStatistic(int rounds, IsotropicGaussianMixture withCanary,
            IsotropicGaussianMixture withoutCanary) {
        int k = withCanary.dimension();
        double[][] identity = new double[k][k];
        for (int i = 0; i < k; i++) {
            identity[i][i] = 1.0;
        }
        return new OutputModel(rounds, k, identity, withCanary, withoutCanary);
    }

    /** Dimension {@code k} of the per-round statistic. */
    public int statisticDimension() {
        return basis.length;
    }

    /** Total output length: {@code rounds x roundDimension}. */
    public int outputLength() {
        return rounds * roundDimension;
    }

    /** Whether the basis is the identity (the output is the statistic itself). */
    public boolean statisticIsOutput() {
        if (flagIndex >= 0 || basis.length != roundDimension) {
            return false;
        }
        for (int i = 0; i < basis.length; i++) {
            for (int j = 0; j < roundDimension; j++) {
                if (basis[i][j] != (i == j ? 1.0 : 0.0)) {
                    return false;
                }
            }
        }
        return true;
    }

    /** Row {@code i} of the basis (a copy). */
    public double[] basisRow(int i) {
        return basis[i].clone();
    }

    /** The canary's direction in a block (a copy). */
    @Override
    public double[] canaryDirection() {
        return canaryDirection.clone();
    }
}

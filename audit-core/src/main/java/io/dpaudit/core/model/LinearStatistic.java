package io.dpaudit.core.model;

import java.util.Arrays;

/**
 * A statistic that is a linear projection of the round block: {@code s_a = <block, basis_a>} for {@code k}
 * orthonormal rows. Optionally coordinate {@code flagIndex} of the block publishes an event that has the same
 * probability in both worlds and outside which the worlds do not differ at all (e.g. that the canary's client took
 * part, when participation is revealed): a round whose flag is 0 then carries no information, and the statistic's
 * laws are the laws <i>given</i> flag 1. {@code flagIndex = -1} when there is no such flag.
 */
public final class LinearStatistic implements RoundStatistic {
    private final int roundDimension;
    private final double[][] basis;
    private final int flagIndex;

    /**
     * @param roundDimension doubles per round
     * @param basis {@code k x roundDimension} orthonormal rows (weight 0 on the flag coordinate)
     * @param flagIndex coordinate of the revealed-event flag, or -1
     */
    public LinearStatistic(int roundDimension, double[][] basis, int flagIndex) {
        if (roundDimension < 1 || basis.length == 0) {
            throw new IllegalArgumentException("need a round dimension >= 1 and at least one basis row");
        }
        if (flagIndex >= roundDimension) {
            throw new IllegalArgumentException("flag index " + flagIndex + " outside the block");
        }
        for (double[] row : basis) {
            if (row.length != roundDimension) {
                throw new IllegalArgumentException("basis rows must have length " + roundDimension);
            }
            if (flagIndex >= 0 && row[flagIndex] != 0) {
                throw new IllegalArgumentException("the basis must not weigh the flag coordinate");
            }
        }
        this.roundDimension = roundDimension;
        this.basis = Arrays.stream(basis).map(double[]::clone).toArray(double[][]::new);
        this.flagIndex = flagIndex;
    }

    /** The identity statistic of dimension {@code k}: the block is the statistic. */
    public static LinearStatistic identity(int k) {
        double[][] id = new double[k][k];
        for (int i = 0; i < k; i++) {
            id[i][i] = 1.0;
        }
        return new LinearStatistic(k, id, -1);
    }

    @Override
    public int dimension() {
        return basis.length;
    }

    @Override
    public int roundDimension() {
        return roundDimension;
    }

    @Override
    public boolean revealsFlag() {
        return flagIndex >= 0;
    }

    /** The coordinate of the revealed-event flag, or -1. */
    public int flagIndex() {
        return flagIndex;
    }

    /** Row {@code i} of the basis (a copy). */
    public double[] basisRow(int i) {
        return basis[i].clone();
    }

    /** Whether the basis is the identity and there is no flag (the block is the statistic itself). */
    public boolean isIdentity() {
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

    @Override
    public boolean extract(double[] block, int offset, double[] into) {
        if (flagIndex >= 0 && block[offset + flagIndex] == 0) {
            return false;
        }
        for (int a = 0; a < basis.length; a++) {
            double[] row = basis[a];
            double y = 0;
            for (int j = 0; j < roundDimension; j++) {
                y += block[offset + j] * row[j];
            }
            into[a] = y;
        }
        return true;
    }
}

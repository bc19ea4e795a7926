package io.dpaudit.mechanisms.batching;

import static org.junit.jupiter.api.Assertions.assertTrue;

import io.dpaudit.core.numerics.Normal;
import org.junit.jupiter.api.Test;

/**
 * The lattices in convex order ({@link ConvexOrderLattice}), all deterministic.
 * <ul>
 *   <li>At T = 1 the pair is the Gaussian mechanism (μ = 1/σ), whose curve is known in closed form: the split
 *       lattice's reads stay above it in both directions and the cell-mean lattice's below it, each within a second
 *       order of the spacing; a split that moves 1% of each interval's mass the wrong way, or cells rounded up
 *       instead of down, cross the curve.</li>
 *   <li>Over three epochs (T = 1: the Gaussian mechanism at μ = sqrt(3)/σ) the composed ends hold the exact curve
 *       to the loss grid's second order.</li>
 * </ul>
 * The slower checks (quadrature, T = 100) are {@link ConvexOrderBracketTest}'s.
 */
class ConvexOrderLatticeTest {
    private static final double SIGMA = 2;
    private static final double TAU = 1 / SIGMA;
    private static final int M = 1 << 20;

    /** The Gaussian mechanism's curve at sensitivity/noise {@code mu}: {@code Phi(-eps/mu + mu/2) - e^eps Phi(-eps/mu - mu/2)}. */
    private static double gaussian(double mu, double eps) {
        return Normal.cdf(-eps / mu + mu / 2) - Math.exp(eps) * Normal.cdf(-eps / mu - mu / 2);
    }

    /** Spacing and clamp of the T = 1 lattices: the clamp where the escape is 1e-16, on {@link #M} points. */
    private static double spacing() {
        double clamp = 1;
        while (TermEscape.atLeast(1, 1, TAU, clamp) > 1e-16) {
            clamp *= 1.1;
        }
        return clamp / (M / 2 - 1);
    }

    private static ConvexOrderLattice single(ConvexOrderLattice.Kind kind, double[] law, double h) {
        return ConvexOrderLattice.of(kind, law, 1, TAU, h, M / 2 - 1, M, -1);
    }

    @Test
    void splitAndCellsBracketTheGaussianMechanismToSecondOrder() {
        double h = spacing();
        int n = M / 2 - 1;
        ConvexOrderLattice split = single(ConvexOrderLattice.Kind.SPLIT, ConvexOrderLattice.splitLaw(n, h, TAU), h);
        ConvexOrderLattice cells = single(ConvexOrderLattice.Kind.CELL_MEANS, CellPartition.law(n, h, TAU), h);
        double worstUpper = 0;
        double worstLower = 0;
        for (double eps = 0; eps <= 2; eps += 0.125) {
            double exact = gaussian(TAU, eps);
            double remove = split.removeUpper(eps);
            double add = split.addUpper(eps);
            double lower = cells.removeLower(eps);
            assertTrue(remove >= exact && add >= exact, "eps " + eps + ": split " + remove + ", " + add + " < " + exact);
            assertTrue(lower <= exact, "eps " + eps + ": cells " + lower + " > " + exact);
            worstUpper = Math.max(worstUpper, Math.max(remove, add) / exact - 1);
            worstLower = Math.max(worstLower, 1 - lower / exact);
        }
        // measured: 9.1e-6 and 2.2e-5, both at eps = 2 (delta 9.4e-6), from the round-off allowance over the single
        // term's long tail (h = 1.5e-4 against terms of about 1)
        assertTrue(worstUpper < 3e-5, "split's largest excess " + worstUpper);
        assertTrue(worstLower < 1e-4, "cells' largest shortfall " + worstLower);
    }

    @Test
    void plantedFaultsCrossTheCurve() {
        double h = spacing();
        int n = M / 2 - 1;
        // a split that sends 1% of every interval's mass down instead of up: its mean is lowered
        double[] mass = LognormalSumLattice.intervalMasses(n, h, TAU, 0);
        double[] good = ConvexOrderLattice.splitLaw(n, h, TAU);
        double[] shifted = good.clone();
        for (int i = 0; i < n; i++) {
            double moved = Math.min(0.01 * mass[i], shifted[i + 1]);
            shifted[i + 1] -= moved;
            shifted[i] += moved;
        }
        ConvexOrderLattice faultySplit = single(ConvexOrderLattice.Kind.SPLIT, shifted, h);
        // cells at their means rounded up instead of down
        int[] point = CellPartition.points(n, h, TAU);
        double[] cellMass = CellPartition.law(n, h, TAU);
        double total = 0;
        for (double x : cellMass) {
            total += x;
        }
        double[] up = new double[n + 1];
        double[] edges = CellPartition.edges(n, h, TAU);
        for (int i = 0; i < point.length; i++) {
            double perCell = Normal.cdf(Math.log(edges[i + 1]) / TAU) - (i == 0 ? 0 : Normal.cdf(Math.log(edges[i]) / TAU));
            if (point[i] >= 0) {
                up[Math.min(n, point[i] + 1)] += perCell;
            }
        }
        ConvexOrderLattice faultyCells = single(ConvexOrderLattice.Kind.CELL_MEANS, up, h);
        boolean splitCaught = false;
        boolean cellsCaught = false;
        for (double eps = 0; eps <= 3; eps += 0.125) {
            double exact = gaussian(TAU, eps);
            splitCaught |= faultySplit.removeUpper(eps) < exact;
            cellsCaught |= faultyCells.removeLower(eps) > exact;
        }
        assertTrue(total > 0.999);
        assertTrue(splitCaught, "a split that lowers the mean must read below the exact curve somewhere");
        assertTrue(cellsCaught, "cells rounded up must read above the exact curve somewhere");
    }

    @Test
    void composedBracketHoldsTheGaussianMechanismOverThreeEpochs() {
        // T = 1 over three epochs is the Gaussian mechanism at mu = sqrt(3) / sigma
        ConvexOrderBracket convex = new ConvexOrderBracket(1, 3, SIGMA);
        double worstUpper = 0;
        double worstLower = 0;
        for (double eps = 0; eps <= 2; eps += 0.25) {
            double exact = gaussian(Math.sqrt(3) * TAU, eps);
            double up = convex.upperDelta(eps);
            double low = convex.lowerDelta(eps);
            assertTrue(low <= exact && exact <= up, "eps " + eps + ": [" + low + ", " + up + "] against " + exact);
            worstUpper = Math.max(worstUpper, up / exact - 1);
            worstLower = Math.max(worstLower, 1 - low / exact);
        }
        // measured: 2.9e-5 and 2.8e-5 (the loss grid, 5e-5, at second order)
        assertTrue(worstUpper < 1e-4 && worstLower < 1e-4, worstUpper + ", " + worstLower);
    }
}

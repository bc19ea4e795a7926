package io.dpaudit.mechanisms.batching;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

/**
 * The convex-order bracket's slower checks (deterministic; in the statistical tier for their time, about 10 s):
 * <ul>
 *   <li>the split positions and the cell means, computed from differences of normal tails, agree with composite
 *       Gauss–Legendre quadrature of the density (T = 10^4, 2^23 points, σ = 0.5, 1, 2) far inside the allowances the
 *       reads make for them; no cell's point lies above its mean, nor (but the last cell's) under it by 1e-6 of
 *       it;</li>
 *   <li>at T = 100, σ = 1, one epoch, the bracket lies inside the plain lattices' bracket and is far narrower;</li>
 *   <li>there, the bracket with the event of one term above a lower clamp read apart ({@link LargeTerms}) meets
 *       the plain clamp's and is as narrow, and leaving that event out puts the upper end under the lower.</li>
 * </ul>
 */
@Tag("statistical")
class ConvexOrderBracketTest {
    /** Composite Gauss–Legendre (64 panels of 8 nodes) of {@code (E[w | cell] - lo) / (hi - lo)} for the lognormal. */
    private static double quadraturePosition(double lo, double hi, double tau) {
        double[] x = {-0.9602898564975363, -0.7966664774136267, -0.5255324099163290, -0.1834346424956498,
            0.1834346424956498, 0.5255324099163290, 0.7966664774136267, 0.9602898564975363};
        double[] w = {0.1012285362903763, 0.2223810344533745, 0.3137066458778873, 0.3626837833783620,
            0.3626837833783620, 0.3137066458778873, 0.2223810344533745, 0.1012285362903763};
        double mid = (lo + hi) / 2;
        double logMid = Math.log(mid);
        double num = 0;
        double den = 0;
        int panels = 64;
        for (int p = 0; p < panels; p++) {
            double a = (double) p / panels;
            double b = (p + 1.0) / panels;
            for (int k = 0; k < 8; k++) {
                double t = a + (b - a) * (x[k] + 1) / 2;
                double v = lo + t * (hi - lo);
                double d = Math.log1p((v - mid) / mid); // log v - log mid, without cancellation
                double logRatio = -d - d * (d + 2 * logMid) / (2 * tau * tau);
                double g = Math.exp(logRatio) * w[k] * (b - a) / 2;
                num += t * g;
                den += g;
            }
        }
        return num / den;
    }

    @Test
    void splitPositionsAndCellMeansAgreeWithQuadrature() {
        for (double tau : new double[] {0.5, 1, 2}) {
            int n = (1 << 23) / 2 - 1;
            double h = 2 * 10000 * Math.exp(tau * tau / 2) / n;
            double[] mass = LognormalSumLattice.intervalMasses(n, h, tau, 0);
            double[] shifted = LognormalSumLattice.intervalMasses(n, h, tau, tau * tau);
            double mu = Math.exp(tau * tau / 2);
            double[] edges = CellPartition.edges(n, h, tau);
            int[] point = CellPartition.points(n, h, tau);
            double worstSplit = 0;
            for (int i = 1; i < n; i = (int) Math.max(i + 1, i * 1.7)) {
                if (!(mass[i] > 1e-300)) {
                    continue;
                }
                double computed = (mu * shifted[i] - i * h * mass[i]) / (h * mass[i]);
                double exact = quadraturePosition(i * h, (i + 1) * h, tau);
                worstSplit = Math.max(worstSplit, Math.abs(computed - exact) * h / ((i + 1) * h));
            }
            for (int c = 0; c < point.length; c = (int) Math.max(c + 1, c * 1.7)) {
                if (point[c] < 0) {
                    continue;
                }
                double cellMean = edges[c] + quadraturePosition(edges[c], edges[c + 1], tau) * (edges[c + 1] - edges[c]);
                assertTrue(point[c] * h <= cellMean * (1 - 1e-12), "tau " + tau + ", cell " + c + " at point "
                        + point[c] + " above its mean " + cellMean / h + " h");
                // every cell but the last keeps its mean (measured: under 1e-8 of it lost)
                assertTrue(c + 1 == point.length || point[c] * h >= cellMean * (1 - 1e-6), "tau " + tau + ", cell "
                        + c + " at point " + point[c] + " lost its mean " + cellMean / h + " h");
            }
            // the reads allow KAPPA (1e-7) of (w + h); measured: at most 3.1e-9 (tau 0.5, far in the tail)
            assertTrue(worstSplit < ConvexOrderLattice.KAPPA / 10, "tau " + tau + ": split position error " + worstSplit);
        }
    }

    @Test
    void convexOrderBracketSitsInsideThePlainLatticeBracketAndIsNarrower() {
        AllocationPld pld = new AllocationPld(new BatchingParameters(BatchingParameters.Sampler.BALLS_AND_BINS, 100, 1,
                1.0, 1, false));
        double[][] plain = pld.plainRemoveSurvival(); // the rounded lattices' remove direction: {lower, upper}
        long start = pld.gridStart();
        ConvexOrderBracket convex = new ConvexOrderBracket(100, 1, 1.0, ConvexOrderBracket.Clamp.PLAIN);
        for (double eps : new double[] {0.1, 0.3, 0.6}) {
            double up = convex.upperDelta(eps);
            double low = convex.lowerDelta(eps);
            double plainUp = DirectionCurve.upper(plain[1], start, eps);
            double plainLow = DirectionCurve.lower(plain[0], start, eps);
            assertTrue(low <= up, "eps " + eps);
            assertTrue(low <= plainUp && up >= plainLow, "eps " + eps + ": [" + low + ", " + up + "] against ["
                    + plainLow + ", " + plainUp + "]");
            // measured: 0.0067, 0.0082 and 0.095 of the plain lattices' width
            assertTrue(up - low < 0.2 * (plainUp - plainLow), "eps " + eps + ": " + (up - low) + " against "
                    + (plainUp - plainLow));
        }
        assertEquals(1 << 22, convex.lattice());
    }

    @Test
    void oneLargeTermReadApartAgreesWithThePlainClampAndItsOmissionIsCaught() {
        ConvexOrderBracket plain = new ConvexOrderBracket(100, 1, 1.0, ConvexOrderBracket.Clamp.PLAIN);
        ConvexOrderBracket apart = new ConvexOrderBracket(100, 1, 1.0);
        assertEquals(1 << 20, apart.lattice()); // the clamp 655 instead of 1.0e4: a quarter of the plain points
        for (double eps : new double[] {0.3, 1, 2, 3}) {
            double up = apart.upperDelta(eps);
            double low = apart.lowerDelta(eps);
            double plainUp = plain.upperDelta(eps);
            double plainLow = plain.lowerDelta(eps);
            assertTrue(low <= up && low <= plainUp && up >= plainLow, "eps " + eps + ": [" + low + ", " + up
                    + "] against [" + plainLow + ", " + plainUp + "]");
            // measured: 1.9e-5, 2.8e-5, 1.9e-4 and 1.0e-3 of the upper end (the plain clamp's: 2.1e-5 to 1.1e-2)
            assertTrue(up - low < 2e-3 * up, "eps " + eps + ": [" + low + ", " + up + "]");
        }
        // planted: the same lattices with the event of one large term left out; at eps = 2 (sum 1220 against the
        // clamp 655) that event carries most of the curve, and the upper end falls under the plain lower end
        double tau = 1;
        double clamp = TermEscape.clamp(100, tau, ConvexOrderBracket.ESCAPE, 2);
        double range = Math.max(2 * 100 * Math.exp(0.5), clamp);
        int m = ConvexOrderBracket.latticeFor(range, ConvexOrderBracket.SPACING);
        double h = range / (m / 2 - 1);
        int n = (int) Math.ceil(clamp / h);
        ConvexOrderLattice.Term term = ConvexOrderLattice.term(ConvexOrderLattice.Kind.SPLIT,
                ConvexOrderLattice.splitLaw(n, h, tau), 100, tau, h, m, 1);
        double without = ConvexOrderLattice.of(term, 100, tau, h, n, m, -1).removeUpper(2);
        assertTrue(without < plain.lowerDelta(2), "without the event: " + without + " against " + plain.lowerDelta(2));
    }
}

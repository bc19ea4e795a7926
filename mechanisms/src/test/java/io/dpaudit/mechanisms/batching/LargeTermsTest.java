package io.dpaudit.mechanisms.batching;

import static org.junit.jupiter.api.Assertions.assertTrue;

import io.dpaudit.core.numerics.Normal;
import org.junit.jupiter.api.Test;

/**
 * The event of exactly one term above the clamp, read apart ({@link LargeTerms}), against its exact value at
 * {@code T = 2}, σ = 0.7 (clamp 20, where a term exceeds it with probability 0.018): by Simpson's rule on
 * {@code 2 int_B^inf f(a) g(c - a) da / (2 mu)}, {@code g(k) = E[(w - k)_+; w <= B]} in closed form. Its upper end
 * stays above it and its lower end below, in both the one-epoch reads and the loss laws composition reads, each
 * within 1e-5 of it (measured: under 1.9e-6). The add direction's upper end (clamp 2, where its integrand is positive
 * on the event) stays above its exact value, within 2%. The event of exactly two of three terms above the clamp 5
 * (its other term through the two-term lattices: from above, two terms over {@code F(B)}; from below, half of two)
 * is bracketed by its exact value (two-dimensional Simpson's rule).
 */
class LargeTermsTest {
    private static final double TAU = 1 / 0.7;
    private static final double CLAMP = 20;

    /** {@code E_Q[(X - e^eps)_+; exactly one of two terms above B]}, X = (w_1 + w_2) / (2 mu), by Simpson's rule in log w. */
    private static double exact(double eps) {
        double mu = Math.exp(TAU * TAU / 2);
        double c = 2 * mu * Math.exp(eps);
        double z0 = Math.log(CLAMP) / TAU;
        int n = 200_000;
        double step = 14.0 / n;
        double sum = 0;
        for (int i = 0; i <= n; i++) {
            double z = z0 + i * step;
            double f = Normal.pdf(z) * restStick(c - Math.exp(TAU * z), CLAMP);
            sum += f * (i == 0 || i == n ? 1 : i % 2 == 1 ? 4 : 2);
        }
        return 2 * sum * step / 3 / (2 * mu);
    }

    /** {@code E_Q[(1 - e^eps X)_+; exactly one of two terms above b]}, by Simpson's rule in log w. */
    private static double exactAdd(double eps, double b) {
        double mu = Math.exp(TAU * TAU / 2);
        double k = Math.exp(eps) / (2 * mu);
        double z0 = Math.log(b) / TAU;
        double z1 = Math.log(1 / k) / TAU;
        if (!(z1 > z0)) {
            return 0;
        }
        int n = 200_000;
        double step = (z1 - z0) / n;
        double sum = 0;
        for (int i = 0; i <= n; i++) {
            double z = z0 + i * step;
            double a = Math.exp(TAU * z);
            double u = Math.min(1 / k - a, b); // the other term's integrand is positive below u
            double inner = u > 0 ? (1 - k * a) * Normal.cdf(Math.log(u) / TAU)
                    - k * mu * Normal.cdf(Math.log(u) / TAU - TAU) : 0;
            sum += Normal.pdf(z) * Math.max(0, inner) * (i == 0 || i == n ? 1 : i % 2 == 1 ? 4 : 2);
        }
        return 2 * sum * step / 3;
    }

    private static LargeTerms large() {
        return large(CLAMP);
    }

    private static LargeTerms large(double clamp) {
        return events(clamp, 2, 1)[0];
    }

    /** The events of {@code steps} terms at {@code clamp}, {@code apart} of them read apart (spacing 0.005). */
    private static LargeTerms[] events(double clamp, int steps, int apart) {
        double h = 0.005;
        int n = (int) Math.round(clamp / h);
        int m = 1 << 14;
        ConvexOrderLattice split = ConvexOrderLattice.compute(ConvexOrderLattice.Kind.SPLIT, steps - 1, TAU, h, n, m,
                -1);
        ConvexOrderLattice cells = ConvexOrderLattice.compute(ConvexOrderLattice.Kind.CELL_MEANS, steps - 1, TAU, h, n,
                m, -1);
        return LargeTerms.events(split, cells, steps, TAU, apart);
    }

    @Test
    void oneEpochReadsBracketTheExactValue() {
        LargeTerms large = large();
        for (double eps : new double[] {0, 0.5, 1.5, 2.5, 3.5}) {
            double exact = exact(eps);
            double upper = large.removeUpper(eps);
            double lower = large.removeLower(eps);
            assertTrue(lower <= exact && exact <= upper, "eps " + eps + ": [" + lower + ", " + upper + "] misses "
                    + exact);
            // measured: at most 1.8e-6 above and 9.4e-7 below (the cells' widths, at second order)
            assertTrue(upper < (1 + 1e-5) * exact && lower > (1 - 1e-5) * exact, "eps " + eps + ": [" + lower + ", "
                    + upper + "] around " + exact);
        }
    }

    @Test
    void lossLawsBracketTheExactValue() {
        LargeTerms large = large();
        double grid = AllocationPld.LOSS_GRID;
        long iLo = (long) Math.floor(-3 / grid);
        int g = (int) (Math.ceil(8 / grid) - iLo + 1);
        SurvivalMerge upper = new SurvivalMerge(true);
        upper.add(large.upperRead(iLo, g));
        SurvivalMerge lower = new SurvivalMerge(false);
        lower.add(large.lowerRead(iLo, g));
        double[] up = upper.curveSurvival();
        double[] low = lower.curveSurvival();
        for (double eps : new double[] {0, 0.5, 1.5, 2.5, 3.5}) {
            double exact = exact(eps);
            double u = DirectionCurve.upper(up, iLo, eps);
            double l = DirectionCurve.lower(low, iLo, eps);
            assertTrue(l <= exact && exact <= u, "eps " + eps + ": [" + l + ", " + u + "] misses " + exact);
            // measured: at most 1.9e-6 above and 9.5e-7 below, as the direct reads
            assertTrue(u < (1 + 1e-5) * exact && l > (1 - 1e-5) * exact, "eps " + eps + ": [" + l + ", " + u
                    + "] around " + exact);
        }
    }

    @Test
    void addDirectionStaysAboveTheExactValue() {
        // clamp 2: the add direction's integrand is positive on the event only for eps under log(2 mu / 2) = 1.02
        LargeTerms large = large(2);
        double grid = AllocationPld.LOSS_GRID;
        long iLo = (long) Math.floor(-8 / grid);
        int g = (int) (Math.ceil(8 / grid) - iLo + 1);
        SurvivalMerge read = new SurvivalMerge(true);
        read.add(large.addRead(iLo, g));
        double[] survival = read.curveSurvival();
        for (double eps : new double[] {0, 0.25, 0.5, 0.75}) {
            double exact = exactAdd(eps, 2);
            double direct = large.addUpper(eps);
            double law = DirectionCurve.upper(survival, iLo, eps);
            assertTrue(direct >= exact && law >= exact, "eps " + eps + ": " + direct + ", " + law + " under " + exact);
            // the large term read at its cell's lower edge: measured 0.17% to 1.1% above
            assertTrue(direct < 1.02 * exact && law < 1.02 * exact, "eps " + eps + ": " + direct + ", " + law
                    + " against " + exact);
        }
    }

    /** {@code E[(w - k)_+; w <= b]} for {@code log w ~ N(0, tau^2)}. */
    private static double restStick(double k, double b) {
        if (k >= b) {
            return 0;
        }
        double mu = Math.exp(TAU * TAU / 2);
        double zB = Math.log(b) / TAU;
        if (k <= 0) {
            return mu * Normal.cdf(zB - TAU) - k * Normal.cdf(zB);
        }
        double z = Math.log(k) / TAU;
        return mu * (Normal.cdf(zB - TAU) - Normal.cdf(z - TAU)) - k * (Normal.cdf(zB) - Normal.cdf(z));
    }

    /**
     * {@code E_Q[(X - e^eps)_+; exactly two of three terms above b]}, X = (w_1 + w_2 + w_3) / (3 mu): Simpson's rule in
     * both large terms' logs (1000 panels each over 10 standard deviations).
     */
    static double exactTwo(double eps, double b) {
        double mu = Math.exp(TAU * TAU / 2);
        double c = 3 * mu * Math.exp(eps);
        double z0 = Math.log(b) / TAU;
        int n = 1000;
        double step = 10.0 / n;
        double[] weight = new double[n + 1];
        double[] value = new double[n + 1];
        for (int i = 0; i <= n; i++) {
            weight[i] = Normal.pdf(z0 + i * step) * (i == 0 || i == n ? 1 : i % 2 == 1 ? 4 : 2);
            value[i] = Math.exp(TAU * (z0 + i * step));
        }
        double sum = 0;
        for (int i = 0; i <= n; i++) {
            for (int j = 0; j <= n; j++) {
                sum += weight[i] * weight[j] * restStick(c - value[i] - value[j], b);
            }
        }
        // three ways to choose the two large terms, over 3 mu
        return sum * (step / 3) * (step / 3) / mu;
    }

    /** The two-term event of three terms at clamp {@code b} (the lattices of the other two terms). */
    private static LargeTerms two(double b) {
        return events(b, 3, 2)[1];
    }

    @Test
    void twoLargeTermsBracketTheExactValue() {
        LargeTerms two = two(5);
        double grid = AllocationPld.LOSS_GRID;
        long iLo = (long) Math.floor(-3 / grid);
        int g = (int) (Math.ceil(8 / grid) - iLo + 1);
        SurvivalMerge upper = new SurvivalMerge(true);
        upper.add(two.upperRead(iLo, g));
        SurvivalMerge lower = new SurvivalMerge(false);
        lower.add(two.lowerRead(iLo, g));
        double[] up = upper.curveSurvival();
        double[] low = lower.curveSurvival();
        for (double eps : new double[] {0, 0.5, 1.5, 2.5}) {
            double exact = exactTwo(eps, 5);
            double u = two.removeUpper(eps);
            double l = two.removeLower(eps);
            double lawUp = DirectionCurve.upper(up, iLo, eps);
            double lawLow = DirectionCurve.lower(low, iLo, eps);
            assertTrue(l <= exact && exact <= u && lawLow <= exact && exact <= lawUp, "eps " + eps + ": [" + l + ", "
                    + u + "], law [" + lawLow + ", " + lawUp + "] miss " + exact);
            // at T = 3 the rest's bounds are loose (two terms for one above, half of two below); measured: the upper
            // ends 2.3% to 8.2% above, the lower 13% below (both reads alike)
            assertTrue(u < 1.12 * exact && lawUp < 1.12 * exact && l > 0.85 * exact && lawLow > 0.85 * exact, "eps "
                    + eps + ": [" + l + ", " + u + "], law [" + lawLow + ", " + lawUp + "] around " + exact);
        }
    }
}

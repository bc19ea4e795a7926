package io.dpaudit.mechanisms.batching;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.junit.jupiter.api.Test;

/** The rounding offsets' variance bound and deviation ({@link OffsetConcentration}); all deterministic. */
class OffsetConcentrationTest {

    /**
     * Var u for u = w - h floor(w / h), log w ~ N(shift, tau^2), by quadrature: Simpson's rule on each cell (32
     * panels), over w up to e^{shift + 6 tau} (the mass beyond, 1e-9, moves it by under 1e-9 h^2).
     */
    private static double numericVariance(double h, double tau, double shift) {
        double top = Math.exp(shift + 6 * tau);
        long cells = (long) Math.ceil(top / h);
        double m0 = 0;
        double m1 = 0;
        double m2 = 0;
        int panels = 32;
        for (long i = 0; i < cells; i++) {
            double a = i * h;
            double step = h / panels;
            for (int k = 0; k <= panels; k++) {
                double u = k * step;
                double w = a + u;
                double f = w <= 0 ? 0 : Math.exp(-Math.pow((Math.log(w) - shift) / tau, 2) / 2)
                        / (w * tau * Math.sqrt(2 * Math.PI));
                double weight = (k == 0 || k == panels ? 1 : k % 2 == 1 ? 4 : 2) * step / 3;
                m0 += weight * f;
                m1 += weight * f * u;
                m2 += weight * f * u * u;
            }
        }
        double mean = m1 / m0;
        return m2 / m0 - mean * mean;
    }

    @Test
    void theVarianceBoundHoldsAndIsNearTheUniformsWhereTheCellIsSmall() {
        double[][] cases = {{0.01, 1, 0}, {0.004, 1, 1}, {0.02, 0.5, 0.25}, {0.002, 0.7, 0}};
        for (double[] c : cases) {
            double h = c[0];
            double exact = numericVariance(h, c[1], c[2]);
            double bound = OffsetConcentration.termVariance(h, c[1], c[2]);
            assertTrue(bound >= exact, "h=" + h + ": bound " + bound + " below the variance " + exact);
            // within 3% of the uniform's h^2/12 (the bound's excess is 2 h f_max)
            assertTrue(bound <= 1.03 * h * h / 12, "h=" + h + ": bound " + bound + " against h^2/12 " + h * h / 12);
        }
    }

    @Test
    void aCoarseCellFallsBackToPopoviciusRange() {
        // terms mostly far below h: u = w, so the smooth bound's excess is large and h^2/4 applies
        double h = 5;
        double exact = numericVariance(h, 0.5, -2);
        double bound = OffsetConcentration.termVariance(h, 0.5, -2);
        assertTrue(bound >= exact);
        assertEquals(h * h / 4, bound, 1e-6 * h * h);
    }

    @Test
    void bernsteinsDeviationSolvesItsTailEquationAndBeatsHoeffdingAtManyTerms() {
        double h = 1e-3;
        int steps = 10_000;
        double nu = 1e-17;
        double variance = steps * h * h / 12;
        double x = OffsetConcentration.deviation(h, steps, variance, nu);
        // exp(-x^2 / (2 V + 2 h x / 3)) = nu, up to the 1e-12 of rounding up
        double exponent = x * x / (2 * variance + 2 * h * x / 3);
        assertEquals(Math.log(1 / nu), exponent, 1e-9 * exponent);
        double hoeffding = h * Math.sqrt(steps * Math.log(1 / nu) / 2);
        assertEquals(0.609, x / hoeffding, 0.005, "Bernstein's band against Hoeffding's at T = 10^4");
        // with Popoviciu's h^2/4 (no closed-form variance) Bernstein is wider and Hoeffding's band is taken
        assertEquals(hoeffding, OffsetConcentration.deviation(h, steps, steps * h * h / 4, nu), 2e-12 * hoeffding);
        // a larger variance never narrows the band
        assertTrue(OffsetConcentration.deviation(h, steps, 2 * variance, nu) > x);
    }

    @Test
    void theBandHoldsForUniformOffsetsExactly() {
        // 12 uniform offsets on [0, 1): R is Irwin-Hall, its upper tail exact; the band must hold at nu
        int n = 12;
        for (double nu : new double[] {1e-2, 1e-4, 1e-6}) {
            double x = OffsetConcentration.deviation(1, n, n / 12.0, nu);
            double tail = irwinHallSurvival(n, n / 2.0 + x);
            assertTrue(tail <= nu, "nu=" + nu + ": P(R >= mean + " + x + ") = " + tail);
        }
    }

    /** P(U_1 + ... + U_n >= s) for independent uniforms on [0, 1): 1 minus the Irwin-Hall distribution function. */
    private static double irwinHallSurvival(int n, double s) {
        if (s >= n) {
            return 0;
        }
        // by symmetry, P(R >= s) = P(R <= n - s) = (1/n!) sum_{k <= n - s} (-1)^k C(n, k) (n - s - k)^n
        double y = n - s;
        double sum = 0;
        double binomial = 1;
        for (int k = 0; k <= Math.floor(y); k++) {
            sum += (k % 2 == 0 ? 1 : -1) * binomial * Math.pow(y - k, n);
            binomial = binomial * (n - k) / (k + 1);
        }
        double factorial = 1;
        for (int k = 2; k <= n; k++) {
            factorial *= k;
        }
        return sum / factorial;
    }
}

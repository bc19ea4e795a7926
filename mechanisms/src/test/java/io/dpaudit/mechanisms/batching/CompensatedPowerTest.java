package io.dpaudit.mechanisms.batching;

import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.junit.jupiter.api.Test;

/**
 * The compensated power ({@link CompensatedPower}), all deterministic: the binomial law {@code Bin(T, 3/8)} is the
 * power of a two-point term, and its masses are computed to about 1e-28 relative by a double-double recurrence
 * ({@code p_{k+1} = p_k (T - k) / (k + 1) * 3 / 5} from {@code p_0 = (5/8)^T}, all inputs exact).
 * <ul>
 *   <li>At T = 1000 every compensated mass lies within its allowance of the reference (measured: 1.8e-17 against
 *       1.5e-16), the allowance is under 1/50 of the plain power's (measured: 1/875), and the plain power misses the
 *       reference by more than the compensated allowance somewhere (so the comparison can fail: 3.8e-16);</li>
 *   <li>at T = 10^4 on a lognormal term law (σ = 1, spacing 0.05) the compensated laws on {@code m} and {@code 2m}
 *       points agree within their allowances (2.7e-20 against 9e-19 each), which are under 1/1000 of the plain
 *       one's (measured: 1/9200).</li>
 * </ul>
 */
class CompensatedPowerTest {
    private static final int T = 1000;

    /** {@code Bin(T, 3/8)} in double-double: {@code {hi[], lo[]}}. */
    private static double[][] binomial(int steps) {
        double[] hi = new double[steps + 1];
        double[] lo = new double[steps + 1];
        // (5/8)^T by binary powering
        double rh = 1;
        double rl = 0;
        double bh = 0.625;
        double bl = 0;
        for (int e = steps; e > 0; e >>= 1) {
            if ((e & 1) == 1) {
                double[] r = mul(rh, rl, bh, bl);
                rh = r[0];
                rl = r[1];
            }
            double[] b = mul(bh, bl, bh, bl);
            bh = b[0];
            bl = b[1];
        }
        hi[0] = rh;
        lo[0] = rl;
        for (int k = 0; k < steps; k++) {
            double[] v = mul(hi[k], lo[k], 3.0 * (steps - k), 0);
            v = divide(v[0], v[1], 5.0 * (k + 1));
            hi[k + 1] = v[0];
            lo[k + 1] = v[1];
        }
        return new double[][] {hi, lo};
    }

    private static double[] mul(double ah, double al, double bh, double bl) {
        double p = ah * bh;
        double e = Math.fma(ah, bh, -p) + (ah * bl + al * bh);
        double s = p + e;
        return new double[] {s, e - (s - p)};
    }

    private static double[] divide(double hi, double lo, double d) {
        double q1 = hi / d;
        double p = q1 * d;
        double pe = Math.fma(q1, d, -p);
        double r = (hi - p - pe + lo) / d;
        double s = q1 + r;
        return new double[] {s, r - (s - q1)};
    }

    @Test
    void theBinomialPowerLiesWithinItsAllowanceWhereThePlainPowerDoesNot() {
        int m = 2048;
        double[] term = {0.625, 0.375};
        LognormalSumLattice.Powers comp = CompensatedPower.of(term, T, m);
        assertNotNull(comp);
        LognormalSumLattice.Powers plain = LognormalSumLattice.powers(term, null, T, 0, m);
        double[][] exact = binomial(T);
        double worstComp = 0;
        double worstPlain = 0;
        for (int k = 0; k < m; k++) {
            double ref = k <= T ? exact[0][k] : 0;
            double refLo = k <= T ? exact[1][k] : 0;
            worstComp = Math.max(worstComp, Math.abs((comp.q()[k] - ref) - refLo));
            worstPlain = Math.max(worstPlain, Math.abs((plain.q()[k] - ref) - refLo));
        }
        assertTrue(worstComp <= comp.etaQ(), "compensated off by " + worstComp + " > its allowance " + comp.etaQ());
        assertTrue(comp.etaQ() < plain.etaQ() / 50, "allowance " + comp.etaQ() + " against plain " + plain.etaQ());
        assertTrue(worstPlain > comp.etaQ(), "plain off by only " + worstPlain + " (compensated allowance "
                + comp.etaQ() + "): the reference cannot tell the two apart");
    }

    @Test
    void atTenThousandTermsTheLawsOnTwoLatticeLengthsAgreeWithinTheirAllowances() {
        int steps = 10_000;
        double tau = 1;
        double h = 0.05;
        int n = 40_000;
        double[] term = ConvexOrderLattice.splitLaw(n, h, tau);
        int m = 1 << 20; // the mean sum near 330 000 points, its standard deviation 2 600
        LognormalSumLattice.Powers small = CompensatedPower.of(term, steps, m);
        LognormalSumLattice.Powers large = CompensatedPower.of(term, steps, 2 * m);
        assertNotNull(small);
        assertNotNull(large);
        double worst = 0;
        for (int j = 0; j < m / 2; j++) {
            worst = Math.max(worst, Math.abs(small.q()[j] - large.q()[j]));
        }
        double plainEta = LognormalSumLattice.powers(term, null, steps, 0, m).etaQ();
        assertTrue(worst <= small.etaQ() + large.etaQ(), worst + " > " + small.etaQ() + " + " + large.etaQ());
        assertTrue(small.etaQ() < plainEta / 1000, "allowance " + small.etaQ() + " against plain " + plainEta);
    }
}

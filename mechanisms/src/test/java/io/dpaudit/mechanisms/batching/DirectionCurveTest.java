package io.dpaudit.mechanisms.batching;

import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.function.DoubleUnaryOperator;
import org.junit.jupiter.api.Test;

/**
 * The many-ε readers of a direction's δ ({@link DirectionCurve#upperReader}, {@link DirectionCurve#lowerReader})
 * against the direct sums they replace: on the safe side of each, and within their rounding allowance of it.
 */
class DirectionCurveTest {
    @Test
    void theReadersAgreeWithTheDirectSumsOnTheirSafeSide() {
        // a survival function on the loss grid from index -20 000 (loss -2) to 100 000 (loss 10): the loss's law a
        // normal N(0.5, 1) in the bulk with a slower tail, and 1e-12 at +inf; a lower end of it 1% below
        long start = -20_000;
        int g = 120_000;
        double[] survival = new double[g + 1];
        survival[g] = 1e-12;
        for (int i = g - 1; i >= 0; i--) {
            double l = (start + i) * AllocationPld.LOSS_GRID;
            survival[i] = survival[g] + 0.5 * io.dpaudit.core.numerics.Normal.sf(l - 0.5)
                    + 0.5 * Math.exp(-2 * Math.max(0, l));
        }
        double[] lowerSurvival = survival.clone();
        for (int i = 0; i <= g; i++) {
            lowerSurvival[i] *= 0.99;
        }
        DoubleUnaryOperator upper = DirectionCurve.upperReader(survival, start);
        DoubleUnaryOperator lower = DirectionCurve.lowerReader(lowerSurvival, start);
        for (double eps = -1.5; eps <= 11; eps += 0.137) {
            double direct = DirectionCurve.upper(survival, start, eps);
            double read = upper.applyAsDouble(eps);
            assertTrue(read >= direct * (1 - 1e-12) && read <= direct * (1 + 1e-8) + 1e-15,
                    "upper at eps " + eps + ": " + read + " vs " + direct);
            double directLow = DirectionCurve.lower(lowerSurvival, start, eps);
            double readLow = lower.applyAsDouble(eps);
            assertTrue(readLow <= directLow * (1 + 1e-12) && readLow >= directLow * (1 - 1e-8),
                    "lower at eps " + eps + ": " + readLow + " vs " + directLow);
        }
    }
}

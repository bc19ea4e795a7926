package io.dpaudit.core.numerics;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.apache.commons.rng.UniformRandomProvider;
import org.apache.commons.rng.simple.RandomSource;
import org.junit.jupiter.api.Test;

/** FastExp against Math.exp: deterministic seed, so no false-failure rate. */
class FastExpTest {
    @Test
    void withinTwoUlpsOfMathExpOverItsRange() {
        UniformRandomProvider rng = RandomSource.XO_RO_SHI_RO_128_PP.create(17L);
        double worst = 0;
        for (int i = 0; i < 2_000_000; i++) {
            double y = i % 3 == 0 ? -5 * rng.nextDouble() : i % 3 == 1 ? -707 * rng.nextDouble() : 700 * rng.nextDouble();
            double exact = Math.exp(y);
            worst = Math.max(worst, Math.abs(FastExp.exp(y) - exact) / exact);
        }
        assertTrue(worst <= 4.5e-16, "largest relative error " + worst);
    }

    @Test
    void edgesAreExactOrSafe() {
        assertEquals(1.0, FastExp.exp(0.0));
        assertEquals(1.0, FastExp.exp(-0.0));
        assertEquals(Math.exp(-707.0), FastExp.exp(-707.0), 1e-15 * Math.exp(-707.0));
        assertEquals(0.0, FastExp.exp(-707.5));
        assertEquals(Math.exp(700.0), FastExp.exp(700.0), 4.5e-16 * Math.exp(700.0));
        assertEquals(Double.POSITIVE_INFINITY, FastExp.exp(700.5));
        assertEquals(Double.POSITIVE_INFINITY, FastExp.exp(Double.POSITIVE_INFINITY));
        assertEquals(0.0, FastExp.exp(Double.NEGATIVE_INFINITY));
        assertTrue(Double.isNaN(FastExp.exp(Double.NaN)));
        // the table points themselves: y = -j ln2 / 64
        for (int j = 0; j <= 640; j++) {
            double y = -j * Math.log(2) / 64;
            assertEquals(Math.exp(y), FastExp.exp(y), 4.5e-16 * Math.exp(y), "y " + y);
        }
    }
}

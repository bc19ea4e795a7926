package io.dpaudit.core.law;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import org.junit.jupiter.api.Test;

class GaussianMixtureTest {
    /**
     * A selection probability of 1 (every client selected, a check-in coin p0 = 1 with one slot) once gave the
     * constructor a component of weight 0 and 'dp-audit bound' an internal error; such a mixture is one normal.
     */
    @Test
    void twoPointMixturesAtTheEndsOfTheirWeightAreOneNormal() {
        GaussianMixture all = GaussianMixture.twoPoint(1.0, 0.0, 2.0, 0.5);
        assertEquals(1, all.components());
        assertEquals(2.0, all.mean(0, 0));
        assertEquals(0.5, all.sd());
        GaussianMixture none = GaussianMixture.twoPoint(0.0, 0.0, 2.0, 0.5);
        assertEquals(1, none.components());
        assertEquals(0.0, none.mean(0, 0));
        assertEquals(1, GaussianMixture.twoPoint(0.3, 1.0, 1.0, 0.5).components());
        GaussianMixture two = GaussianMixture.twoPoint(0.3, 0.0, 2.0, 0.5);
        assertEquals(2, two.components());
        assertEquals(0.7, two.weight(0), 1e-15);
        assertEquals(0.3, two.weight(1), 1e-15);
        assertThrows(IllegalArgumentException.class, () -> GaussianMixture.twoPoint(1.5, 0.0, 2.0, 0.5));
        assertThrows(IllegalArgumentException.class, () -> GaussianMixture.twoPoint(Double.NaN, 0.0, 2.0, 0.5));
    }
}

package io.dpaudit.mechanisms.gaussian;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.dpaudit.core.rng.RandomStreams;
import io.dpaudit.mechanisms.common.Clipping;
import org.junit.jupiter.api.Test;

class DatasetAndClippingTest {
    /** Parameters of a {@code poisson-subsampled-gaussian}. */
    static GaussianParameters subsampled(double q, double sigma, double clip, int rounds) {
        return new GaussianParameters(GaussianParameters.SUBSAMPLED_TYPE, q, sigma, clip, rounds);
    }

    @Test
    void clippingScalesLongGradientsOnly() {
        assertArrayEquals(new double[] {0.6, 0.8}, Clipping.clip(new double[] {3, 4}, 1.0), 1e-15);
        assertArrayEquals(new double[] {0.3, 0.4}, Clipping.clip(new double[] {0.3, 0.4}, 1.0), 0);
        assertArrayEquals(new double[] {0, 0}, Clipping.clip(new double[] {0, 0}, 1.0), 0);
    }

    @Test
    void worstCaseDatasetIsOrthogonalToTheCanaryAndExercisesClipping() {
        GradientDataset d = GradientDataset.worstCase(300, 5, 1.0, RandomStreams.auxiliary(1));
        assertArrayEquals(new double[] {2, 0, 0, 0, 0}, d.canary(), 0);
        int clipped = 0;
        for (int i = 0; i < d.size(); i++) {
            double[] g = d.record(i);
            assertEquals(0.0, g[0]);
            clipped += Clipping.norm(g) > 1 ? 1 : 0;
        }
        assertTrue(clipped > 150 && clipped < 250, "about two thirds clipped: " + clipped);
    }

    @Test
    void theFaithfulSimulatorRefusesDatasetsItsModelWouldMisdescribe() {
        GradientDataset skewed = new GradientDataset(new double[][] {{0.5, 0.5}}, new double[] {1, 0});
        assertThrows(IllegalArgumentException.class, () -> FaithfulPoissonGaussianSimulator.of(skewed, subsampled(0.5, 1, 1, 1)));
    }
}

package io.dpaudit.mechanisms.dpfed;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.dpaudit.core.numerics.BluesteinDft;
import io.dpaudit.core.rng.RandomStreams;
import org.apache.commons.rng.UniformRandomProvider;
import org.ejml.data.DMatrixRMaj;
import org.ejml.dense.row.CommonOps_DDRM;
import org.junit.jupiter.api.Test;

/**
 * Laplacian smoothing: the FFT inverse (Eq. 2) against a direct dense solve by EJML, the closed-form eigenvalues
 * against the paper's {@code 1 - s fft(d)}, and the stencil against the matrix. All deterministic.
 */
class LaplacianSmoothingTest {
    private static final int[] DIMENSIONS = {1, 2, 3, 7, 64, 100, 256, 1000};

    @Test
    void fftInverseEqualsDenseSolve() {
        UniformRandomProvider rng = RandomStreams.auxiliary(11);
        for (int d : DIMENSIONS) {
            for (double s : new double[] {0.0, 0.5, 1.0, 3.0}) {
                LaplacianSmoothing ls = new LaplacianSmoothing(d, s);
                double[] v = new double[d];
                for (int i = 0; i < d; i++) {
                    v[i] = rng.nextDouble() * 2 - 1;
                }
                DMatrixRMaj a = new DMatrixRMaj(ls.matrix());
                DMatrixRMaj b = new DMatrixRMaj(d, 1, true, v);
                DMatrixRMaj x = new DMatrixRMaj(d, 1);
                assertTrue(CommonOps_DDRM.solve(a, b, x), "EJML solve, D = " + d);
                double[] fft = ls.applyInverse(v);
                for (int i = 0; i < d; i++) {
                    assertEquals(x.get(i, 0), fft[i], 1e-11, "D = " + d + ", s = " + s + ", i = " + i);
                }
                double[] back = ls.apply(fft);
                for (int i = 0; i < d; i++) {
                    assertEquals(v[i], back[i], 1e-11);
                }
            }
        }
    }

    @Test
    void eigenvaluesAreOneMinusSTimesDftOfTheStencil() {
        for (int d : DIMENSIONS) {
            double s = 1.7;
            double[] re = new double[d];
            double[] im = new double[d];
            // d = [-2, 1, 0, ..., 0, 1] (for D = 1 the chain is a self-loop pair, for D = 2 one neighbour twice)
            re[0] += -2;
            re[1 % d] += 1;
            re[(d - 1) % d] += 1;
            BluesteinDft dft = new BluesteinDft(d);
            dft.forward(re, im, dft.newScratch());
            LaplacianSmoothing ls = new LaplacianSmoothing(d, s);
            for (int k = 0; k < d; k++) {
                assertEquals(1 - s * re[k], ls.eigenvalue(k), 1e-12, "D = " + d + ", k = " + k);
                assertEquals(0.0, im[k], 1e-12);
                assertTrue(ls.eigenvalue(k) >= 1.0);
            }
        }
    }

    @Test
    void matrixIsThePeriodicChain() {
        double[][] a = new LaplacianSmoothing(5, 2.0).matrix();
        assertEquals(5.0, a[0][0]);
        assertEquals(-2.0, a[0][1]);
        assertEquals(-2.0, a[0][4]);
        assertEquals(0.0, a[0][2]);
        assertEquals(-2.0, a[4][0]);
    }
}

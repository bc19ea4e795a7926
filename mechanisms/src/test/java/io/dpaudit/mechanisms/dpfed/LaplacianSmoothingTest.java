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
 * Laplacian smoothing: the FFT inverse (Eq. 2) and the recursive periodic solve against a direct dense solve by EJML
 * and against each other, the closed-form eigenvalues against the paper's {@code 1 - s fft(d)}, and the stencil
 * against the matrix. All deterministic.
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
                double[] fft = ls.applyInverseSpectral(v);
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

    /**
     * The recursive solve against the dense solve, relative to the largest entry of the solution, for smoothing
     * factors up to {@link LaplacianSmoothing#MAX_RECURSIVE_SMOOTHING} (where {@code 1 - r} is smallest and errors
     * are largest) to within {@code 1e-12}, and one beyond it (the spectral path) to within {@code 1e-12} times the
     * condition number {@code 1 + 4s} over that at the limit (the dense solve itself errs by about
     * {@code (1 + 4s)} units in the last place there).
     */
    @Test
    void recursiveInverseEqualsDenseSolve() {
        UniformRandomProvider rng = RandomStreams.auxiliary(12);
        for (int d : DIMENSIONS) {
            for (double s : new double[] {1e-9, 0.01, 0.5, 3.0, 100.0, LaplacianSmoothing.MAX_RECURSIVE_SMOOTHING,
                    1e6}) {
                LaplacianSmoothing ls = new LaplacianSmoothing(d, s);
                double[] v = new double[d];
                for (int i = 0; i < d; i++) {
                    v[i] = rng.nextDouble() * 2 - 1;
                }
                v[rng.nextInt(d)] = 40; // a spike, as the canary is
                DMatrixRMaj a = new DMatrixRMaj(ls.matrix());
                DMatrixRMaj x = new DMatrixRMaj(d, 1);
                assertTrue(CommonOps_DDRM.solve(a, new DMatrixRMaj(d, 1, true, v), x), "EJML solve, D = " + d);
                double[] rec = ls.applyInverseRecursive(v);
                double max = 0;
                for (int i = 0; i < d; i++) {
                    max = Math.max(max, Math.abs(x.get(i, 0)));
                }
                for (int i = 0; i < d; i++) {
                    double conditioning = Math.max(1, (1 + 4 * s) / (1 + 4 * LaplacianSmoothing.MAX_RECURSIVE_SMOOTHING));
                    assertEquals(x.get(i, 0), rec[i], 1e-12 * max * conditioning,
                            "D = " + d + ", s = " + s + ", i = " + i);
                }
            }
        }
    }

    /**
     * In place on many consecutive vectors (four at a time, interleaved, plus a remainder), with an output scale:
     * every coordinate equals the scaled Eq. (2) FFT of its own vector.
     */
    @Test
    void inPlaceBlocksEqualTheSpectralInverseOfEachVector() {
        UniformRandomProvider rng = RandomStreams.auxiliary(13);
        for (int d : new int[] {1, 2, 3, 7, 256}) {
            for (double s : new double[] {0.0, 0.5, 3.0}) {
                LaplacianSmoothing ls = new LaplacianSmoothing(d, s);
                for (int blocks = 1; blocks <= 9; blocks++) {
                    int offset = 5;
                    double[] data = new double[offset + blocks * d + 3];
                    for (int i = 0; i < data.length; i++) {
                        data[i] = rng.nextDouble() * 4 - 2;
                    }
                    double[] before = data.clone();
                    ls.applyInverseInPlace(data, offset, blocks, 0.75, ls.newWorkspace());
                    for (int b = 0; b < blocks; b++) {
                        double[] v = java.util.Arrays.copyOfRange(before, offset + b * d, offset + (b + 1) * d);
                        double[] want = ls.applyInverseSpectral(v);
                        for (int i = 0; i < d; i++) {
                            assertEquals(0.75 * want[i], data[offset + b * d + i], 1e-13,
                                    "D = " + d + ", s = " + s + ", block " + b + " of " + blocks + ", i = " + i);
                        }
                    }
                    for (int i = 0; i < offset; i++) {
                        assertEquals(before[i], data[i], 0.0, "untouched before the blocks");
                    }
                    for (int i = offset + blocks * d; i < data.length; i++) {
                        assertEquals(before[i], data[i], 0.0, "untouched after the blocks");
                    }
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

package io.dpaudit.mechanisms.dpfed;

import io.dpaudit.core.Checks;
import io.dpaudit.core.numerics.BluesteinDft;
import io.dpaudit.core.numerics.Fft;

/**
 * Laplacian smoothing (Osher et al. 2018; seed 003, Liang et al., Section 4): the operator
 * {@code A_s = I + s L} on {@code R^D}, with {@code L} the graph Laplacian of the <i>periodic</i> 1-D chain
 * ({@code A(i, i) = 1 + 2s}, {@code A(i, i +- 1 mod D) = -s}), and its inverse.
 *
 * <p>{@code A_s} is circulant, so its eigenvectors are the Fourier modes and its eigenvalues are
 * {@code lambda_k = 1 - s DFT(d)_k = 1 + 4 s sin^2(pi k / D)}, {@code k = 0..D-1}, where
 * {@code d = [-2, 1, 0, ..., 0, 1]}: this is the paper's Eq. (2),
 * {@code A_s^{-1} v = ifft(fft(v) / (1 - s fft(d)))}, with {@code DFT(d)_k = -2 + 2 cos(2 pi k / D)} written in
 * closed form (the identity is tested). All eigenvalues are {@code >= 1}, so {@code A_s} is invertible for every
 * {@code s >= 0} and smoothing is an invertible post-processing: it cannot change the privacy of what is released.
 * The chain is periodic because Eq. (2) is a circular convolution; the seed's text describes the chain without
 * saying so, its Eq. (2) fixes it. For {@code D = 1} the operator is the identity; for {@code D = 2} both neighbours
 * of a coordinate are the other one.
 *
 * <p>The inverse is applied by DFTs of length {@code D}: for a power of two by the real-input transforms of
 * {@link Fft} (half-length complex transforms on a twiddle table computed once, no allocation per call), for any other
 * {@code D} by {@link BluesteinDft}. Immutable; callers bring a {@link Workspace} each.
 */
public final class LaplacianSmoothing {
    private final int dimension;
    private final double smoothing;
    private final double[] inverseEigenvalues;
    private final BluesteinDft dft;
    /** Whether {@code D} is a power of two (at least 2): the real-input radix-2 path. */
    private final boolean realRadix2;

    /**
     * @param dimension {@code D >= 1}
     * @param smoothing the factor {@code s >= 0} (the paper's sigma; 0 is the identity)
     */
    public LaplacianSmoothing(int dimension, double smoothing) {
        if (dimension < 1) {
            throw new IllegalArgumentException("dimension must be >= 1: " + dimension);
        }
        this.dimension = dimension;
        this.smoothing = Checks.nonNegative("smoothing", smoothing);
        this.inverseEigenvalues = new double[dimension];
        for (int k = 0; k < dimension; k++) {
            inverseEigenvalues[k] = 1.0 / eigenvalue(k);
        }
        this.realRadix2 = smoothing != 0 && dimension >= 2 && Integer.bitCount(dimension) == 1;
        this.dft = smoothing == 0 || realRadix2 ? null : new BluesteinDft(dimension);
    }

    /** {@code D}. */
    public int dimension() {
        return dimension;
    }

    /** The smoothing factor {@code s}. */
    public double smoothing() {
        return smoothing;
    }

    /** {@code lambda_k = 1 + 4 s sin^2(pi k / D)}. */
    public double eigenvalue(int k) {
        double sin = Math.sin(Math.PI * k / dimension);
        return 1.0 + 4.0 * smoothing * sin * sin;
    }

    /** Scratch arrays for one thread. */
    public Workspace newWorkspace() {
        return new Workspace(realRadix2 ? dimension / 2 + 1 : dimension, dft);
    }

    /** Work arrays of one caller. */
    public static final class Workspace {
        private final double[] re;
        private final double[] im;
        private final BluesteinDft.Scratch scratch;

        Workspace(int dimension, BluesteinDft dft) {
            re = new double[dimension];
            im = new double[dimension];
            scratch = dft == null ? null : dft.newScratch();
        }
    }

    /**
     * {@code out[outOffset, +D) = A_s^{-1} in[inOffset, +D)}; {@code in} and {@code out} may be the same region.
     */
    public void applyInverse(double[] in, int inOffset, double[] out, int outOffset, Workspace w) {
        if (smoothing == 0) {
            System.arraycopy(in, inOffset, out, outOffset, dimension);
            return;
        }
        double[] re = w.re;
        double[] im = w.im;
        if (realRadix2) {
            // Real input, real symmetric eigenvalues: the half spectrum k = 0..D/2 carries everything.
            Fft.forwardReal(in, inOffset, dimension, dimension, re, im);
            for (int k = 0; k < re.length; k++) {
                re[k] *= inverseEigenvalues[k];
                im[k] *= inverseEigenvalues[k];
            }
            Fft.inverseReal(re, im, dimension, out, outOffset);
            return;
        }
        System.arraycopy(in, inOffset, re, 0, dimension);
        java.util.Arrays.fill(im, 0.0);
        dft.forward(re, im, w.scratch);
        for (int k = 0; k < dimension; k++) {
            re[k] *= inverseEigenvalues[k];
            im[k] *= inverseEigenvalues[k];
        }
        dft.inverse(re, im, w.scratch);
        System.arraycopy(re, 0, out, outOffset, dimension);
    }

    /** {@code A_s^{-1} v}, allocating (for set-up, not for hot loops). */
    public double[] applyInverse(double[] v) {
        checkLength(v);
        double[] out = new double[dimension];
        applyInverse(v, 0, out, 0, newWorkspace());
        return out;
    }

    /** {@code A_s v} by its stencil, allocating (for set-up and tests). */
    public double[] apply(double[] v) {
        checkLength(v);
        int d = dimension;
        double[] out = new double[d];
        for (int i = 0; i < d; i++) {
            double left = v[(i - 1 + d) % d];
            double right = v[(i + 1) % d];
            out[i] = (1 + 2 * smoothing) * v[i] - smoothing * (left + right);
        }
        return out;
    }

    /** The dense matrix {@code A_s} (for tests and small dimensions). */
    public double[][] matrix() {
        double[][] a = new double[dimension][];
        for (int j = 0; j < dimension; j++) {
            double[] e = new double[dimension];
            e[j] = 1;
            double[] col = apply(e);
            for (int i = 0; i < dimension; i++) {
                if (a[i] == null) {
                    a[i] = new double[dimension];
                }
                a[i][j] = col[i];
            }
        }
        return a;
    }

    private void checkLength(double[] v) {
        if (v.length != dimension) {
            throw new IllegalArgumentException("vector of length " + v.length + ", operator of dimension " + dimension);
        }
    }
}

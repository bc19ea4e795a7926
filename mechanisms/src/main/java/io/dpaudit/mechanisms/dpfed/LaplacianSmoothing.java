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
 * <p>Two ways to apply the inverse, equal up to rounding (tested against each other and against a dense solve):
 * <ul>
 *   <li>{@link #applyInverseSpectral}: the paper's Eq. (2) literally, by DFTs of length {@code D} (for a power of two
 *       the real-input transforms of {@link Fft} on a twiddle table computed once, else {@link BluesteinDft}).</li>
 *   <li>{@link #applyInverseInPlace}: an {@code O(D)} periodic solve, the hot path of the faithful simulator. The
 *       symbol of {@code A_s} factors as {@code 1 + 2s - s(z + 1/z) = (s/r)(1 - r z)(1 - r/z)} with
 *       {@code r = 2s / (1 + 2s + sqrt(1 + 4s))} the root in {@code (0, 1)} of {@code s r^2 - (1 + 2s) r + s}, so
 *       {@code A_s^{-1} = (r/s) (I - r S)^{-1} (I - r S^{-1})^{-1}} with {@code S} the cyclic shift. Each factor is
 *       a first-order recursion run once from zero, then corrected for the wrap-around by a closed form: for
 *       {@code w[n] = x[n] + r w[n-1 mod D]}, the zero-started {@code p[n]} gives {@code w[n] = p[n] + r^{n+1}
 *       w[D-1]} and {@code w[D-1] = p[D-1] / (1 - r^D)} (the backward factor mirrors it). Four vectors are solved
 *       interleaved, so the recursions' latencies overlap. Used for {@code s <= }{@link #MAX_RECURSIVE_SMOOTHING};
 *       beyond it {@code r} is so close to 1 that the spectral path is the accurate one, and is used instead.</li>
 * </ul>
 * Immutable; callers bring a {@link Workspace} each for the spectral path.
 */
public final class LaplacianSmoothing {
    private final int dimension;
    private final double smoothing;
    private final double[] inverseEigenvalues;
    private final BluesteinDft dft;
    /** Whether {@code D} is a power of two (at least 2): the real-input radix-2 path. */
    private final boolean realRadix2;
    /** Whether {@link #applyInverseInPlace} uses the recursive solve (else the spectral path). */
    private final boolean recursive;
    /** The root {@code r} in (0, 1) of the factorisation, and the gain {@code r / s}. */
    private final double root;
    private final double gain;
    /** {@code 1 / (1 - r^D)}. */
    private final double wrap;
    /** {@code r^k}, {@code k = 0..D}. */
    private final double[] powers;

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
        this.recursive = smoothing > 0 && dimension >= 2 && smoothing <= MAX_RECURSIVE_SMOOTHING;
        this.root = smoothing > 0 ? 2 * smoothing / (1 + 2 * smoothing + Math.sqrt(1 + 4 * smoothing)) : 0;
        this.gain = smoothing > 0 ? root / smoothing : 1;
        this.powers = new double[dimension + 1];
        for (int k = 0; k <= dimension; k++) {
            powers[k] = Math.pow(root, k);
        }
        this.wrap = recursive ? -1.0 / Math.expm1(dimension * Math.log(root)) : 1;
    }

    /**
     * Largest smoothing factor for which {@link #applyInverseInPlace} uses the recursive solve. At {@code s = 1000},
     * {@code 1 - r = 0.031}; the measured error against a dense solve stays at the 1e-13 level up to there (tested).
     */
    public static final double MAX_RECURSIVE_SMOOTHING = 1000;

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
     * {@code data[offset + b D, +D) = scale A_s^{-1} data[offset + b D, +D)} for each of {@code blocks} consecutive
     * vectors, in place, by the recursive solve (the spectral path for {@code s >} {@link #MAX_RECURSIVE_SMOOTHING}).
     * Allocates nothing on the recursive path.
     */
    public void applyInverseInPlace(double[] data, int offset, int blocks, double scale, Workspace w) {
        int d = dimension;
        if (smoothing == 0 || d == 1) {
            if (scale != 1) {
                for (int i = offset, end = offset + blocks * d; i < end; i++) {
                    data[i] *= scale;
                }
            }
            return;
        }
        if (!recursive) {
            for (int b = 0; b < blocks; b++) {
                int o = offset + b * d;
                applyInverseSpectral(data, o, data, o, w);
                for (int i = o; i < o + d; i++) {
                    data[i] *= scale;
                }
            }
            return;
        }
        int b = 0;
        for (; b + 4 <= blocks; b += 4) {
            solveFour(data, offset + b * d, scale);
        }
        for (; b < blocks; b++) {
            solveOne(data, offset + b * d, scale);
        }
    }

    /** The recursive solve of one vector at {@code o}, times {@code scale}. */
    private void solveOne(double[] x, int o, double scale) {
        int d = dimension;
        double r = root;
        double p = 0;
        for (int n = 0; n < d; n++) { // forward factor, started from zero
            p = x[o + n] + r * p;
            x[o + n] = p;
        }
        // backward factor, started from zero, on w[n] = p[n] + r^{n+1} w[D-1] (the forward wrap-around correction)
        double last = p * wrap;
        double q = last;
        x[o + d - 1] = q;
        for (int n = d - 2; n >= 0; n--) {
            q = (x[o + n] + powers[n + 1] * last) + r * q;
            x[o + n] = q;
        }
        correctBackward(x, o, q * wrap, gain * scale);
    }

    /** The recursive solve of the four consecutive vectors at {@code o}, interleaved, times {@code scale}. */
    private void solveFour(double[] x, int o, double scale) {
        int d = dimension;
        double r = root;
        int o1 = o + d;
        int o2 = o1 + d;
        int o3 = o2 + d;
        double p0 = 0;
        double p1 = 0;
        double p2 = 0;
        double p3 = 0;
        for (int n = 0; n < d; n++) {
            p0 = x[o + n] + r * p0;
            p1 = x[o1 + n] + r * p1;
            p2 = x[o2 + n] + r * p2;
            p3 = x[o3 + n] + r * p3;
            x[o + n] = p0;
            x[o1 + n] = p1;
            x[o2 + n] = p2;
            x[o3 + n] = p3;
        }
        // backward factors, started from zero, on w[n] = p[n] + r^{n+1} w[D-1] (the forward wrap-around correction)
        double l0 = p0 * wrap;
        double l1 = p1 * wrap;
        double l2 = p2 * wrap;
        double l3 = p3 * wrap;
        double q0 = l0;
        double q1 = l1;
        double q2 = l2;
        double q3 = l3;
        x[o + d - 1] = q0;
        x[o1 + d - 1] = q1;
        x[o2 + d - 1] = q2;
        x[o3 + d - 1] = q3;
        for (int n = d - 2; n >= 0; n--) {
            double power = powers[n + 1];
            q0 = (x[o + n] + power * l0) + r * q0;
            q1 = (x[o1 + n] + power * l1) + r * q1;
            q2 = (x[o2 + n] + power * l2) + r * q2;
            q3 = (x[o3 + n] + power * l3) + r * q3;
            x[o + n] = q0;
            x[o1 + n] = q1;
            x[o2 + n] = q2;
            x[o3 + n] = q3;
        }
        double g = gain * scale;
        correctBackward(x, o, q0 * wrap, g);
        correctBackward(x, o1, q1 * wrap, g);
        correctBackward(x, o2, q2 * wrap, g);
        correctBackward(x, o3, q3 * wrap, g);
    }

    /** {@code y[n] = q[n] + r^{D-n} y[0]} for {@code n > 0}, and {@code y[0]}; all times {@code g}. */
    private void correctBackward(double[] x, int o, double first, double g) {
        int d = dimension;
        x[o] = g * first;
        for (int n = 1; n < d; n++) {
            x[o + n] = g * (x[o + n] + powers[d - n] * first);
        }
    }

    /**
     * {@code out[outOffset, +D) = A_s^{-1} in[inOffset, +D)} by the paper's Eq. (2) (DFTs); {@code in} and
     * {@code out} may be the same region.
     */
    public void applyInverseSpectral(double[] in, int inOffset, double[] out, int outOffset, Workspace w) {
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

    /** {@code A_s^{-1} v} by Eq. (2), allocating (for set-up, not for hot loops). */
    public double[] applyInverseSpectral(double[] v) {
        checkLength(v);
        double[] out = new double[dimension];
        applyInverseSpectral(v, 0, out, 0, newWorkspace());
        return out;
    }

    /** {@code A_s^{-1} v} by the recursive solve ({@link #applyInverseInPlace}), allocating. */
    public double[] applyInverseRecursive(double[] v) {
        checkLength(v);
        double[] out = v.clone();
        applyInverseInPlace(out, 0, 1, 1.0, newWorkspace());
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

package io.dpaudit.core.numerics;

/**
 * The discrete Fourier transform of any length {@code n >= 1}, {@code X_k = sum_j x_j e^{-2 pi i j k / n}}, by
 * Bluestein's chirp-z identity {@code jk = (j^2 + k^2 - (k - j)^2) / 2}: with the chirp {@code c_j = e^{-pi i j^2 /
 * n}}, {@code X_k = c_k sum_j (x_j c_j) conj(c_{k-j})}, a convolution evaluated by radix-2 {@link Fft}s of length
 * {@code M >= 2n - 1}. Powers of two go straight to {@link Fft}.
 *
 * <p>Accuracy: the chirp angles use {@code j^2 mod 2n}, computed exactly in {@code long} arithmetic, so no angle
 * loses precision for large {@code j}; the round-trip error is that of three radix-2 transforms of length {@code M}
 * (below 1e-13 relative at {@code n = 10^5}, tested). Cost: two length-{@code M} transforms per call (the
 * transform of the chirp is precomputed). An instance is immutable; its scratch space is passed in, so one
 * instance can serve many threads.
 */
public final class BluesteinDft {
    private final int n;
    private final int m;
    private final boolean radix2;
    private final double[] chirpRe;
    private final double[] chirpIm;
    private final double[] kernelRe;
    private final double[] kernelIm;

    /** The transform of length {@code n}. */
    public BluesteinDft(int n) {
        if (n < 1) {
            throw new IllegalArgumentException("DFT length must be >= 1: " + n);
        }
        this.n = n;
        this.radix2 = Integer.bitCount(n) == 1;
        if (radix2) {
            this.m = n;
            this.chirpRe = this.chirpIm = this.kernelRe = this.kernelIm = null;
            return;
        }
        this.m = Integer.highestOneBit(2 * n - 1) << 1;
        chirpRe = new double[n];
        chirpIm = new double[n];
        long twoN = 2L * n;
        for (int j = 0; j < n; j++) {
            long r = ((long) j * j) % twoN;
            double a = Math.PI * r / n;
            chirpRe[j] = Math.cos(a);
            chirpIm[j] = -Math.sin(a);
        }
        // Kernel b_t = conj(c_t) for t in (-n, n), stored circularly.
        kernelRe = new double[m];
        kernelIm = new double[m];
        for (int j = 0; j < n; j++) {
            kernelRe[j] = chirpRe[j];
            kernelIm[j] = -chirpIm[j];
            if (j > 0) {
                kernelRe[m - j] = chirpRe[j];
                kernelIm[m - j] = -chirpIm[j];
            }
        }
        Fft.forward(kernelRe, kernelIm);
    }

    /** The length {@code n}. */
    public int length() {
        return n;
    }

    /** Scratch space for one call at a time. */
    public Scratch newScratch() {
        return new Scratch(m);
    }

    /** Work arrays of one caller. */
    public static final class Scratch {
        final double[] re;
        final double[] im;

        Scratch(int m) {
            re = new double[m];
            im = new double[m];
        }
    }

    /** Forward transform of {@code re + i im} (length {@code n}), in place. */
    public void forward(double[] re, double[] im, Scratch s) {
        transform(re, im, s, false);
    }

    /** Inverse transform, including the factor {@code 1/n}, in place. */
    public void inverse(double[] re, double[] im, Scratch s) {
        transform(re, im, s, true);
        double f = 1.0 / n;
        for (int i = 0; i < n; i++) {
            re[i] *= f;
            im[i] *= f;
        }
    }

    private void transform(double[] re, double[] im, Scratch s, boolean inverse) {
        if (re.length < n || im.length < n) {
            throw new IllegalArgumentException("arrays shorter than the transform length " + n);
        }
        if (radix2) {
            if (re.length != n || im.length != n) {
                System.arraycopy(re, 0, s.re, 0, n);
                System.arraycopy(im, 0, s.im, 0, n);
                if (inverse) {
                    conjugate(s.im, n);
                }
                Fft.forward(s.re, s.im);
                if (inverse) {
                    conjugate(s.im, n);
                }
                System.arraycopy(s.re, 0, re, 0, n);
                System.arraycopy(s.im, 0, im, 0, n);
                return;
            }
            if (inverse) {
                conjugate(im, n);
            }
            Fft.forward(re, im);
            if (inverse) {
                conjugate(im, n);
            }
            return;
        }
        // The inverse transform is the conjugate of the forward transform of the conjugate (before the 1/n).
        double sign = inverse ? -1.0 : 1.0;
        double[] ar = s.re;
        double[] ai = s.im;
        for (int j = 0; j < n; j++) {
            double xr = re[j];
            double xi = sign * im[j];
            ar[j] = xr * chirpRe[j] - xi * chirpIm[j];
            ai[j] = xr * chirpIm[j] + xi * chirpRe[j];
        }
        java.util.Arrays.fill(ar, n, m, 0.0);
        java.util.Arrays.fill(ai, n, m, 0.0);
        Fft.forward(ar, ai);
        for (int t = 0; t < m; t++) {
            double xr = ar[t];
            double xi = ai[t];
            ar[t] = xr * kernelRe[t] - xi * kernelIm[t];
            ai[t] = xr * kernelIm[t] + xi * kernelRe[t];
        }
        // Inverse radix-2 transform via conjugation, then the 1/m factor.
        conjugate(ai, m);
        Fft.forward(ar, ai);
        double f = 1.0 / m;
        for (int k = 0; k < n; k++) {
            double yr = ar[k] * f;
            double yi = -ai[k] * f;
            double zr = yr * chirpRe[k] - yi * chirpIm[k];
            double zi = yr * chirpIm[k] + yi * chirpRe[k];
            re[k] = zr;
            im[k] = sign * zi;
        }
    }

    private static void conjugate(double[] im, int len) {
        for (int i = 0; i < len; i++) {
            im[i] = -im[i];
        }
    }
}

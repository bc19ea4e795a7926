package io.dpaudit.core.numerics;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.apache.commons.rng.UniformRandomProvider;
import org.apache.commons.rng.simple.RandomSource;
import org.junit.jupiter.api.Test;

class FftTest {
    @Test
    void matchesTheDirectTransform() {
        int n = 1 << 9;
        UniformRandomProvider rng = RandomSource.XO_SHI_RO_256_PP.create(3L);
        double[] x = new double[n];
        double[] y = new double[n];
        for (int i = 0; i < n; i++) {
            x[i] = rng.nextDouble() - 0.5;
            y[i] = rng.nextDouble() - 0.5;
        }
        double[] re = x.clone();
        double[] im = y.clone();
        Fft.forward(re, im);
        for (int k = 0; k < n; k += 37) {
            double sr = 0;
            double si = 0;
            for (int j = 0; j < n; j++) {
                double a = -2 * Math.PI * (((long) j * k) % n) / n;
                sr += x[j] * Math.cos(a) - y[j] * Math.sin(a);
                si += x[j] * Math.sin(a) + y[j] * Math.cos(a);
            }
            assertEquals(sr, re[k], 1e-12, "re " + k);
            assertEquals(si, im[k], 1e-12, "im " + k);
        }
    }

    /**
     * The bit-reversal permutation by its definition, at every length from 2 to 2^22: the plain loop below 2^14, the
     * tiled one of 32 x 32 from 2^14 and of 64 x 64 from 2^22 (with and without a middle index, with tiles that are
     * their own mates and tiles that trade places).
     */
    @Test
    void bitReversalPutsEveryEntryAtItsReversedIndex() {
        for (int bits = 1; bits <= 22; bits++) {
            int n = 1 << bits;
            double[] re = new double[n];
            double[] im = new double[n];
            for (int i = 0; i < n; i++) {
                re[i] = i;
                im[i] = -i;
            }
            Fft.bitReverse(re, im, n);
            for (int i = 0; i < n; i++) {
                int from = Integer.reverse(i) >>> (32 - bits);
                if (re[i] != from || im[i] != -from) {
                    throw new AssertionError("length 2^" + bits + ": entry " + i + " holds " + re[i] + ", " + im[i]
                            + " instead of entry " + from);
                }
            }
        }
    }

    /**
     * The transform of a zero-padded sequence that skips the stages acting on zeros gives the full transform's values
     * bit for bit (a zero's sign aside: {@code ==}), at every length 2 to 2^20 and for nonzero prefixes from one entry
     * to the whole sequence, including lengths just above and below a power of two.
     */
    @Test
    void zeroPaddedTransformEqualsTheFullOneBitForBit() {
        UniformRandomProvider rng = RandomSource.XO_SHI_RO_256_PP.create(6L);
        int compared = 0;
        for (int bits = 1; bits <= 20; bits++) {
            int n = 1 << bits;
            for (int nonzero : new int[] {1, 2, 3, n / 64 - 1, n / 64, n / 64 + 1, n / 8 + 1, n / 2, n}) {
                if (nonzero < 1 || nonzero > n) {
                    continue;
                }
                double[] re = new double[n];
                double[] im = new double[n];
                for (int j = 0; j < nonzero; j++) {
                    re[j] = rng.nextDouble();
                    im[j] = rng.nextDouble() - 0.5;
                }
                double[] fullRe = re.clone();
                double[] fullIm = im.clone();
                Fft.forward(fullRe, fullIm);
                Fft.forwardZeroPadded(re, im, n, nonzero);
                for (int k = 0; k < n; k++) {
                    if (re[k] != fullRe[k] || im[k] != fullIm[k]) {
                        throw new AssertionError("length " + n + ", " + nonzero + " nonzero: X_" + k + " = " + re[k]
                                + " + " + im[k] + "i against " + fullRe[k] + " + " + fullIm[k] + "i");
                    }
                }
                compared++;
            }
        }
        assertTrue(compared >= 150, "compared " + compared);
    }

    /**
     * The stages up to {@link Fft#BLOCK} run block by block (in cache) rather than stage by stage over the whole array:
     * the same butterflies in another order, so the values must be identical bit for bit to the stage-by-stage
     * transform (written out here as it was), forward and inverse, below, at and above the block size.
     */
    @Test
    void blockedStagesEqualTheStageByStageOrderBitForBit() {
        UniformRandomProvider rng = RandomSource.XO_SHI_RO_256_PP.create(8L);
        for (int bits = 1; bits <= 18; bits++) {
            int n = 1 << bits;
            for (boolean inverse : new boolean[] {false, true}) {
                double[] re = new double[n];
                double[] im = new double[n];
                for (int j = 0; j < n; j++) {
                    re[j] = rng.nextDouble() - 0.5;
                    im[j] = rng.nextDouble() - 0.5;
                }
                double[] refRe = re.clone();
                double[] refIm = im.clone();
                stageByStage(refRe, refIm, inverse);
                if (inverse) {
                    Fft.inverse(re, im);
                    for (int j = 0; j < n; j++) { // inverse() scales by 1/n after the transform
                        refRe[j] *= 1.0 / n;
                        refIm[j] *= 1.0 / n;
                    }
                } else {
                    Fft.forward(re, im);
                }
                for (int k = 0; k < n; k++) {
                    if (Double.doubleToRawLongBits(re[k]) != Double.doubleToRawLongBits(refRe[k])
                            || Double.doubleToRawLongBits(im[k]) != Double.doubleToRawLongBits(refIm[k])) {
                        throw new AssertionError("length " + n + (inverse ? " inverse" : " forward") + ": X_" + k
                                + " = " + re[k] + " + " + im[k] + "i against " + refRe[k] + " + " + refIm[k] + "i");
                    }
                }
            }
        }
    }

    /** The transform stage by stage over the whole array (bit reversal, sizes 2 and 4 exact, then radix 2). */
    private static void stageByStage(double[] re, double[] im, boolean inverse) {
        int n = re.length;
        if (n == 1) {
            return;
        }
        int bits = Integer.numberOfTrailingZeros(n);
        for (int i = 0; i < n; i++) {
            int j = Integer.reverse(i) >>> (32 - bits);
            if (j > i) {
                double t = re[i];
                re[i] = re[j];
                re[j] = t;
                t = im[i];
                im[i] = im[j];
                im[j] = t;
            }
        }
        double sign = inverse ? 1.0 : -1.0;
        for (int size = 2; size <= n; size <<= 1) {
            int half = size >>> 1;
            for (int start = 0; start < n; start += size) {
                for (int k = 0; k < half; k++) {
                    int a = start + k;
                    int b = a + half;
                    double xr;
                    double xi;
                    if (size == 2) {
                        xr = re[b];
                        xi = im[b];
                    } else if (size == 4 && k == 1) {
                        xr = -sign * im[b];
                        xi = sign * re[b];
                    } else if (size == 4) {
                        xr = re[b];
                        xi = im[b];
                    } else {
                        double angle = 2 * Math.PI * k / (2 * half);
                        double wr = Math.cos(angle);
                        double wi = sign * Math.sin(angle);
                        xr = re[b] * wr - im[b] * wi;
                        xi = re[b] * wi + im[b] * wr;
                    }
                    re[b] = re[a] - xr;
                    im[b] = im[a] - xi;
                    re[a] += xr;
                    im[a] += xi;
                }
            }
        }
    }

    /** The property the PLD accountant relies on: round-trip error of order 1e-15, not growing with the length. */
    @Test
    void roundTripIsAccurateAtLargeLengths() {
        int n = 1 << 20;
        UniformRandomProvider rng = RandomSource.XO_SHI_RO_256_PP.create(4L);
        double[] x = new double[n];
        for (int i = 0; i < n; i++) {
            x[i] = rng.nextDouble();
        }
        double[] re = x.clone();
        double[] im = new double[n];
        Fft.forward(re, im);
        Fft.inverse(re, im);
        double err = 0;
        for (int i = 0; i < n; i++) {
            err = Math.max(err, Math.abs(re[i] - x[i]));
        }
        assertTrue(err < 1e-14, "round trip error " + err);
    }

    @Test
    void circularConvolutionOfTwoPointMassesIsAPointMass() {
        int n = 16;
        double[] re = new double[n];
        double[] im = new double[n];
        re[3] = 1;
        Fft.forward(re, im);
        for (int k = 0; k < n; k++) { // square: convolve with itself
            double a = re[k] * re[k] - im[k] * im[k];
            im[k] = 2 * re[k] * im[k];
            re[k] = a;
        }
        Fft.inverse(re, im);
        for (int i = 0; i < n; i++) {
            assertEquals(i == 6 ? 1.0 : 0.0, re[i], 1e-15, "index " + i);
        }
        assertThrows(IllegalArgumentException.class, () -> Fft.forward(new double[12], new double[12]));
    }

    /** The real transforms agree with the complex one (half spectrum) and invert it, at small and large lengths. */
    @Test
    void realTransformsAgreeWithTheComplexOne() {
        UniformRandomProvider rng = RandomSource.XO_SHI_RO_256_PP.create(5L);
        for (int n : new int[] {2, 4, 8, 16, 64, 1 << 12, 1 << 20}) {
            int used = Math.max(1, n - n / 3);
            double[] x = new double[used];
            for (int i = 0; i < used; i++) {
                x[i] = rng.nextDouble();
            }
            double[] re = new double[n];
            double[] im = new double[n];
            System.arraycopy(x, 0, re, 0, used);
            Fft.forward(re, im);
            double[] hr = new double[n / 2 + 1];
            double[] hi = new double[n / 2 + 1];
            Fft.forwardReal(x, n, hr, hi);
            double scale = Math.max(1, used);
            for (int k = 0; k <= n / 2; k++) {
                assertEquals(re[k], hr[k], 1e-14 * scale, "n=" + n + " re " + k);
                assertEquals(im[k], hi[k], 1e-14 * scale, "n=" + n + " im " + k);
            }
            double[] back = Fft.inverseReal(hr, hi, n);
            for (int j = 0; j < n; j++) {
                assertEquals(j < used ? x[j] : 0.0, back[j], 1e-14, "n=" + n + " round trip " + j);
            }
        }
        assertThrows(IllegalArgumentException.class, () -> Fft.forwardReal(new double[3], 12, new double[7],
                new double[7]));
    }
}

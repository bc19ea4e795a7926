package io.dpaudit.core.accounting;

import static org.junit.jupiter.api.Assertions.assertTrue;

import org.apache.commons.rng.UniformRandomProvider;
import org.apache.commons.rng.simple.RandomSource;
import org.junit.jupiter.api.Test;

/**
 * The spectrum powers of a composition ({@link PmfComposition#multiplyByPowers}): its shortcut to zero and its
 * lockstep pairs leave every value what the plain binary powering gives (compared with {@code ==}, so a zero's sign
 * aside), for bases of every magnitude from 0 to 1 (where the shortcut starts and on both sides of it) and exponents
 * from 1 to 2^40.
 */
class PrivacyLossPmfPowerTest {
    /** The binary powering without shortcuts. */
    private static double[] plain(double br, double bi, long count) {
        double pr = 1;
        double pi = 0;
        for (long e = count; ; ) {
            if ((e & 1) != 0) {
                double a = pr * br - pi * bi;
                pi = pr * bi + pi * br;
                pr = a;
            }
            e >>>= 1;
            if (e == 0) {
                break;
            }
            double a = br * br - bi * bi;
            bi = 2 * br * bi;
            br = a;
        }
        return new double[] {pr, pi};
    }

    /**
     * The spectrum's products, two entries at a time in lockstep: the same values as the plain powering entry by entry,
     * both setting ({@code first}) and multiplying, over odd and even lengths, a decaying spectrum (most powers zero)
     * and a few-atom one (|b| near 1 everywhere).
     */
    @Test
    void lockstepProductsEqualThePlainOnes() {
        UniformRandomProvider rng = RandomSource.XO_SHI_RO_256_PP.create(8L);
        for (long count : new long[] {1, 2, 3, 1000, 100_000, 1_000_000}) {
            for (int half : new int[] {1, 2, 7, 4096, 4097}) {
                for (boolean decaying : new boolean[] {true, false}) {
                    double[] fr = new double[half];
                    double[] fi = new double[half];
                    double[] re = new double[half];
                    double[] im = new double[half];
                    for (int k = 0; k < half; k++) {
                        double magnitude = decaying ? Math.exp(-30.0 * k / half) : 1 - 0.2 * rng.nextDouble();
                        double angle = 2 * Math.PI * rng.nextDouble();
                        fr[k] = magnitude * Math.cos(angle);
                        fi[k] = magnitude * Math.sin(angle);
                        re[k] = rng.nextDouble() - 0.5;
                        im[k] = rng.nextDouble() - 0.5;
                    }
                    for (boolean first : new boolean[] {true, false}) {
                        double[] gotRe = re.clone();
                        double[] gotIm = im.clone();
                        PmfComposition.multiplyByPowers(fr, fi, count, gotRe, gotIm, half, first);
                        for (int k = 0; k < half; k++) {
                            double[] p = plain(fr[k], fi[k], count);
                            double wantRe = first ? p[0] : re[k] * p[0] - im[k] * p[1];
                            double wantIm = first ? p[1] : re[k] * p[1] + im[k] * p[0];
                            if (gotRe[k] != wantRe || gotIm[k] != wantIm) {
                                throw new AssertionError("count " + count + ", length " + half + ", entry " + k
                                        + (first ? " (set)" : " (multiplied)") + ": " + gotRe[k] + " + " + gotIm[k]
                                        + "i against " + wantRe + " + " + wantIm + "i");
                            }
                        }
                    }
                }
            }
        }
    }

    @Test
    void shortcutsToZeroChangeNoValue() {
        UniformRandomProvider rng = RandomSource.XO_SHI_RO_256_PP.create(7L);
        long[] counts = {2, 3, 4, 5, 7, 100, 1000, 4097, 65_537, 1_000_000, 1_000_001, (1L << 30) + 12_345, 1L << 40};
        int zeros = 0;
        int nonzeros = 0;
        for (long count : counts) {
            // |b| where |b|^(count/4) is 2^-600, the sufficient condition's edge: the shortcut starts near there.
            double edge = Math.pow(2, -2400.0 / count);
            for (int i = 0; i < 20_000; i++) {
                double magnitude = switch (i % 4) {
                    case 0 -> rng.nextDouble();
                    case 1 -> Math.min(1, edge * Math.exp((rng.nextDouble() - 0.5) * 2400.0 / count));
                    case 2 -> Math.pow(2, -1100 * rng.nextDouble());
                    default -> 1 - Math.pow(2, -60 * rng.nextDouble());
                };
                double angle = 2 * Math.PI * rng.nextDouble();
                double br = magnitude * Math.cos(angle);
                double bi = magnitude * Math.sin(angle);
                double[] expected = plain(br, bi, count);
                double[] outRe = new double[1];
                double[] outIm = new double[1];
                PmfComposition.multiplyByPowers(new double[] {br}, new double[] {bi}, count, outRe, outIm, 1, true);
                if (outRe[0] != expected[0] || outIm[0] != expected[1]) {
                    throw new AssertionError("(" + br + " + " + bi + "i)^" + count + ": " + outRe[0] + " + " + outIm[0]
                            + "i against " + expected[0] + " + " + expected[1] + "i");
                }
                if (expected[0] == 0 && expected[1] == 0) {
                    zeros++;
                } else {
                    nonzeros++;
                }
            }
        }
        assertTrue(zeros > 50_000 && nonzeros > 50_000, zeros + " zero powers, " + nonzeros + " others");
    }
}

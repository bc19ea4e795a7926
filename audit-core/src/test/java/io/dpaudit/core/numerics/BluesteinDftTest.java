package io.dpaudit.core.numerics;

import static org.junit.jupiter.api.Assertions.assertEquals;

import org.junit.jupiter.api.Test;

/** The chirp-z DFT of any length against the O(n^2) definition, and its round trip. Deterministic. */
class BluesteinDftTest {
    @Test
    void matchesTheDefinitionAndInverts() {
        for (int n : new int[] {1, 2, 3, 5, 12, 64, 100, 257}) {
            double[] re = new double[n];
            double[] im = new double[n];
            for (int i = 0; i < n; i++) {
                re[i] = Math.sin(1.3 * i + 0.2) + 0.1 * i;
                im[i] = Math.cos(0.7 * i * i);
            }
            double[] re0 = re.clone();
            double[] im0 = im.clone();
            BluesteinDft dft = new BluesteinDft(n);
            BluesteinDft.Scratch s = dft.newScratch();
            dft.forward(re, im, s);
            for (int k = 0; k < n; k++) {
                double sr = 0;
                double si = 0;
                for (int j = 0; j < n; j++) {
                    double a = -2 * Math.PI * ((long) j * k % n) / n;
                    sr += re0[j] * Math.cos(a) - im0[j] * Math.sin(a);
                    si += re0[j] * Math.sin(a) + im0[j] * Math.cos(a);
                }
                assertEquals(sr, re[k], 1e-9 * n, "n = " + n + ", k = " + k);
                assertEquals(si, im[k], 1e-9 * n);
            }
            dft.inverse(re, im, s);
            for (int j = 0; j < n; j++) {
                assertEquals(re0[j], re[j], 1e-11 * n);
                assertEquals(im0[j], im[j], 1e-11 * n);
            }
        }
    }
}

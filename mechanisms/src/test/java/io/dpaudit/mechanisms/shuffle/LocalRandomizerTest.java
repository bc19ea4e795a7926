package io.dpaudit.mechanisms.shuffle;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.dpaudit.core.rng.RandomStreams;
import java.util.ArrayList;
import java.util.List;
import org.apache.commons.math3.stat.inference.ChiSquareTest;
import org.apache.commons.rng.UniformRandomProvider;
import org.junit.jupiter.api.Test;

/**
 * Each local randomizer is {@code eps0}-LDP by its output law (checked over every pair of inputs of a finite set that
 * includes the extreme ones), attains {@code e^eps0} on its worst-case pair, samples reports from that law (a
 * chi-square test at level 1e-4 per randomizer on a fixed seed: false-failure probability 1e-4 each), and the sign
 * randomizer is unbiased (exactly, from its law).
 */
class LocalRandomizerTest {
    private static List<double[]> inputs(LocalRandomizer r, UniformRandomProvider rng) {
        List<double[]> in = new ArrayList<>();
        in.add(r.target());
        in.add(r.replacement());
        if (r instanceof RandomizedResponse) {
            return in;
        }
        if (r instanceof KaryRandomizedResponse) {
            for (int c = 0; c < r.symbols(); c++) {
                in.add(new double[] {c});
            }
            return in;
        }
        for (int i = 0; i < 20; i++) {
            double[] x = new double[r.inputDimension()];
            for (int j = 0; j < x.length; j++) {
                x[j] = 2 * rng.nextDouble() - 1; // inside the l-inf ball of radius 1
            }
            in.add(x);
        }
        in.add(new double[r.inputDimension()]);
        return in;
    }

    private static List<LocalRandomizer> randomizers() {
        List<LocalRandomizer> list = new ArrayList<>();
        for (double eps0 : new double[] {0.1, 1.0, 4.0}) {
            list.add(new RandomizedResponse(eps0));
            list.add(new KaryRandomizedResponse(eps0, 5));
            list.add(new SignRandomizer(eps0, 6, 1.0));
        }
        return list;
    }

    @Test
    void everyRandomizerIsEps0LdpByItsOutputLawAndTheWorstPairAttainsIt() {
        UniformRandomProvider rng = RandomStreams.auxiliary(1);
        for (LocalRandomizer r : randomizers()) {
            double bound = Math.exp(r.eps0()) * (1 + 1e-12);
            List<double[]> in = inputs(r, rng);
            for (double[] x : in) {
                double[] px = r.law(x, 0);
                assertEquals(1.0, java.util.Arrays.stream(px).sum(), 1e-12, r.describe());
                for (double[] y : in) {
                    double[] py = r.law(y, 0);
                    for (int s = 0; s < px.length; s++) {
                        assertTrue(px[s] <= bound * py[s], r.describe() + " symbol " + s + ": " + px[s] + " vs "
                                + py[s]);
                    }
                }
            }
            double[] a = r.law(r.target(), 0);
            double[] b = r.law(r.replacement(), 0);
            double max = 0;
            for (int s = 0; s < a.length; s++) {
                max = Math.max(max, a[s] / b[s]);
            }
            assertEquals(Math.exp(r.eps0()), max, 1e-9 * max, r.describe() + ": the worst pair attains e^eps0");
        }
    }

    @Test
    void reportsFollowTheLaw() {
        UniformRandomProvider rng = RandomStreams.auxiliary(2);
        for (LocalRandomizer r : List.of(new RandomizedResponse(1.0), new KaryRandomizedResponse(2.0, 5),
                new SignRandomizer(1.5, 4, 1.0))) {
            double[] x = r instanceof SignRandomizer ? new double[] {0.3, -1, 1, 0.7} : r.target();
            double[] law = r.law(x, 0);
            long[] counts = new long[law.length];
            int n = 200_000;
            for (int i = 0; i < n; i++) {
                counts[r.report(x, 0, rng)]++;
            }
            double[] expected = java.util.Arrays.stream(law).map(p -> p * n).toArray();
            double p = new ChiSquareTest().chiSquareTest(expected, counts);
            assertTrue(p > 1e-4, r.describe() + ": chi-square p = " + p);
        }
    }

    /** E[decoded report] = x for the sign randomizer, coordinate by coordinate, from its exact law. */
    @Test
    void theSignRandomizerIsUnbiased() {
        SignRandomizer r = new SignRandomizer(0.8, 5, 2.0);
        double[] x = {1.2, -2.0, 0.0, 0.4, 2.0};
        double[] law = r.law(x, 0);
        for (int j = 0; j < x.length; j++) {
            double mean = law[2 * j + 1] * r.decodedValue(2 * j + 1) + law[2 * j] * r.decodedValue(2 * j);
            assertEquals(x[j], mean, 1e-12, "coordinate " + j);
        }
    }
}

package io.dpaudit.mechanisms.testing;

import io.dpaudit.core.engine.TrialSampler;
import io.dpaudit.core.engine.World;
import io.dpaudit.core.law.DiscreteLaw;
import io.dpaudit.core.model.MechanismSimulator;
import io.dpaudit.core.model.OutputModel;
import io.dpaudit.core.rng.RandomStreams;
import java.util.Arrays;
import org.apache.commons.math3.stat.inference.ChiSquareTest;

/**
 * Chi-square tests of simulators whose per-round statistic is an atom of a discrete law — valid for discrete laws,
 * where Kolmogorov–Smirnov is not. Atoms with small expected (or total) counts are pooled into one cell.
 */
public final class DiscreteLawTests {
    private DiscreteLawTests() {
    }

    /** Atom counts of the simulator's statistic over {@code trials} trials (all rounds) in one world. */
    public static long[] atomCounts(MechanismSimulator sim, World w, long seed, int atoms, int trials) {
        TrialSampler s = sim.create(new RandomStreams(seed).next());
        OutputModel m = sim.outputModel();
        int length = m.roundDimension();
        double[] out = new double[trials * m.outputLength()];
        s.sample(w, out, trials);
        long[] counts = new long[atoms];
        double[] stat = new double[m.statisticDimension()];
        for (int i = 0; i < trials * m.rounds(); i++) {
            m.statistic().extract(out, i * length, stat);
            counts[(int) stat[0]]++;
        }
        return counts;
    }

    /** Chi-square goodness of fit of counts against a law, pooling atoms with expected counts below 5. */
    public static double goodnessOfFit(long[] counts, DiscreteLaw law) {
        long total = Arrays.stream(counts).sum();
        double[] expected = new double[counts.length + 1];
        long[] observed = new long[counts.length + 1];
        int bins = 0;
        double pooledE = 0;
        long pooledO = 0;
        for (int i = 0; i < counts.length; i++) {
            double e = total * law.probability(i);
            if (e < 5) {
                pooledE += e;
                pooledO += counts[i];
            } else {
                expected[bins] = e;
                observed[bins++] = counts[i];
            }
        }
        if (pooledE > 0) {
            expected[bins] = pooledE;
            observed[bins++] = pooledO;
        }
        return new ChiSquareTest().chiSquareTest(Arrays.copyOf(expected, bins), Arrays.copyOf(observed, bins));
    }

    /** Two-sample chi-square on the atoms both samples see at least 10 times in total, the rest pooled. */
    public static double homogeneity(long[] a, long[] b) {
        long[] x = new long[a.length + 1];
        long[] y = new long[a.length + 1];
        int bins = 0;
        long pa = 0;
        long pb = 0;
        for (int i = 0; i < a.length; i++) {
            if (a[i] + b[i] < 10) {
                pa += a[i];
                pb += b[i];
            } else {
                x[bins] = a[i];
                y[bins++] = b[i];
            }
        }
        x[bins] = pa;
        y[bins++] = pb;
        return new ChiSquareTest().chiSquareTestDataSetsComparison(Arrays.copyOf(x, bins), Arrays.copyOf(y, bins));
    }
}

package io.dpaudit.core.estimate;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.dpaudit.core.bounds.BoundKind;
import io.dpaudit.core.bounds.DiscretePairProfile;
import io.dpaudit.core.law.DiscreteLaw;
import java.util.Arrays;
import java.util.Comparator;
import org.apache.commons.rng.UniformRandomProvider;
import org.apache.commons.rng.simple.RandomSource;
import org.junit.jupiter.api.Test;

/**
 * Why the estimator needs no randomised threshold test on a discrete score: with every atom counted on its own
 * (exact rank binning), the deterministic tests "score above the k-th atom" in the order of the likelihood ratio
 * attain both quantities the audit bounds — {@code delta(eps) = sup_S P(S) - e^eps Q(S)} and the largest
 * {@code (P(S) - delta)/Q(S)} — exactly, and a test that randomises at the boundary atom does no better: its
 * {@code TPR - e^eps FPR} is linear and its {@code (TPR - delta)/FPR} monotone in the randomisation probability, so
 * one end is at least as good. (Randomised tests do matter for whole trade-off curves, whose lower convex envelope
 * they trace.) Checked on random discrete pairs.
 */
class DeterministicThresholdsTest {
    @Test
    void deterministicLikelihoodRatioThresholdsAttainTheExactProfile() {
        UniformRandomProvider rng = RandomSource.XO_SHI_RO_256_PP.create(2026L);
        for (int trial = 0; trial < 200; trial++) {
            int atoms = 2 + rng.nextInt(12);
            double[] p = random(rng, atoms);
            double[] q = random(rng, atoms);
            Integer[] order = new Integer[atoms];
            for (int i = 0; i < atoms; i++) {
                order[i] = i;
            }
            Arrays.sort(order, Comparator.comparingDouble(i -> -(Math.log(p[i]) - Math.log(q[i]))));
            DiscretePairProfile exact = new DiscretePairProfile("x", "x", BoundKind.PAIR_PROFILE,
                    DiscreteLaw.ofProbabilities(p, i -> "a" + i), DiscreteLaw.ofProbabilities(q, i -> "a" + i), 0);
            for (double eps : new double[] {0, 0.1, 0.5, 1.5}) {
                double best = 0;
                double bestRandomised = 0;
                double tp = 0;
                double fp = 0;
                for (int k = 0; k < atoms; k++) {
                    double tpNext = tp + p[order[k]];
                    double fpNext = fp + q[order[k]];
                    best = Math.max(best, tpNext - Math.exp(eps) * fpNext);
                    for (double g = 0; g <= 1; g += 0.125) { // randomise on atom k
                        double t = tp + g * p[order[k]];
                        double f = fp + g * q[order[k]];
                        bestRandomised = Math.max(bestRandomised, t - Math.exp(eps) * f);
                    }
                    tp = tpNext;
                    fp = fpNext;
                }
                assertEquals(exact.remove(eps), best, 1e-12, "deterministic thresholds attain H_e^eps(P||Q)");
                assertTrue(bestRandomised <= best + 1e-15, "randomising does not help");
                double delta = exact.remove(eps);
                if (delta > 1e-9 && delta < 0.5) {
                    // The largest (TPR - delta)/FPR over deterministic thresholds is e^eps at delta = H(eps).
                    double ratio = 0;
                    tp = 0;
                    fp = 0;
                    for (int k = 0; k < atoms; k++) {
                        tp += p[order[k]];
                        fp += q[order[k]];
                        if (fp > 0) {
                            ratio = Math.max(ratio, (tp - delta) / fp);
                        }
                    }
                    assertTrue(Math.log(ratio) >= eps - 1e-9, "eps at delta attained: " + Math.log(ratio) + " < "
                            + eps);
                }
            }
        }
    }

    private static double[] random(UniformRandomProvider rng, int atoms) {
        double[] x = new double[atoms];
        double s = 0;
        for (int i = 0; i < atoms; i++) {
            x[i] = 0.01 + rng.nextDouble();
            s += x[i];
        }
        for (int i = 0; i < atoms; i++) {
            x[i] /= s;
        }
        return x;
    }
}

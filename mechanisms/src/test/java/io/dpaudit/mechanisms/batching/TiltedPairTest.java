package io.dpaudit.mechanisms.batching;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.dpaudit.core.rng.RandomStreams;
import java.util.ArrayList;
import java.util.List;
import org.apache.commons.rng.UniformRandomProvider;
import org.apache.commons.rng.sampling.distribution.ZigguratSampler;
import org.junit.jupiter.api.Test;

/**
 * The tilts of k-of-T allocation ({@link SubsetTilt}) and of the shuffle's pair ({@link ShuffleTiltedPair}): the
 * normaliser against a sum over every tuple of subsets; the draws against the identities {@code E_r[dP/dr] = 1} and
 * {@code E_r[dP/dr 1{L > c}] = P(L > c)} (the latter against plain draws of P), each from a fixed seed and failing beyond
 * six standard errors (about 2e-9 for a random seed under the central-limit approximation); the weight bound's slack
 * is never positive.
 */
class TiltedPairTest {
    /** The k-subsets of {0..T-1}, as bit masks. */
    private static List<Integer> subsets(int steps, int k) {
        List<Integer> out = new ArrayList<>();
        for (int mask = 0; mask < 1 << steps; mask++) {
            if (Integer.bitCount(mask) == k) {
                out.add(mask);
            }
        }
        return out;
    }

    /** {@code C(T,k)^{-n} sum over n-tuples of k-subsets of prod_t mu_{c_t}}. */
    private static double bruteForceLogM(int steps, int k, double tau, int n) {
        List<Integer> all = subsets(steps, k);
        int size = all.size();
        long count = (long) Math.pow(size, n);
        double total = 0;
        int[] c = new int[steps];
        for (long code = 0; code < count; code++) {
            java.util.Arrays.fill(c, 0);
            long r = code;
            for (int i = 0; i < n; i++) {
                int mask = all.get((int) (r % size));
                r /= size;
                for (int t = 0; t < steps; t++) {
                    c[t] += (mask >> t) & 1;
                }
            }
            double log = 0;
            for (int t = 0; t < steps; t++) {
                log += c[t] * (c[t] - 1.0) * tau * tau / 2;
            }
            total += Math.exp(log);
        }
        return Math.log(total / count);
    }

    @Test
    void theSubsetNormaliserIsTheSumOverEveryTupleOfSubsets() {
        for (int steps : new int[] {2, 3, 5}) {
            for (int k = 1; k <= Math.min(3, steps); k++) {
                for (double sigma : new double[] {0.6, 1.3}) {
                    for (int theta = 1; theta <= 3; theta++) {
                        double expected = bruteForceLogM(steps, k, 1 / sigma, theta + 1);
                        SubsetTilt tilt = SubsetTilt.build(steps, k, sigma, theta);
                        assertNotNull(tilt);
                        assertEquals(expected, tilt.logWeightBound(), 1e-12 * Math.max(1, Math.abs(expected)),
                                "T " + steps + ", k " + k + ", sigma " + sigma + ", theta " + theta);
                    }
                }
            }
        }
        // k = 1: the set-partition shapes of balls-and-bins' own tilt give the same normaliser
        for (int theta = 1; theta <= 8; theta++) {
            assertEquals(new AllocationTilt(1000, 1.0, 0.5, theta).logM(),
                    SubsetTilt.build(1000, 1, 0.5, theta).logWeightBound(), 1e-10, "theta " + theta);
        }
    }

    @Test
    void aTooLargeProfileTableIsNotBuilt() {
        assertTrue(SubsetTilt.build(1000, 4, 1.0, 12) == null, "k = 4, theta = 12");
        assertNotNull(SubsetTilt.build(1000, 2, 1.0, 12), "k = 2, theta = 12");
    }

    /** Mean weight under the tilt and the weighted tail probability, against plain draws of P. */
    private static void checkTilt(TiltedPair.Tilt tilt, TiltedPair.EpochSampler plainP, double c, long seed) {
        UniformRandomProvider rng = new RandomStreams(seed).next();
        TiltedPair.EpochSampler r = tilt.sampler(rng);
        int n = 40_000;
        double sum = 0;
        double sumSq = 0;
        double tail = 0;
        double tailSq = 0;
        for (int i = 0; i < n; i++) {
            double loss = r.next();
            double slack = r.slack();
            assertTrue(slack <= 1e-9, "slack " + slack);
            double w = Math.exp(tilt.logWeightBound() - tilt.theta() * loss + slack);
            sum += w;
            sumSq += w * w;
            double y = loss > c ? w : 0;
            tail += y;
            tailSq += y * y;
        }
        double mean = sum / n;
        double se = Math.sqrt((sumSq / n - mean * mean) / n);
        assertTrue(Math.abs(mean - 1) <= 6 * se, "theta " + tilt.theta() + ": mean weight " + mean + ", se " + se);
        double tailMean = tail / n;
        double tailSe = Math.sqrt((tailSq / n - tailMean * tailMean) / n);
        int hits = 0;
        for (int i = 0; i < n; i++) {
            if (plainP.next() > c) {
                hits++;
            }
        }
        double p = hits / (double) n;
        double pSe = Math.sqrt(p * (1 - p) / n);
        assertTrue(Math.abs(tailMean - p) <= 6 * Math.hypot(tailSe, pSe),
                "theta " + tilt.theta() + ": weighted tail " + tailMean + " +- " + tailSe + ", plain " + p);
    }

    @Test
    void randomAllocationTiltsAreUnbiased() {
        int steps = 12;
        int k = 3;
        double sigma = 0.9;
        SubsetShiftLaw with = new SubsetShiftLaw(steps, k, 1.0, sigma);
        SubsetShiftLaw without = new SubsetShiftLaw(steps, 0, 0.0, sigma);
        for (int theta : new int[] {1, 3}) {
            UniformRandomProvider prng = new RandomStreams(5900L + theta).next();
            ZigguratSampler.NormalizedGaussian gauss = ZigguratSampler.NormalizedGaussian.of(prng);
            double[] x = new double[steps];
            int[] subset = new int[k];
            TiltedPair.EpochSampler plainP = new TiltedPair.EpochSampler() {
                @Override
                public double next() {
                    for (int t = 0; t < steps; t++) {
                        x[t] = sigma * gauss.sample();
                    }
                    UniformSubset.draw(prng, steps, subset);
                    for (int t : subset) {
                        x[t] += 1;
                    }
                    return with.logRatio(without, x, 0);
                }

                @Override
                public double slack() {
                    return 0;
                }
            };
            checkTilt(SubsetTilt.build(steps, k, sigma, theta), plainP, 1.0, 591L + theta);
        }
    }

    @Test
    void shuffleTiltsAreUnbiasedAndTheirSlackIsNeverPositive() {
        int steps = 20;
        double sigma = 0.8;
        ShuffleTiltedPair pair = new ShuffleTiltedPair(steps, sigma);
        SubsetShiftLaw p = new SubsetShiftLaw(steps, 1, 2.0, sigma);
        SubsetShiftLaw q = new SubsetShiftLaw(steps, 1, 1.0, sigma);
        for (int i : new int[] {3, 8}) { // theta = 0.75, 2
            TiltedPair.Tilt tilt = pair.tilts().get(i - 1);
            UniformRandomProvider prng = new RandomStreams(5910L + i).next();
            ZigguratSampler.NormalizedGaussian gauss = ZigguratSampler.NormalizedGaussian.of(prng);
            double[] x = new double[steps];
            TiltedPair.EpochSampler plainP = new TiltedPair.EpochSampler() {
                @Override
                public double next() {
                    for (int t = 0; t < steps; t++) {
                        x[t] = sigma * gauss.sample();
                    }
                    x[prng.nextInt(steps)] += 2;
                    return p.logRatio(q, x, 0);
                }

                @Override
                public double slack() {
                    return 0;
                }
            };
            checkTilt(tilt, plainP, 1.5, 592L + i);
        }
    }

    /**
     * The add direction's tail bound {@code Q(L < -eps) <= e^{logAddTail(eps)}} against plain draws of Q where the bound
     * is not small (so that a wrong bound would show): the observed frequency may not exceed it by more than six
     * standard errors.
     */
    @Test
    void theAddTailBoundHoldsAgainstPlainDraws() {
        for (int k : new int[] {1, 2}) {
            int steps = 8;
            double sigma = 1.5;
            AllocationTiltedPair pair = new AllocationTiltedPair(steps, k, sigma);
            TiltedPair.EpochSampler q = pair.plain(new RandomStreams(5930L + k).next());
            for (double eps : new double[] {0.3, 0.6}) {
                double bound = Math.exp(pair.logAddTail(eps));
                int n = 40_000;
                int hits = 0;
                for (int i = 0; i < n; i++) {
                    if (q.next() < -eps) {
                        hits++;
                    }
                }
                double p = hits / (double) n;
                assertTrue(bound < 1 && p > 0, "k " + k + ", eps " + eps + ": bound " + bound + ", observed " + p);
                assertTrue(p <= bound + 6 * Math.sqrt(p * (1 - p) / n), "k " + k + ", eps " + eps + ": bound " + bound
                        + " below the observed " + p);
                System.out.printf("[add tail] k = %d, eps = %.1f: bound %.4g, observed %.4g%n", k, eps, bound, p);
            }
        }
    }
}

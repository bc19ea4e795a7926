package io.dpaudit.mechanisms.batching;

import java.util.ArrayList;
import java.util.List;
import org.apache.commons.rng.UniformRandomProvider;
import org.apache.commons.rng.sampling.distribution.ZigguratSampler;

/**
 * The balls-and-bins pair tilted by a power of its likelihood ratio, sampled exactly.
 *
 * <p>One epoch's pair: {@code P = (1/T) sum_u N(a e_u, s^2 I_T)} against {@code Q = N(0, s^2 I_T)}. With
 * {@code w_t = e^{a x_t / s^2 - a^2 / (2 s^2)}} (under Q, {@code log w ~ N(-tau^2/2, tau^2)}, {@code tau = a / s},
 * {@code E_Q[w^c] = mu_c = e^{c (c - 1) tau^2 / 2}}) the likelihood ratio is {@code dP/dQ = S / T},
 * {@code S = sum_t w_t}, and {@code L = log(S / T)}.
 *
 * <p>For an integer {@code theta >= 1} the tilted law {@code r_theta = P e^{theta L} / M(theta) = Q (S/T)^{theta + 1} /
 * M(theta)} is a finite mixture of shifted Gaussians: expanding {@code S^{theta + 1}} over {@code n = theta + 1} labels,
 * each assigned a step, {@code Q(x) prod_i w_{t_i}(x) = N(x; a sum_i e_{t_i}, s^2 I) prod_t mu_{c_t}} (a Gaussian tilted
 * by {@code e^{<x, b>}} shifts its mean by {@code s^2 b}), where {@code c_t} counts the labels on step t. Grouping the
 * assignments by which labels share a step (a set partition of the labels with block sizes {@code lambda}), the
 * weight of a partition shape is {@code N(lambda) (T)_r prod_i mu_{lambda_i}} ({@code N(lambda) = n! / (prod lambda_i!
 * prod_j m_j!)} set partitions of that shape, {@code (T)_r} injective assignments of its r blocks to steps), so
 * {@code M(theta) = E_Q[(S/T)^n] = T^{-n} sum_lambda N(lambda) (T)_r prod_i mu_{lambda_i}}, and a draw of
 * {@code r_theta} is: a shape with probability proportional to its weight, r distinct uniform steps, and
 * {@code x = a sum_i lambda_i e_{step_i} + s Z}.
 *
 * <p>The importance weight {@code dP/dr_theta = M(theta) e^{-theta L}} is at most {@code M(theta) e^{-theta eps}} on
 * {@code L >= eps}: bounded where the profile's integrand is non-zero.
 */
final class AllocationTilt implements TiltedPair.Tilt {
    /** Largest tilt (the labels' set partitions are enumerated: 101 shapes at theta = 12). */
    static final int MAX_THETA = 12;

    private final int steps;
    private final double shift;
    private final double sigma;
    private final int theta;
    private final double logM;
    private final int[][] shapes;
    private final double[] cumulative;

    /**
     * @param steps T
     * @param shift a, the canary's shift in its step
     * @param sigma s, the noise
     * @param theta the integer tilt, in [1, {@value #MAX_THETA}]
     */
    AllocationTilt(int steps, double shift, double sigma, int theta) {
        if (theta < 1 || theta > MAX_THETA) {
            throw new IllegalArgumentException("theta " + theta);
        }
        this.steps = steps;
        this.shift = shift;
        this.sigma = sigma;
        this.theta = theta;
        int n = theta + 1;
        double tau = shift / sigma;
        List<int[]> all = new ArrayList<>();
        partitions(n, n, new int[n], 0, all);
        List<int[]> kept = new ArrayList<>();
        List<Double> logWeights = new ArrayList<>();
        double top = Double.NEGATIVE_INFINITY;
        for (int[] lambda : all) {
            int r = lambda.length;
            if (r > steps) {
                continue; // (T)_r = 0
            }
            double w = logFactorial(n);
            int run = 1;
            for (int i = 0; i < r; i++) {
                w -= logFactorial(lambda[i]);
                w += Math.log(steps - (double) i);
                w += lambda[i] * (lambda[i] - 1.0) * tau * tau / 2;
                if (i > 0 && lambda[i] == lambda[i - 1]) {
                    run++;
                } else {
                    run = 1;
                }
                w -= Math.log(run); // prod_j m_j!, one factor per repeated size
            }
            kept.add(lambda);
            logWeights.add(w);
            top = Math.max(top, w);
        }
        double total = 0;
        for (double w : logWeights) {
            total += Math.exp(w - top);
        }
        this.logM = top + Math.log(total) - n * Math.log(steps);
        this.shapes = kept.toArray(new int[0][]);
        this.cumulative = new double[shapes.length];
        double acc = 0;
        for (int i = 0; i < shapes.length; i++) {
            acc += Math.exp(logWeights.get(i) - top) / total;
            cumulative[i] = acc;
        }
        cumulative[shapes.length - 1] = 1.0;
    }

    /** The integer partitions of {@code n} with parts at most {@code max}, parts in non-increasing order. */
    private static void partitions(int n, int max, int[] parts, int count, List<int[]> out) {
        if (n == 0) {
            out.add(java.util.Arrays.copyOf(parts, count));
            return;
        }
        for (int p = Math.min(n, max); p >= 1; p--) {
            parts[count] = p;
            partitions(n - p, p, parts, count + 1, out);
        }
    }

    private static double logFactorial(int n) {
        double s = 0;
        for (int i = 2; i <= n; i++) {
            s += Math.log(i);
        }
        return s;
    }

    /** {@code log M(theta) = log E_P[e^{theta L}]}. */
    double logM() {
        return logM;
    }

    @Override
    public double theta() {
        return theta;
    }

    /** {@code log M(theta)}: the weight is exactly {@code M e^{-theta L}} (slack 0). */
    @Override
    public double logWeightBound() {
        return logM;
    }

    @Override
    public TiltedPair.EpochSampler sampler(UniformRandomProvider rng) {
        ZigguratSampler.NormalizedGaussian gauss = ZigguratSampler.NormalizedGaussian.of(rng);
        int[] chosen = new int[MAX_THETA + 1];
        int[] counts = new int[MAX_THETA + 1];
        return new TiltedPair.EpochSampler() {
            @Override
            public double next() {
                return sampleLoss(rng, gauss, chosen, counts);
            }

            @Override
            public double slack() {
                return 0;
            }
        };
    }

    /**
     * Draws one epoch from {@code r_theta} and returns its {@code L = log(S / T)}; {@code chosen} and {@code counts}
     * are scratch arrays of at least {@code theta + 1} ints.
     */
    double sampleLoss(UniformRandomProvider rng, ZigguratSampler.NormalizedGaussian gauss, int[] chosen,
            int[] counts) {
        double u = rng.nextDouble();
        int shape = 0;
        while (cumulative[shape] < u) {
            shape++;
        }
        int[] lambda = shapes[shape];
        int r = lambda.length;
        for (int i = 0; i < r; i++) {
            int t;
            boolean fresh;
            do {
                t = rng.nextInt(steps);
                fresh = true;
                for (int j = 0; j < i; j++) {
                    if (chosen[j] == t) {
                        fresh = false;
                        break;
                    }
                }
            } while (!fresh);
            chosen[i] = t;
            counts[i] = lambda[i];
        }
        return lossOf(gauss, steps, shift, sigma, counts, chosen, r);
    }

    /**
     * {@code log((1/T) sum_t e^{a x_t / s^2 - a^2 / (2 s^2)})} for {@code x_t = s Z_t + a m_t}, where {@code m_t} is
     * {@code counts[i]} on step {@code at[i]} (i &lt; r, distinct steps) and 0 elsewhere: one pass with a running
     * maximum, the shifted steps visited in increasing order ({@code at} and {@code counts} are sorted here, together,
     * in place).
     */
    static double lossOf(ZigguratSampler.NormalizedGaussian gauss, int steps, double shift, double sigma, int[] counts,
            int[] at, int r) {
        int[] c = counts;
        for (int i = 1; i < r; i++) { // insertion sort of (at, c) by at
            int key = at[i];
            int cv = c[i];
            int j = i - 1;
            while (j >= 0 && at[j] > key) {
                at[j + 1] = at[j];
                c[j + 1] = c[j];
                j--;
            }
            at[j + 1] = key;
            c[j + 1] = cv;
        }
        double scale = shift / sigma; // a x / s^2 = tau Z + tau^2 m
        double tau2 = scale * scale;
        double max = Double.NEGATIVE_INFINITY;
        double sum = 0;
        int next = 0;
        for (int t = 0; t < steps; t++) {
            double m = 0;
            if (next < r && at[next] == t) {
                m = c[next++];
            }
            double v = scale * gauss.sample() + tau2 * (m - 0.5);
            if (v > max) {
                sum = sum * Math.exp(max - v) + 1;
                max = v;
            } else {
                sum += Math.exp(v - max);
            }
        }
        return max + Math.log(sum) - Math.log(steps);
    }
}

package io.dpaudit.mechanisms.batching;

import io.dpaudit.core.numerics.FastExp;
import java.util.ArrayList;
import java.util.List;
import org.apache.commons.rng.UniformRandomProvider;
import org.apache.commons.rng.sampling.distribution.ZigguratSampler;

/**
 * The shuffle's lower-bound pair (Chua et al. 2024; formula sheet §14) as a {@link TiltedPair}:
 * {@code P = (1/T) sum_t N(2 e_t, s^2 I_T)} against {@code Q = (1/T) sum_t N(e_t, s^2 I_T)}.
 *
 * <p>With {@code b_t = e^{(x_t - 1/2)/s^2}} ({@code N(e_t)}'s density against {@code N(0)}; {@code N(2 e_t)}'s is
 * {@code b_t^2 e^{-tau^2}}, {@code tau = 1/s}): {@code L = log(P/Q) = -tau^2 + log(sum b^2 / sum b)}, and since
 * {@code sum b^2 <= max b sum b}, {@code L <= -tau^2 + log max_t b_t}.
 *
 * <p><b>The tilt</b> (any real {@code theta > 0}): {@code r = P (sum_s b_s^theta) / Z}. Each {@code N(2 e_t)} times
 * {@code b_s^theta} is a Gaussian shifted by theta in coordinate s, so r is a finite mixture: with probability
 * proportional to {@code e^{3 theta tau^2 / 2}} one step carries {@code 2 + theta}, otherwise (proportional to
 * {@code (T - 1) e^{-theta tau^2 / 2}}) one step carries 2 and another theta — and since L and the weight are symmetric
 * in the steps, the steps may be fixed (0 and 1). {@code Z = E_P[sum_s b_s^theta] = e^{theta^2 tau^2 / 2}
 * (e^{3 theta tau^2 / 2} + (T - 1) e^{-theta tau^2 / 2})}. The weight {@code dP/dr = Z / sum_s b_s^theta} is at most
 * {@code Z / max_s b_s^theta <= Z e^{-theta (tau^2 + L)}}: {@code log B = log Z - theta tau^2}, slack
 * {@code theta (tau^2 + L) - log sum_s b_s^theta <= 0}.
 *
 * <p>Add direction: {@code sum b^2 / sum b >= mean b >= e^{mean log b}} (Cauchy–Schwarz, then AM–GM), and under Q the
 * mean of the {@code log b_t} is {@code tau Zbar + tau^2 (1/T - 1/2)} with {@code Zbar ~ N(0, 1/T)}: so
 * {@code E_Q[e^{-theta L}] <= e^{theta tau^2 (3/2 - 1/T) + theta^2 tau^2 / (2T)}}.
 */
final class ShuffleTiltedPair implements TiltedPair {
    /** The tilts: theta = 0.25, 0.5, ..., 16. */
    static final int TILTS = 64;
    static final double THETA_STEP = 0.25;

    private final int steps;
    private final double sigma;
    private final double tau2;
    private final List<Tilt> tilts;

    /**
     * @param steps T
     * @param sigma the noise of one epoch's step sums (for a persistent shuffle over E epochs, {@code sigma / sqrt(E)})
     */
    ShuffleTiltedPair(int steps, double sigma) {
        this.steps = steps;
        this.sigma = sigma;
        this.tau2 = 1 / (sigma * sigma);
        List<Tilt> list = new ArrayList<>();
        for (int i = 1; i <= TILTS; i++) {
            list.add(new ShuffleTilt(i * THETA_STEP));
        }
        this.tilts = List.copyOf(list);
    }

    @Override
    public List<Tilt> tilts() {
        return tilts;
    }

    /**
     * Fills {@code x} with {@code s Z} plus {@code first} on step 0 and {@code second} on step 1 (T &gt; 1), and returns
     * {@code L}; {@code out[0]} receives {@code log sum_t b_t^theta} when {@code theta > 0}.
     */
    private double loss(ZigguratSampler.NormalizedGaussian gauss, double[] x, double first, double second,
            double theta, double[] out) {
        double max = Double.NEGATIVE_INFINITY;
        for (int t = 0; t < steps; t++) {
            double v = sigma * gauss.sample();
            if (t == 0) {
                v += first;
            } else if (t == 1) {
                v += second;
            }
            double y = v * tau2; // log b_t + tau^2 / 2
            x[t] = y;
            if (y > max) {
                max = y;
            }
        }
        double plain = 0;
        double squared = 0;
        double tilted = 0;
        for (int t = 0; t < steps; t++) {
            double d = x[t] - max;
            double u = FastExp.exp(d);
            plain += u;
            squared += u * u;
            if (theta > 0) {
                tilted += FastExp.exp(theta * d);
            }
        }
        // L = -tau^2 + log(sum b^2 / sum b) with log b = y - tau^2/2: -3 tau^2 / 2 + max + log(squared / plain)
        if (theta > 0) {
            out[0] = theta * (max - tau2 / 2) + Math.log(tilted);
        }
        return -1.5 * tau2 + max + Math.log(squared / plain);
    }

    @Override
    public EpochSampler plain(UniformRandomProvider rng) {
        ZigguratSampler.NormalizedGaussian gauss = ZigguratSampler.NormalizedGaussian.of(rng);
        double[] x = new double[steps];
        return new EpochSampler() {
            @Override
            public double next() {
                return loss(gauss, x, 1, 0, 0, null);
            }

            @Override
            public double slack() {
                return 0;
            }
        };
    }

    @Override
    public double logAddMoment(double theta) {
        return theta * tau2 * (1.5 - 1.0 / steps) + theta * theta * tau2 / (2.0 * steps);
    }

    @Override
    public String source() {
        return "importance sampling of the shuffle's lower-bound pair (1/T) sum N(2 e_t) vs (1/T) sum N(e_t) from P "
                + "tilted by sum_s b_s^theta (b_s = e^{(x_s - 1/2)/sigma^2}; a finite mixture of shifted Gaussians, "
                + "sampled exactly), whose weights are at most Z^E e^{-theta (E tau^2 + eps)} where the profile's "
                + "integrand is non-zero (L <= log max b - tau^2); add direction by plain sampling and a Chernoff bound";
    }

    /** The tilt theta: r = P sum_s b_s^theta / Z. */
    private final class ShuffleTilt implements Tilt {
        private final double theta;
        private final double logWeightBound;
        private final double same; // the probability that one step carries 2 + theta

        ShuffleTilt(double theta) {
            this.theta = theta;
            double a = 1.5 * theta * tau2;
            double b = steps > 1 ? Math.log(steps - 1.0) - 0.5 * theta * tau2 : Double.NEGATIVE_INFINITY;
            double top = Math.max(a, b);
            double logSum = top + Math.log(Math.exp(a - top) + Math.exp(b - top));
            this.logWeightBound = theta * theta * tau2 / 2 + logSum - theta * tau2;
            this.same = Math.exp(a - logSum);
        }

        @Override
        public double theta() {
            return theta;
        }

        @Override
        public double logWeightBound() {
            return logWeightBound;
        }

        @Override
        public EpochSampler sampler(UniformRandomProvider rng) {
            ZigguratSampler.NormalizedGaussian gauss = ZigguratSampler.NormalizedGaussian.of(rng);
            double[] x = new double[steps];
            double[] logTilted = new double[1];
            return new EpochSampler() {
                private double slack;

                @Override
                public double next() {
                    boolean one = steps == 1 || rng.nextDouble() < same;
                    double loss = one ? loss(gauss, x, 2 + theta, 0, theta, logTilted)
                            : loss(gauss, x, 2, theta, theta, logTilted);
                    slack = theta * (tau2 + loss) - logTilted[0];
                    return loss;
                }

                @Override
                public double slack() {
                    return slack;
                }
            };
        }
    }
}

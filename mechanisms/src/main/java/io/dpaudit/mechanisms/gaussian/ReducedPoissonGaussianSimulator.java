package io.dpaudit.mechanisms.gaussian;

import io.dpaudit.core.Checks;
import io.dpaudit.core.engine.TrialSampler;
import io.dpaudit.core.engine.World;
import io.dpaudit.core.law.GaussianMixture;
import io.dpaudit.core.model.MechanismSimulator;
import io.dpaudit.core.model.OutputModel;
import java.util.Locale;
import org.apache.commons.rng.UniformRandomProvider;
import org.apache.commons.rng.sampling.distribution.ZigguratSampler;

/**
 * Exact sampler of the sufficient statistic of the Poisson-subsampled Gaussian for its worst-case pair.
 *
 * <p>By rotation invariance of the noise, the output's projection onto the canary's (clipped) gradient direction is
 * {@code y = B C + sigma Z} in {@code D} and {@code y = sigma Z} in {@code D'}, with {@code B ~ Bernoulli(q)} and
 * {@code Z ~ N(0, 1)}, when the other records contribute nothing along that direction (zero or orthogonal
 * gradients: the worst case, which attains the exact profile); the orthogonal part of the output has the same law
 * in both worlds. One output is {@code rounds} independent values of {@code y}.
 *
 * <p>Random draws: in {@code D'} one ziggurat normal per value (commons-rng
 * {@code ZigguratSampler.NormalizedGaussian}). In {@code D}, one ziggurat normal per value, and the Bernoulli
 * inclusions {@code B}: for {@code q <= 1/8} as the gaps between successive inclusions, which are independent
 * {@code Geometric(q)} variables drawn by inversion ({@code floor(log(U)/log(1 - q))}, one {@code nextDouble()} and
 * one {@code log} per inclusion, so about {@code q} draws per value); for larger {@code q} one {@code nextDouble()}
 * per value; none for {@code q = 1}. The gap sequence runs across calls, so the inclusions form one Bernoulli
 * process over the shard, exactly as per-value coins would.
 */
final class ReducedPoissonGaussianSimulator {
    private ReducedPoissonGaussianSimulator() {
    }

    /** The reduced simulator of {@code g}. */
    static MechanismSimulator of(GaussianParameters g) {
        double q = g.q();
        double sigma = g.sigma();
        double clip = g.clip();
        int rounds = g.rounds();
        GaussianMixture with = q < 1
                ? new GaussianMixture(new double[] {1 - q, q}, new double[][] {{0.0}, {clip}}, sigma)
                : GaussianMixture.single(clip, sigma);
        OutputModel model = OutputModel.ofStatistic(rounds, with, GaussianMixture.single(0.0, sigma));
        String description = String.format(Locale.ROOT,
                "reduced: projection on the canary direction, y = Bernoulli(%s)*%s + N(0, %s^2) vs N(0, %s^2), %d round(s)",
                Checks.format(q), Checks.format(clip), Checks.format(sigma), Checks.format(sigma), rounds);
        return MechanismSimulator.of(model, description,
                rng -> new Sampler(rng, ZigguratSampler.NormalizedGaussian.of(rng), q, sigma, clip, rounds));
    }

    private static final class Sampler implements TrialSampler {
        /** Above this q, one uniform per value is cheaper than geometric gaps. */
        private static final double GAP_SAMPLING_MAX_Q = 0.125;

        private final UniformRandomProvider rng;
        private final ZigguratSampler.NormalizedGaussian gauss;
        private final double q;
        private final double sigma;
        private final double clip;
        private final int rounds;
        private final boolean gaps;
        private final double inverseLogComplement;
        /** Values to skip before the next inclusion (gap sampling only). */
        private long untilNextInclusion;

        Sampler(UniformRandomProvider rng, ZigguratSampler.NormalizedGaussian gauss, double q, double sigma,
                double clip, int rounds) {
            this.rng = rng;
            this.gauss = gauss;
            this.q = q;
            this.sigma = sigma;
            this.clip = clip;
            this.rounds = rounds;
            this.gaps = q <= GAP_SAMPLING_MAX_Q;
            this.inverseLogComplement = 1.0 / Math.log1p(-q);
            if (gaps) {
                untilNextInclusion = nextGap();
            }
        }

        /** A Geometric(q) number of failures before the next success, by inversion. */
        private long nextGap() {
            // 1 - nextDouble() is in (0, 1], so the log is finite; the result is >= 0.
            double g = Math.floor(Math.log(1.0 - rng.nextDouble()) * inverseLogComplement);
            return g >= Long.MAX_VALUE ? Long.MAX_VALUE : (long) g;
        }

        @Override
        public void sample(World world, double[] out, int trials) {
            int n = trials * rounds;
            double s = sigma;
            if (world == World.WITHOUT_CANARY) {
                for (int i = 0; i < n; i++) {
                    out[i] = s * gauss.sample();
                }
            } else if (q == 1.0) {
                for (int i = 0; i < n; i++) {
                    out[i] = clip + s * gauss.sample();
                }
            } else if (gaps) {
                for (int i = 0; i < n; i++) {
                    out[i] = s * gauss.sample();
                }
                // Walk the Bernoulli process over this block: the next inclusion is untilNextInclusion values on.
                long position = untilNextInclusion;
                while (position < n) {
                    out[(int) position] += clip;
                    long gap = nextGap();
                    position = gap >= Long.MAX_VALUE - 1 - position ? Long.MAX_VALUE : position + 1 + gap;
                }
                untilNextInclusion = position - n;
            } else {
                for (int i = 0; i < n; i++) {
                    double shift = rng.nextDouble() < q ? clip : 0.0;
                    out[i] = shift + s * gauss.sample();
                }
            }
        }
    }
}

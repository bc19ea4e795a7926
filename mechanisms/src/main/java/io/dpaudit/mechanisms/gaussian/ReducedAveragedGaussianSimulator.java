package io.dpaudit.mechanisms.gaussian;

import io.dpaudit.core.Checks;
import io.dpaudit.core.engine.TrialSampler;
import io.dpaudit.core.engine.World;
import io.dpaudit.core.law.GaussianMixture;
import io.dpaudit.core.model.LinearStatistic;
import io.dpaudit.core.model.MechanismSimulator;
import io.dpaudit.core.model.OutputModel;
import java.util.Locale;
import org.apache.commons.rng.UniformRandomProvider;
import org.apache.commons.rng.sampling.distribution.AhrensDieterMarsagliaTsangGammaSampler;
import org.apache.commons.rng.sampling.distribution.ContinuousSampler;
import org.apache.commons.rng.sampling.distribution.ZigguratSampler;

/**
 * Exact sampler of the sufficient statistic {@code (y, r)} of {@code poisson-averaged-gaussian} ({@link AveragedSumLaw}):
 * per round, {@code y = (K C + sigma Z) / b} with {@code K ~ Bernoulli(q)} in {@code D} and {@code K = 0} in
 * {@code D'}, and {@code r = (sigma / b)^2 X} with {@code X ~ chi^2_{d-1}}, each world with its own divisor {@code b}.
 * The other records' gradients are zero (the pair the faithful simulator builds), so they move neither statistic.
 *
 * <p>Random draws per round, in order: in {@code D} (for {@code q < 1}) one {@code nextDouble()} for the canary's inclusion; one ziggurat
 * normal (commons-rng {@code ZigguratSampler.NormalizedGaussian}); for {@code d >= 2} one gamma variate of shape
 * {@code (d - 1)/2} and scale 2 (commons-rng {@code AhrensDieterMarsagliaTsangGammaSampler}, which draws from the same
 * stream). An output is {@code rounds} blocks of two doubles.
 */
final class ReducedAveragedGaussianSimulator {
    private ReducedAveragedGaussianSimulator() {
    }

    /** The statistic's laws: {@code D} first, then {@code D'}. */
    static AveragedSumLaw[] laws(AveragedGaussianParameters a) {
        GaussianParameters g = a.sum();
        double bWith = a.divisorWithCanary();
        double bWithout = a.divisorWithoutCanary();
        double sWith = g.sigma() / bWith;
        double sWithout = g.sigma() / bWithout;
        GaussianMixture with = g.q() < 1
                ? new GaussianMixture(new double[] {1 - g.q(), g.q()}, new double[][] {{0.0}, {g.clip() / bWith}}, sWith)
                : GaussianMixture.single(g.clip() / bWith, sWith);
        long rest = a.dimension() - 1;
        return new AveragedSumLaw[] {new AveragedSumLaw(with, rest),
                new AveragedSumLaw(GaussianMixture.single(0.0, sWithout), rest)};
    }

    /**
     * The reduced simulator of {@code a}. Where the two worlds share the divisor {@code b} the rest {@code r} has one
     * law in both and carries no information: the simulator is then the subsampled Gaussian's of noise {@code sigma /
     * b} and shift {@code clip / b} ({@link ReducedPoissonGaussianSimulator}), the coordinate along the canary alone.
     */
    static MechanismSimulator of(AveragedGaussianParameters a) {
        GaussianParameters g = a.sum();
        if (a.divisorWithCanary() == a.divisorWithoutCanary()) {
            double b = a.divisorWithCanary();
            MechanismSimulator along = ReducedPoissonGaussianSimulator.of(new GaussianParameters(
                    GaussianParameters.SUBSAMPLED_TYPE, g.q(), g.sigma() / b, g.clip() / b, g.rounds()));
            String description = String.format(Locale.ROOT, "reduced: along the canary y = (Bernoulli(%s)*%s + "
                    + "N(0, %s^2)) / %d in both worlds (the rest has one law in both), %d round(s)",
                    Checks.format(g.q()), Checks.format(g.clip()), Checks.format(g.sigma()), (long) b, g.rounds());
            return MechanismSimulator.of(along.outputModel(), description, along::create);
        }
        AveragedSumLaw[] laws = laws(a);
        OutputModel model = new OutputModel(g.rounds(), LinearStatistic.identity(2), laws[0], laws[1],
                new double[] {1.0, 0.0});
        String description = String.format(Locale.ROOT, "reduced: along the canary y = (Bernoulli(%s)*%s + N(0, %s^2)) "
                + "/ b, rest r = (%s / b)^2 chi^2_%d, b = %d in D and %d in D', %d round(s)", Checks.format(g.q()),
                Checks.format(g.clip()), Checks.format(g.sigma()), Checks.format(g.sigma()), a.dimension() - 1,
                a.divisorWithCanary(), a.divisorWithoutCanary(), g.rounds());
        return MechanismSimulator.of(model, description, rng -> new Sampler(rng, a));
    }

    private static final class Sampler implements TrialSampler {
        private final UniformRandomProvider rng;
        private final ZigguratSampler.NormalizedGaussian gauss;
        private final ContinuousSampler chiSquare;
        private final double q;
        private final double sigma;
        private final double clip;
        private final int rounds;
        private final double bWith;
        private final double bWithout;

        Sampler(UniformRandomProvider rng, AveragedGaussianParameters a) {
            this.rng = rng;
            this.gauss = ZigguratSampler.NormalizedGaussian.of(rng);
            this.chiSquare = a.dimension() > 1
                    ? AhrensDieterMarsagliaTsangGammaSampler.of(rng, (a.dimension() - 1) / 2.0, 2.0) : null;
            this.q = a.sum().q();
            this.sigma = a.sum().sigma();
            this.clip = a.sum().clip();
            this.rounds = a.sum().rounds();
            this.bWith = a.divisorWithCanary();
            this.bWithout = a.divisorWithoutCanary();
        }

        @Override
        public void sample(World world, double[] out, int trials) {
            boolean withCanary = world == World.WITH_CANARY;
            double b = withCanary ? bWith : bWithout;
            double s = sigma / b;
            double s2 = s * s;
            int n = trials * rounds;
            for (int i = 0; i < n; i++) {
                double shift = withCanary && (q == 1.0 || rng.nextDouble() < q) ? clip / b : 0.0;
                out[2 * i] = shift + s * gauss.sample();
                out[2 * i + 1] = chiSquare == null ? 0.0 : s2 * chiSquare.sample();
            }
        }
    }
}

package io.dpaudit.mechanisms.checkin;

import io.dpaudit.core.engine.TrialSampler;
import io.dpaudit.core.engine.World;
import io.dpaudit.core.law.StatisticLaw;
import io.dpaudit.core.model.DiscreteStatisticSimulator;
import io.dpaudit.core.model.MechanismSimulator;
import io.dpaudit.core.model.OutputModel;
import org.apache.commons.rng.UniformRandomProvider;
import org.apache.commons.rng.sampling.distribution.ZigguratSampler;

/**
 * Exact samplers of a check-in round's sufficient statistic.
 *
 * <ul>
 *   <li>Randomized response: the number {@code K} of ones among the target window's releases, one guide-table draw
 *       per round from its exact law in each world ({@link DiscreteStatisticSimulator}); for averaged updates the atom
 *       (number of check-ins, number of ones).</li>
 *   <li>Gaussian randomizer (canonical dataset): the {@code w} releases of the target's window; per round one
 *       {@code nextDouble()} decides whether the target's update is used ({@code U ~ Bernoulli(s)}; in {@code D'} of
 *       the one-sided pair the target's value is 0 and nothing is drawn), one {@code nextInt(w)} places it, and
 *       {@code w} standard normals (commons-rng {@code ZigguratSampler.NormalizedGaussian}) make the noise.</li>
 * </ul>
 */
final class ReducedCheckInSimulator {
    private ReducedCheckInSimulator() {
    }

    static MechanismSimulator of(CheckInModel model) {
        CheckInParameters p = model.parameters();
        if (p.rr()) {
            CheckInModel.Round r = model.round(model.simulated());
            String what = p.averaged() ? "the atom (number of check-ins, number of ones)" : "K, the number of ones "
                    + "among the " + p.targetWindow() + " release(s) of the target's window";
            return DiscreteStatisticSimulator.of(r.withCanary(), r.withoutCanary(), p.rounds(), "reduced: "
                    + p.describe() + ", simulated on the " + model.simulated().name() + " dataset; per round one "
                    + "draw of " + what + " from its exact law");
        }
        StatisticLaw[] laws = model.gaussianLaws();
        int w = p.targetWindow();
        OutputModel out = new OutputModel(p.rounds(), new WindowStatistic(w, 0, w, false), laws[0], laws[1], null);
        double s = CheckInModel.selection(p);
        double c = p.clip();
        double replacement = p.pair().equals("symmetric") ? -c : 0.0;
        return MechanismSimulator.of(out, "reduced: " + p.describe() + "; per round the " + w + " release(s) of the "
                + "target's window: U ~ Bernoulli(" + String.format(java.util.Locale.ROOT, "%.6g", s) + ") places "
                + "the target's value at a uniform release, N(0, sigma^2) noise on each",
                rng -> new GaussianSampler(rng, p.rounds(), w, s, c, replacement, p.sigma()));
    }

    private static final class GaussianSampler implements TrialSampler {
        private final UniformRandomProvider rng;
        private final ZigguratSampler.NormalizedGaussian normal;
        private final int rounds;
        private final int width;
        private final double s;
        private final double high;
        private final double replacement;
        private final double sigma;

        GaussianSampler(UniformRandomProvider rng, int rounds, int width, double s, double high, double replacement,
                double sigma) {
            this.rng = rng;
            this.normal = ZigguratSampler.NormalizedGaussian.of(rng);
            this.rounds = rounds;
            this.width = width;
            this.s = s;
            this.high = high;
            this.replacement = replacement;
            this.sigma = sigma;
        }

        @Override
        public void sample(World world, double[] out, int trials) {
            double value = world == World.WITH_CANARY ? high : replacement;
            int blocks = trials * rounds;
            for (int b = 0; b < blocks; b++) {
                int base = b * width;
                for (int i = 0; i < width; i++) {
                    out[base + i] = sigma * normal.sample();
                }
                if (value != 0.0 && rng.nextDouble() < s) {
                    out[base + (width == 1 ? 0 : rng.nextInt(width))] += value;
                }
            }
        }
    }
}

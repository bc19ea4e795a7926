package io.dpaudit.mechanisms.prifedsync;

import io.dpaudit.core.engine.TrialSampler;
import io.dpaudit.core.engine.World;
import io.dpaudit.core.model.MechanismSimulator;
import io.dpaudit.core.model.OutputModel;
import java.util.Locale;
import org.apache.commons.rng.UniformRandomProvider;
import org.apache.commons.rng.sampling.distribution.ZigguratSampler;

/**
 * Exact sampler of what reaches the adversary from client j, along the canary: per round one {@code nextDouble()}
 * decides whether the round's update is seen (probability {@link PriFedSyncParameters#visibility}); if it is, each of
 * the {@code K} steps draws one {@code nextDouble()} for the target's inclusion in the batch ({@code B/n}) and one
 * standard normal (commons-rng {@code ZigguratSampler.NormalizedGaussian}). Other records' gradients are known to the
 * adversary and removed. An output round is the flag followed by the {@code K} values.
 */
final class ReducedPriFedSyncSimulator {
    private ReducedPriFedSyncSimulator() {
    }

    static MechanismSimulator of(PriFedSyncParameters p) {
        int k = p.localSteps();
        OutputModel model = new OutputModel(p.rounds(), new VisibleSteps(k, 1), StepMixtureLaw.withCanary(p),
                StepMixtureLaw.withoutCanary(p), null);
        String d = String.format(Locale.ROOT, "reduced: %s; per round the update reaches the adversary w.p. %.6g, "
                + "then K = %d step sums along the canary less the other records' known gradients, each N(0, s^2) "
                + "plus the target's or the replacement's shift w.p. B/n = %.6g", p.describe(), p.visibility(), k,
                p.gamma());
        return MechanismSimulator.of(model, d, rng -> new Sampler(rng, p));
    }

    private static final class Sampler implements TrialSampler {
        private final UniformRandomProvider rng;
        private final ZigguratSampler.NormalizedGaussian normal;
        private final int rounds;
        private final int steps;
        private final double visibility;
        private final double gamma;
        private final double with;
        private final double without;
        private final double sd;

        Sampler(UniformRandomProvider rng, PriFedSyncParameters p) {
            this.rng = rng;
            this.normal = ZigguratSampler.NormalizedGaussian.of(rng);
            this.rounds = p.rounds();
            this.steps = p.localSteps();
            this.visibility = p.visibility();
            this.gamma = p.gamma();
            this.with = p.meanWith() * p.clip();
            this.without = p.meanWithout() * p.clip();
            this.sd = p.noiseScale() * p.clip();
        }

        @Override
        public void sample(World world, double[] out, int trials) {
            double g = world == World.WITH_CANARY ? with : without;
            int block = 1 + steps;
            for (int b = 0; b < trials * rounds; b++) {
                int base = b * block;
                if (!(visibility >= 1.0 || rng.nextDouble() < visibility)) {
                    java.util.Arrays.fill(out, base, base + block, 0.0);
                    continue;
                }
                out[base] = 1.0;
                for (int k = 1; k <= steps; k++) {
                    double x = sd * normal.sample();
                    if (gamma >= 1.0 || rng.nextDouble() < gamma) {
                        x += g;
                    }
                    out[base + k] = x;
                }
            }
        }
    }
}

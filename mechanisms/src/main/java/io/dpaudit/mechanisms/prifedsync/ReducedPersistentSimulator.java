package io.dpaudit.mechanisms.prifedsync;

import io.dpaudit.core.engine.TrialSampler;
import io.dpaudit.core.engine.World;
import io.dpaudit.core.model.MechanismSimulator;
import io.dpaudit.core.model.OutputModel;
import java.util.Arrays;
import java.util.Locale;
import org.apache.commons.rng.UniformRandomProvider;
import org.apache.commons.rng.sampling.distribution.ZigguratSampler;

/**
 * Exact sampler of what the observer sees under {@code state: persistent} (full-batch local steps): per round one
 * {@code nextDouble()} for client j's selection ({@code p}) and, if selected, one standard normal for the sum of its
 * {@code K} noisy steps along the canary ({@code K a C + sqrt(K) s N}, the pair's shift {@code a} or {@code b}); then one
 * {@code nextDouble()} for the observer's participation; when it takes part and j's unseen updates are {@code s >= 1},
 * the round's block is {@code (1, s, their sum)} and the sum restarts ({@link PersistentObservation}).
 */
final class ReducedPersistentSimulator {
    private ReducedPersistentSimulator() {
    }

    static MechanismSimulator of(PriFedSyncParameters p) {
        OutputModel model = new OutputModel(p.rounds(), new PersistentObservation(1),
                PersistentBlockLaw.withCanary(p), PersistentBlockLaw.withoutCanary(p), null);
        String d = String.format(Locale.ROOT, "reduced: %s; per round client j's update (the sum of its K steps "
                + "along the canary, less the other records' known gradients) joins the global model w.p. p = %s; the "
                + "observer takes part w.p. %.6g and then sees every update it has not seen yet", p.describe(),
                io.dpaudit.core.Checks.format(p.p()), p.observation());
        return MechanismSimulator.of(model, d, rng -> new Sampler(rng, p));
    }

    private static final class Sampler implements TrialSampler {
        private final UniformRandomProvider rng;
        private final ZigguratSampler.NormalizedGaussian normal;
        private final int rounds;
        private final double p;
        private final double observation;
        private final double with;
        private final double without;
        private final double blockSd;

        Sampler(UniformRandomProvider rng, PriFedSyncParameters p) {
            this.rng = rng;
            this.normal = ZigguratSampler.NormalizedGaussian.of(rng);
            this.rounds = p.rounds();
            this.p = p.p();
            this.observation = p.observation();
            this.with = p.localSteps() * p.meanWith() * p.clip();
            this.without = p.localSteps() * p.meanWithout() * p.clip();
            this.blockSd = Math.sqrt(p.localSteps()) * p.noiseScale() * p.clip();
        }

        @Override
        public void sample(World world, double[] out, int trials) {
            double shift = world == World.WITH_CANARY ? with : without;
            for (int t = 0; t < trials; t++) {
                double unseen = 0;
                int count = 0;
                for (int r = 0; r < rounds; r++) {
                    int base = (t * rounds + r) * 3;
                    if (p >= 1.0 || rng.nextDouble() < p) {
                        unseen += shift + blockSd * normal.sample();
                        count++;
                    }
                    if (count > 0 && (observation >= 1.0 || rng.nextDouble() < observation)) {
                        out[base] = 1.0;
                        out[base + 1] = count;
                        out[base + 2] = unseen;
                        unseen = 0;
                        count = 0;
                    } else {
                        Arrays.fill(out, base, base + 3, 0.0);
                    }
                }
            }
        }
    }
}

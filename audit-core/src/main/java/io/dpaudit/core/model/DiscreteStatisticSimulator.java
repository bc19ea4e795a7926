package io.dpaudit.core.model;

import io.dpaudit.core.engine.TrialSampler;
import io.dpaudit.core.engine.World;
import io.dpaudit.core.law.DiscreteLaw;
import org.apache.commons.rng.sampling.distribution.DiscreteSampler;
import org.apache.commons.rng.sampling.distribution.GuideTableDiscreteSampler;
import org.apache.commons.rng.sampling.distribution.SharedStateDiscreteSampler;

/**
 * The reduced simulator of a mechanism whose per-round sufficient statistic takes finitely many values with a known
 * law in each world ({@link DiscreteLaw}): one draw per round by inversion with a guide table (commons-rng
 * {@code GuideTableDiscreteSampler}: one {@code nextDouble()} and on average about one comparison per draw; exact up to
 * the double rounding of the cumulative probabilities). The tables are built once and shared by every shard's sampler.
 * An output is {@code rounds} atom indices.
 */
public final class DiscreteStatisticSimulator {
    private DiscreteStatisticSimulator() {
    }

    /**
     * @param withCanary the statistic's law in {@code D}
     * @param withoutCanary its law in {@code D'}, over the same atoms
     * @param rounds independent rounds per trial
     * @param description one line for reports, starting with what is simulated
     */
    public static MechanismSimulator of(DiscreteLaw withCanary, DiscreteLaw withoutCanary, int rounds,
            String description) {
        SharedStateDiscreteSampler withTable = GuideTableDiscreteSampler.of(null, withCanary.probabilities());
        SharedStateDiscreteSampler withoutTable = GuideTableDiscreteSampler.of(null, withoutCanary.probabilities());
        OutputModel model = OutputModel.ofAtoms(rounds, withCanary, withoutCanary);
        return MechanismSimulator.of(model, description, rng -> new Sampler(withTable.withUniformRandomProvider(rng),
                withoutTable.withUniformRandomProvider(rng), rounds));
    }

    private static final class Sampler implements TrialSampler {
        private final DiscreteSampler with;
        private final DiscreteSampler without;
        private final int rounds;

        Sampler(DiscreteSampler with, DiscreteSampler without, int rounds) {
            this.with = with;
            this.without = without;
            this.rounds = rounds;
        }

        @Override
        public void sample(World world, double[] out, int trials) {
            DiscreteSampler s = world == World.WITH_CANARY ? with : without;
            int n = trials * rounds;
            for (int i = 0; i < n; i++) {
                out[i] = s.sample();
            }
        }
    }
}

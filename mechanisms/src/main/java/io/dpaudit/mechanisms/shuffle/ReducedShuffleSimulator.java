package io.dpaudit.mechanisms.shuffle;

import io.dpaudit.core.engine.TrialSampler;
import io.dpaudit.core.engine.World;
import io.dpaudit.core.law.DiscreteLaw;
import io.dpaudit.core.model.MechanismSimulator;
import io.dpaudit.core.model.OutputModel;
import org.apache.commons.rng.sampling.distribution.DiscreteSampler;
import org.apache.commons.rng.sampling.distribution.GuideTableDiscreteSampler;
import org.apache.commons.rng.sampling.distribution.SharedStateDiscreteSampler;

/**
 * Exact sampler of the sufficient statistic of a shuffled round — the number of reports and their symbol counts,
 * {@link ShuffleLaw}'s atoms — in each world: one draw per round from the atom's exact law by inversion with a guide
 * table (commons-rng {@code GuideTableDiscreteSampler}: one {@code nextDouble()} and, on average, about one comparison
 * per draw; exact up to double rounding of the cumulative probabilities). The tables are built once and shared by every
 * shard's sampler. An output is {@code T} atom indices.
 */
final class ReducedShuffleSimulator {
    private ReducedShuffleSimulator() {
    }

    /** The reduced simulator of {@code law} over {@code rounds} rounds. */
    static MechanismSimulator of(ShuffleLaw law, int rounds, String description) {
        DiscreteLaw with = law.withCanary();
        DiscreteLaw without = law.withoutCanary();
        SharedStateDiscreteSampler withTable = GuideTableDiscreteSampler.of(null, with.probabilities());
        SharedStateDiscreteSampler withoutTable = GuideTableDiscreteSampler.of(null, without.probabilities());
        OutputModel model = OutputModel.ofAtoms(rounds, with, without);
        return MechanismSimulator.of(model, "reduced: " + description + "; per round one draw of the atom (K, "
                + "counts) from its exact law", rng -> new Sampler(withTable.withUniformRandomProvider(rng),
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

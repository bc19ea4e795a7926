package io.dpaudit.mechanisms.shuffle;

import io.dpaudit.core.model.DiscreteStatisticSimulator;
import io.dpaudit.core.model.MechanismSimulator;

/**
 * Exact sampler of the sufficient statistic of a shuffled round — the number of reports and their symbol counts,
 * {@link ShuffleLaw}'s atoms — in each world: one guide-table draw per round from the atom's exact law
 * ({@link DiscreteStatisticSimulator}). An output is {@code T} atom indices.
 */
final class ReducedShuffleSimulator {
    private ReducedShuffleSimulator() {
    }

    /** The reduced simulator of {@code law} over {@code rounds} rounds. */
    static MechanismSimulator of(ShuffleLaw law, int rounds, String description) {
        return DiscreteStatisticSimulator.of(law.withCanary(), law.withoutCanary(), rounds, "reduced: " + description
                + "; per round one draw of the atom (K, counts) from its exact law");
    }
}

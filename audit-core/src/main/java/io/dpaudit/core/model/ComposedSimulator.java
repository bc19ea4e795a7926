package io.dpaudit.core.model;

import io.dpaudit.core.engine.TrialSampler;
import java.util.function.Function;
import org.apache.commons.rng.UniformRandomProvider;

/** The simulator {@link MechanismSimulator#of} builds. */
record ComposedSimulator(OutputModel outputModel, String description,
        Function<UniformRandomProvider, TrialSampler> samplers) implements MechanismSimulator {
    @Override
    public TrialSampler create(UniformRandomProvider rng) {
        return samplers.apply(rng);
    }
}

package io.dpaudit.core.model;

import io.dpaudit.core.engine.TrialSampler;
import io.dpaudit.core.engine.TrialSamplerFactory;
import java.util.function.Function;
import org.apache.commons.rng.UniformRandomProvider;

/** A trial sampler that also states the law of its outputs' sufficient statistic, for attacks to use. */
public interface MechanismSimulator extends TrialSamplerFactory {
    /**
     * The output layout and the law of the per-round statistic, or null for a black-box simulator whose outputs have no
     * stated law ({@link io.dpaudit.core.blackbox.BlackBoxSimulator}, which then overrides {@link #outputLength()}).
     */
    OutputModel outputModel();

    @Override
    default int outputLength() {
        return outputModel().outputLength();
    }

    /**
     * A simulator made of its parts: the output model, a one-line description, and the factory of per-shard samplers
     * (each bound to the random stream it is given, every draw from that stream).
     */
    static MechanismSimulator of(OutputModel model, String description,
            Function<UniformRandomProvider, TrialSampler> samplers) {
        return new ComposedSimulator(model, description, samplers);
    }
}

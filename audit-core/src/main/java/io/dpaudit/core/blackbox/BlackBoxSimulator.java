package io.dpaudit.core.blackbox;

import io.dpaudit.core.engine.TrialSampler;
import io.dpaudit.core.engine.TrialSamplerFactory;
import io.dpaudit.core.model.MechanismSimulator;
import io.dpaudit.core.model.OutputModel;
import org.apache.commons.rng.UniformRandomProvider;

/**
 * A simulator that states no law for its outputs: a mechanism registered in the catalog whose output distribution has
 * no closed form dp-audit uses (report-noisy-max, the sparse vector technique). Its {@link #outputModel()} is null, so
 * only generic attacks ({@code statistic}, {@code learned}) apply to it; the likelihood-ratio and projection attacks
 * refuse it by name.
 */
public final class BlackBoxSimulator implements MechanismSimulator {
    private final TrialSamplerFactory sampler;

    private BlackBoxSimulator(TrialSamplerFactory sampler) {
        this.sampler = sampler;
    }

    /** The simulator running {@code sampler}. */
    public static BlackBoxSimulator of(TrialSamplerFactory sampler) {
        return new BlackBoxSimulator(sampler);
    }

    /** Null: the law of the outputs is not known. */
    @Override
    public OutputModel outputModel() {
        return null;
    }

    @Override
    public int outputLength() {
        return sampler.outputLength();
    }

    @Override
    public TrialSampler create(UniformRandomProvider rng) {
        return sampler.create(rng);
    }

    @Override
    public String description() {
        return sampler.description();
    }

    /**
     * The coupled trials of the mechanism (both worlds on common random numbers), or null when its sampler cannot run
     * them.
     */
    @Override
    public io.dpaudit.core.engine.CoupledSamplerFactory coupling() {
        return sampler.coupling();
    }
}

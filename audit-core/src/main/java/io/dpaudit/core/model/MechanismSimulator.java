package io.dpaudit.core.model;

import io.dpaudit.core.engine.TrialSamplerFactory;

/** A trial sampler that also states the law of its outputs' sufficient statistic, for attacks to use. */
public interface MechanismSimulator extends TrialSamplerFactory {
    /** The output layout and the law of the per-round statistic. */
    OutputModel outputModel();

    @Override
    default int outputLength() {
        return outputModel().outputLength();
    }
}

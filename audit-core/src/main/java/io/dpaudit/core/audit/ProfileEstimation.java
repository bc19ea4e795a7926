package io.dpaudit.core.audit;

import io.dpaudit.core.engine.ProgressListener;
import io.dpaudit.core.estimate.profile.PrivacyLossEstimate;
import io.dpaudit.core.rng.RandomStreams;
import java.util.List;

/**
 * A two-sided estimate of the privacy profile computed from the simulator's exact densities instead of counted trials
 * of the mechanism: white-box evidence (importance sampling, {@link io.dpaudit.core.estimate.profile.TiltedProfileEstimator}).
 * The auditor runs it after the counted phases, on the run's own streams, so its numbers follow from the seed.
 */
@FunctionalInterface
public interface ProfileEstimation {
    /**
     * @param epsilons ε values to resolve (the scenario's and the claims')
     * @param deltas δ values whose ε to resolve (the scenario's and the claims')
     * @param confidence simultaneous confidence of the whole grid
     * @param streams the run's streams (the estimate takes what it needs, in a fixed order)
     * @param threads worker threads
     * @param progress told of the phase
     */
    PrivacyLossEstimate estimate(List<Double> epsilons, List<Double> deltas, double confidence,
            RandomStreams streams, int threads, ProgressListener progress);
}

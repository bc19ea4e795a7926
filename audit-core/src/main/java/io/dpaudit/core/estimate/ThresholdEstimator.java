package io.dpaudit.core.estimate;

/**
 * Certified lower bounds from a test chosen among thresholds of the counted scores: what every audit's counts are
 * turned into before judgement. {@link EmpiricalEstimator} (trials of each world apart) and {@link PairedEstimator}
 * (coupled trials) implement it.
 */
public interface ThresholdEstimator {
    /** A certified lower bound on ε at {@code delta}, with its test. */
    EpsilonLowerBound epsilonLowerBound(double delta);

    /** A certified lower bound on δ at {@code epsilon}, with its test. */
    DeltaLowerBound deltaLowerBound(double epsilon);
}

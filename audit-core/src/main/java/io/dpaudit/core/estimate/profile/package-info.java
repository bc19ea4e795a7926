/**
 * Two-sided estimates of the simulated pair's privacy profile δ(ε) from its exact likelihood ratio: plain Monte
 * Carlo (PrivacyLossEstimator) and importance sampling (TiltedProfileEstimator), both giving a PrivacyLossEstimate:
 * the white-box evidence.
 */
package io.dpaudit.core.estimate.profile;

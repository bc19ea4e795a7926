/**
 * The Gaussian mechanism and the Poisson-subsampled Gaussian (DP-SGD's step): parameters, reduced and faithful
 * simulators, and their bounds (exact profiles, BBG18 amplification, PLD, RDP, the GDP central-limit approximation).
 * Calibration parameter: {@code sigma}.
 */
package io.dpaudit.mechanisms.gaussian;

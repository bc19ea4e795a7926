/**
 * DP-Fed and DP-Fed-LS (Liang et al., seed 003) and the fixed-size subsampled Gaussian: Laplacian smoothing, the
 * geometry of the smoothed release, simulators, and the paper's RDP closed forms next to the accountants.
 * Calibration parameter: {@code sigma} (the paper's nu).
 */
package io.dpaudit.mechanisms.dpfed;

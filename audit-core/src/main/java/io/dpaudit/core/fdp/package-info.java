/**
 * f-DP: trade-off functions (Gaussian, (ε, δ), subsampled by C_p), conversions between trade-off curves and privacy
 * profiles, μ-GDP, and the central-limit μ of subsampled Gaussians (approximations, labelled as such).
 */
package io.dpaudit.core.fdp;

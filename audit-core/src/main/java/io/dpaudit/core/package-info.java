/**
 * dp-audit core: input validation ({@link io.dpaudit.core.Checks}) and tool provenance. Sub-packages hold the
 * Monte Carlo engine, the estimator, the analytic bounds and the audit model; nothing here depends on the
 * mechanisms, attacks or reports modules.
 */
package io.dpaudit.core;

/**
 * The runner's entry point ({@link io.dpaudit.runner.analysis.AuditRunner}) and the analysis of an audit's result:
 * the analytic bounds' curves, the looseness of every bound and claim against the exact curve of the simulated pair,
 * the trade-off plane, the noise a loose claim could save, and the notes — one {@link
 * io.dpaudit.runner.analysis.AuditOutcome} that every report format renders.
 */
package io.dpaudit.runner.analysis;

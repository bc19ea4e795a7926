/**
 * What every front end shares: scenario files read and validated ({@code scenario}), audits prepared and run on any
 * engine ({@link io.dpaudit.runner.ScenarioAudit}), engines found by name ({@code engine}), checkpoints
 * ({@code checkpoint}), audits of score files ({@code scores}), untrusted input files ({@code input}).
 */
package io.dpaudit.runner;

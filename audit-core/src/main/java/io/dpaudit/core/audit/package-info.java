/**
 * Audits: settings, claims, verdicts and the {@link io.dpaudit.core.audit.Auditor} that runs pilot, phases and
 * estimation.
 */
package io.dpaudit.core.audit;

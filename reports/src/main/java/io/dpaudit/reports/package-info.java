/**
 * From scenario to report: validation of everything before any trial runs, then the audit and its report model.
 */
package io.dpaudit.reports;

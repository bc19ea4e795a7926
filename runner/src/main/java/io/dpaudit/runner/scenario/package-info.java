/**
 * Scenario files: strict JSON parsing with one-line errors that name the field and the value.
 */
package io.dpaudit.runner.scenario;

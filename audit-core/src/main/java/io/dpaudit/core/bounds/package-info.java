/**
 * Analytic privacy bounds as privacy profiles, each naming its source, all rounded to the safe side, and noise
 * calibration by bracketing root finding.
 */
package io.dpaudit.core.bounds;

/**
 * Numerics for bounds and estimators: normal tails in log space, Beta quantiles, bracketing root finding and the
 * safe-side rounding every bound goes through. Not for per-trial hot loops.
 */
package io.dpaudit.core.numerics;

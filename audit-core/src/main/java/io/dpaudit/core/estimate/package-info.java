/**
 * Empirical privacy lower bounds from score histograms: exact one-sided Clopper–Pearson bounds, four test
 * directions, and threshold selection (held-out or Bonferroni) that never certifies on the data that selected.
 */
package io.dpaudit.core.estimate;

/**
 * Empirical privacy lower bounds from score histograms: exact one-sided Clopper–Pearson bounds, four test
 * directions, and threshold selection (held-out or Bonferroni) that never certifies on the data that selected.
 * What the bounds could have detected is in {@code power}, certified trade-off curves in {@code tradeoff}, two-sided
 * estimates of the profile in {@code profile}, one-run bounds in {@code onerun}.
 */
package io.dpaudit.core.estimate;

/**
 * One training run audited through its canaries (Steinke, Nasr &amp; Jagielski, NeurIPS 2023): DP-SGD with Poisson
 * subsampling and Gaussian noise, {@code m} canaries each put into the training data by its own fair coin, one run,
 * one score per canary. {@link io.dpaudit.mechanisms.onerun.OneRunDpSgd} holds the setting,
 * {@link io.dpaudit.mechanisms.onerun.FaithfulOneRunSimulator} trains explicitly (a parameter vector, per-record
 * gradients, clipping, Poisson batches, noise) and {@link io.dpaudit.mechanisms.onerun.ReducedOneRunSimulator} draws
 * the scores' exact law; the scores go to {@code dp-audit scores --one-run} as a real run's would.
 */
package io.dpaudit.mechanisms.onerun;

/**
 * Audits of mechanisms dp-audit did not write: a {@link io.dpaudit.core.blackbox.BlackBoxMechanism} is any function
 * (input, generator) to a fixed-length output; {@link io.dpaudit.core.blackbox.BlackBoxSampler} runs it on a
 * neighbouring pair under the engine's seeding and sharding; generic distinguishers score its outputs without knowing
 * their law ({@link io.dpaudit.core.blackbox.StatisticScorer}, {@link io.dpaudit.core.blackbox.TrainableScorer}).
 */
package io.dpaudit.core.blackbox;

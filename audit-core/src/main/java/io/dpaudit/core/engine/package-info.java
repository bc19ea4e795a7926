/**
 * The Monte Carlo engine: sharded trials in two worlds, per-shard streams, allocation-free batched loops,
 * streaming score histograms merged in shard order, and the pilot run that fixes their range.
 */
package io.dpaudit.core.engine;

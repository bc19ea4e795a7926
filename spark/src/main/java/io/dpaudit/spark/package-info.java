/**
 * The Spark runner: {@code dp-audit run SCENARIO --engine spark} runs an audit's counted phases as Spark tasks, each a
 * contiguous range of shards drawing from the shard's own stream of the root seed, and gives a report identical in
 * every number to the local engine's.
 */
package io.dpaudit.spark;

package io.dpaudit.spark;

import java.io.Serializable;

/**
 * The shards {@code [from, to)} of a phase that one Spark task counts.
 *
 * @param from first shard
 * @param to one past the last shard
 */
record ShardRange(long from, long to) implements Serializable {
    private static final long serialVersionUID = 1L;
}

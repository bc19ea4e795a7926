/** Checkpoint files: the merged counts of completed shards, so that an interrupted audit can go on. */
package io.dpaudit.runner.checkpoint;

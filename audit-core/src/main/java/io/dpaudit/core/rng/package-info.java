/**
 * The only source of randomness: one root seed, jumped xoshiro256++ streams per shard (commons-rng).
 */
package io.dpaudit.core.rng;

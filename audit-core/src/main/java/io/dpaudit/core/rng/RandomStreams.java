package io.dpaudit.core.rng;

import org.apache.commons.rng.JumpableUniformRandomProvider;
import org.apache.commons.rng.LongJumpableUniformRandomProvider;
import org.apache.commons.rng.UniformRandomProvider;
import org.apache.commons.rng.simple.RandomSource;

/**
 * The sequence of independent random streams of one audit, all derived from one root seed.
 *
 * <p>The root generator is {@code XO_SHI_RO_256_PP} (xoshiro256++, period 2^256 - 1) seeded from the 64-bit root
 * seed by commons-rng's SplitMix64 seed expansion. Stream {@code i} (counting from 0) is the root state jumped
 * {@code i} times by {@link JumpableUniformRandomProvider#jump()}, i.e. 2^128 outputs apart, so streams never
 * overlap for any feasible run length. Streams are handed out strictly in order: whoever asks for the next stream
 * gets stream {@code i+1}. The engine asks for a shard's stream while claiming the shard, so shard {@code j} of a
 * phase always gets the same stream whatever the number of threads.
 *
 * <p>No other source of randomness exists on any path that feeds a result.
 */
public final class RandomStreams {
    /** The commons-rng source used for every stream. */
    public static final RandomSource SOURCE = RandomSource.XO_SHI_RO_256_PP;

    private final long seed;
    private final JumpableUniformRandomProvider root;
    private long issued;

    /** Creates the stream sequence of the given root seed. */
    public RandomStreams(long seed) {
        this.seed = seed;
        this.root = (JumpableUniformRandomProvider) SOURCE.create(seed);
    }

    /** Returns the next stream of the sequence (a copy of the current root state; the root then jumps). */
    public synchronized UniformRandomProvider next() {
        issued++;
        return root.jump();
    }

    /**
     * The auxiliary stream of a root seed, for set-up randomness such as building a faithful simulator's dataset:
     * the root state advanced by one {@code longJump()} (2^192 outputs). The shard streams lie at multiples of
     * 2^128 below 2^192 (fewer than 2^64 of them are ever taken), so this stream overlaps none of them.
     */
    public static UniformRandomProvider auxiliary(long seed) {
        LongJumpableUniformRandomProvider r = (LongJumpableUniformRandomProvider) SOURCE.create(seed);
        r.longJump();
        return r;
    }

    /**
     * The training stream of a root seed, from which a learned distinguisher draws the samples it learns from: the root
     * state advanced by two {@code longJump()}s (2 x 2^192 outputs), beyond the shard streams (below 2^192) and the
     * auxiliary stream (at 2^192, which draws far fewer than 2^192 values).
     */
    public static UniformRandomProvider training(long seed) {
        LongJumpableUniformRandomProvider r = (LongJumpableUniformRandomProvider) SOURCE.create(seed);
        r.longJump();
        r.longJump();
        return r;
    }

    /**
     * Skips {@code count} streams, as if they had been handed out: the next stream is then the one after them. For
     * engines that resume a phase or run its shards elsewhere, so that later phases get the streams they would have.
     */
    public synchronized void skip(long count) {
        for (long i = 0; i < count; i++) {
            root.jump();
        }
        issued += count;
    }

    /**
     * Stream {@code index} of a root seed (the root state after {@code index} jumps), computed from the seed alone —
     * for a cluster task that runs shard {@code j} of a phase whose first stream is {@code first}: stream
     * {@code first + j}. Costs {@code index} jumps.
     */
    public static UniformRandomProvider stream(long seed, long index) {
        RandomStreams s = new RandomStreams(seed);
        s.skip(index);
        return s.next();
    }

    /** How many streams have been handed out so far. */
    public synchronized long issued() {
        return issued;
    }

    /** The root seed. */
    public long seed() {
        return seed;
    }

    /** A description for reports: source, library, seeding and stream derivation. */
    public static String description() {
        return SOURCE.name() + " (Apache Commons RNG " + version()
                + "); 64-bit root seed expanded by SplitMix64; stream i = root state after i jump() calls (2^128 apart)";
    }

    /** The commons-rng version on the class path (see {@link io.dpaudit.core.ToolInfo#libraryVersion}). */
    public static String version() {
        return io.dpaudit.core.ToolInfo.libraryVersion("org.apache.commons", "commons-rng-simple", RandomSource.class);
    }
}

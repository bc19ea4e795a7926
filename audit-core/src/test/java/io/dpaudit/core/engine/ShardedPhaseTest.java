package io.dpaudit.core.engine;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.dpaudit.core.rng.RandomStreams;
import io.dpaudit.core.testing.ShiftedGaussianSampler;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.atomic.AtomicInteger;
import org.apache.commons.rng.UniformRandomProvider;
import org.junit.jupiter.api.Test;

/** The one scheduler, on trials of each world apart: counts independent of threads, streams in shard order. */
class ShardedPhaseTest {
    private static final HistogramBinning BINS = new HistogramBinning(-6, 7, 512);
    private static final TrialSamplerFactory SAMPLER = new ShiftedGaussianSampler(0.3, 1.5);

    private static long[][] run(int threads, int shard, long trials, long seed) {
        ShardedPhase e = new ShardedPhase(threads, shard, ProgressListener.NONE);
        ScoreCounts c = e.run("t", new IndependentShards(SAMPLER, ShiftedGaussianSampler.identity(), BINS), trials,
                new RandomStreams(seed));
        long[][] out = new long[2][BINS.slots()];
        for (int i = 0; i < BINS.slots(); i++) {
            out[0][i] = c.count(World.WITH_CANARY, i);
            out[1][i] = c.count(World.WITHOUT_CANARY, i);
        }
        assertEquals(trials, c.trials());
        return out;
    }

    @Test
    void shardSizeShrinksOnlyForLongOutputs() {
        assertEquals(ShardedPhase.DEFAULT_SHARD_TRIALS, ShardedPhase.shardTrialsFor(1));
        assertEquals(ShardedPhase.DEFAULT_SHARD_TRIALS, ShardedPhase.shardTrialsFor(100));
        assertEquals(ShardedPhase.DEFAULT_SHARD_TRIALS, ShardedPhase.shardTrialsFor(256));
        assertEquals(1 << 17, ShardedPhase.shardTrialsFor(257));
        assertEquals(1 << 16, ShardedPhase.shardTrialsFor(1024)); // faithful DP-Fed-LS, D = 256, 4 rounds
        assertEquals(1 << 10, ShardedPhase.shardTrialsFor(1 << 16));
        assertEquals(1 << 10, ShardedPhase.shardTrialsFor(1 << 24)); // the largest faithful output
        assertEquals(1 << 10, ShardedPhase.shardTrialsFor(Integer.MAX_VALUE));
    }

    @Test
    void countsAreIdenticalForAnyThreadCount() {
        long[][] one = run(1, 1000, 25_500, 42);
        for (int threads : new int[] {2, 3, 5, 8}) {
            long[][] many = run(threads, 1000, 25_500, 42);
            assertArrayEquals(one[0], many[0], "D, " + threads + " threads");
            assertArrayEquals(one[1], many[1], "D', " + threads + " threads");
        }
    }

    @Test
    void differentSeedsGiveDifferentCountsAndTotalsAreExact() {
        long[][] a = run(2, 1000, 10_000, 1);
        long[][] b = run(2, 1000, 10_000, 2);
        assertTrue(!java.util.Arrays.equals(a[0], b[0]));
        long sum = 0;
        for (long v : a[1]) {
            sum += v;
        }
        assertEquals(10_000, sum);
    }

    @Test
    void oneStreamPerShardInShardOrder() {
        RandomStreams streams = new RandomStreams(9);
        new ShardedPhase(3, 700, ProgressListener.NONE).run("t", new IndependentShards(SAMPLER,
                ShiftedGaussianSampler.identity(), BINS), 10_000, streams);
        assertEquals(15, streams.issued()); // ceil(10000 / 700)
    }

    @Test
    void progressIsReportedInOrderUpToTheTotal() {
        List<Long> seen = new ArrayList<>();
        ProgressListener l = (phase, done, total, nanos) -> {
            synchronized (seen) {
                seen.add(done);
            }
        };
        new ShardedPhase(2, 1000, l).run("t", new IndependentShards(SAMPLER, ShiftedGaussianSampler.identity(), BINS),
                9_500, new RandomStreams(3));
        assertEquals(10, seen.size());
        assertEquals(9_500L, seen.stream().mapToLong(Long::longValue).max().orElseThrow());
    }

    @Test
    void aWorkerFailureStopsTheRunAndIsRethrown() {
        AtomicInteger created = new AtomicInteger();
        TrialSamplerFactory failing = new TrialSamplerFactory() {
            @Override
            public int outputLength() {
                return 1;
            }

            @Override
            public TrialSampler create(UniformRandomProvider rng) {
                if (created.incrementAndGet() == 3) {
                    throw new IllegalStateException("planted failure");
                }
                return SAMPLER.create(rng);
            }

            @Override
            public String description() {
                return "failing";
            }
        };
        IllegalStateException e = assertThrows(IllegalStateException.class, () ->
                new ShardedPhase(2, 100, ProgressListener.NONE).run("t", new IndependentShards(failing,
                        ShiftedGaussianSampler.identity(), BINS), 100_000, new RandomStreams(1)));
        assertEquals("planted failure", e.getMessage());
        assertTrue(created.get() < 1000, "claiming stopped after the failure");
    }

    @Test
    void mismatchedOutputLengthsAreRejected() {
        Scorer two = new Scorer() {
            @Override
            public int outputLength() {
                return 2;
            }

            @Override
            public double[] score(double[] o, int t, double[] s) {
                return s;
            }

            @Override
            public String description() {
                return "two";
            }
        };
        assertThrows(IllegalArgumentException.class, () -> new IndependentShards(SAMPLER, two, BINS));
    }
}

package io.dpaudit.core.engine;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.dpaudit.core.InvalidInputException;
import io.dpaudit.core.rng.RandomStreams;
import io.dpaudit.core.testing.ShiftedGaussianSampler;
import java.util.ArrayList;
import java.util.List;
import org.apache.commons.rng.sampling.distribution.ZigguratSampler;
import org.junit.jupiter.api.Test;

/**
 * Coupled phases through the one scheduler: the counts depend on the seed and the shard size only (not on the
 * threads); every merge is a prefix of the shards; and a phase resumed from any prefix gives the counts of an
 * uninterrupted one, having taken the same streams.
 */
class CoupledPhaseTest {
    private static final int SHARD = 1000;
    private static final long TRIALS = 10_500; // 11 shards, the last one short
    private static final HistogramBinning BINNING = new HistogramBinning(-4, 5, 64);

    /** D: N(0,1) + 1 with probability 1/2; D': the same normal alone (common random numbers). */
    private static final CoupledSamplerFactory SHIFTED = new CoupledSamplerFactory() {
        @Override
        public int outputLength() {
            return 1;
        }

        @Override
        public String description() {
            return "test: coupled shifted Gaussian";
        }

        @Override
        public Draws coupled(org.apache.commons.rng.UniformRandomProvider rng) {
            ZigguratSampler.NormalizedGaussian g = ZigguratSampler.NormalizedGaussian.of(rng);
            return (withCanary, withoutCanary, trials) -> {
                for (int i = 0; i < trials; i++) {
                    double z = g.sample();
                    withoutCanary[i] = z;
                    withCanary[i] = rng.nextBoolean() ? z + 1 : z;
                }
            };
        }
    };

    private record Merged(long shardsDone, CoupledCounts counts) {
    }

    private static CoupledCounts run(int threads, RandomStreams streams, ShardedPhase.Resume<CoupledCounts> resume,
            List<Merged> seen) {
        ShardedPhase phase = new ShardedPhase(threads, SHARD, ProgressListener.NONE);
        return phase.run("evaluation", new CoupledShards(SHIFTED, ShiftedGaussianSampler.identity(), BINNING), TRIALS,
                streams, resume, (name, done, count, counts) -> seen.add(new Merged(done, counts.copy())));
    }

    private static void assertSameCounts(CoupledCounts expected, CoupledCounts actual) {
        assertEquals(expected.trials(), actual.trials());
        for (CoupledCounts.Histogram h : CoupledCounts.Histogram.values()) {
            long[] a = new long[BINNING.slots()];
            long[] b = new long[BINNING.slots()];
            for (int i = 0; i < a.length; i++) {
                a[i] = expected.count(h, i);
                b[i] = actual.count(h, i);
            }
            assertArrayEquals(a, b, h.key());
        }
    }

    @Test
    void mergesArePrefixesAndThreadsDoNotChangeTheCounts() {
        List<Merged> one = new ArrayList<>();
        CoupledCounts a = run(1, new RandomStreams(5), null, one);
        List<Merged> two = new ArrayList<>();
        CoupledCounts b = run(2, new RandomStreams(5), null, two);
        assertSameCounts(a, b);
        assertEquals(TRIALS, a.trials());
        for (List<Merged> seen : List.of(one, two)) {
            long last = 0;
            for (Merged m : seen) {
                assertTrue(m.shardsDone() >= last, "merged shards never go back");
                last = m.shardsDone();
                assertEquals(Math.min(TRIALS, m.shardsDone() * SHARD), m.counts().trials(), "a prefix of shards");
            }
            assertEquals(11, last);
        }
        // the prefix states of one and two threads agree where both saw the same number of shards
        for (Merged m : two) {
            one.stream().filter(o -> o.shardsDone() == m.shardsDone()).findFirst()
                    .ifPresent(o -> assertSameCounts(o.counts(), m.counts()));
        }
    }

    @Test
    void resumedFromAnyPrefixGivesTheUninterruptedCountsAndStreams() {
        List<Merged> seen = new ArrayList<>();
        RandomStreams whole = new RandomStreams(9);
        CoupledCounts uninterrupted = run(1, whole, null, seen);
        for (Merged m : seen) { // every prefix, the completed phase included
            RandomStreams streams = new RandomStreams(9);
            List<Merged> after = new ArrayList<>();
            CoupledCounts resumed = run(2, streams, new ShardedPhase.Resume<>(m.shardsDone(), m.counts()), after);
            assertSameCounts(uninterrupted, resumed);
            assertEquals(whole.issued(), streams.issued(), "later phases take the same streams");
            assertEquals(11, after.get(after.size() - 1).shardsDone());
        }
    }

    @Test
    void countsThatCannotBeAPrefixAreRefused() {
        List<Merged> seen = new ArrayList<>();
        run(1, new RandomStreams(3), null, seen);
        Merged three = seen.get(2);
        InvalidInputException e = assertThrows(InvalidInputException.class, () -> run(1, new RandomStreams(3),
                new ShardedPhase.Resume<>(4, three.counts()), new ArrayList<>()));
        assertTrue(e.getMessage().startsWith("--resume"), e.getMessage());
        assertThrows(InvalidInputException.class, () -> run(1, new RandomStreams(3),
                new ShardedPhase.Resume<>(12, three.counts()), new ArrayList<>()));
    }

    @Test
    void countsNoCoupledTrialCouldGiveAreRefused() {
        int slots = BINNING.slots();
        long[] d = new long[slots];
        long[] dPrime = new long[slots];
        long[] smaller = new long[slots];
        long[] larger = new long[slots];
        d[10] = 1;
        dPrime[20] = 1;
        smaller[10] = 1;
        larger[20] = 1;
        assertEquals(1, CoupledCounts.of(BINNING, d, dPrime, smaller, larger).trials());
        // the same totals with the smaller score above D's: no trial gives that
        long[] badSmaller = new long[slots];
        long[] badLarger = new long[slots];
        badSmaller[20] = 1;
        badLarger[10] = 1;
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
                () -> CoupledCounts.of(BINNING, d, dPrime, badSmaller, badLarger));
        assertTrue(e.getMessage().contains("smaller scores"), e.getMessage());
        long[] shifted = new long[slots];
        shifted[11] = 1;
        assertThrows(IllegalArgumentException.class, () -> CoupledCounts.of(BINNING, d, dPrime, shifted, larger));
        assertThrows(IllegalArgumentException.class, () -> CoupledCounts.of(BINNING, d, dPrime, smaller));
    }
}

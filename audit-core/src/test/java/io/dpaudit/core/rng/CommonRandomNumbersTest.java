package io.dpaudit.core.rng;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;

import org.apache.commons.rng.UniformRandomProvider;
import org.apache.commons.rng.simple.RandomSource;
import org.junit.jupiter.api.Test;

/** {@link CommonRandomNumbers}: replays a trial's values, then fresh ones; trials use disjoint stream segments. */
class CommonRandomNumbersTest {

    private static long[] draw(UniformRandomProvider r, int k) {
        long[] v = new long[k];
        for (int i = 0; i < k; i++) {
            v[i] = r.nextLong();
        }
        return v;
    }

    @Test
    void replaysTheRecordedValuesThenFreshOnesAndStartsEachTrialAfterBoth() {
        UniformRandomProvider reference = RandomSource.XO_SHI_RO_256_PP.create(7L);
        long[] stream = draw(reference, 400);
        CommonRandomNumbers c = new CommonRandomNumbers(RandomSource.XO_SHI_RO_256_PP.create(7L));
        // trial 1: D draws 5, D' draws 8 (the first 5 replayed, then 3 fresh)
        c.record();
        assertArrayEquals(java.util.Arrays.copyOfRange(stream, 0, 5), draw(c, 5));
        c.replay();
        long[] dPrime = draw(c, 8);
        assertArrayEquals(java.util.Arrays.copyOfRange(stream, 0, 5), java.util.Arrays.copyOfRange(dPrime, 0, 5));
        assertArrayEquals(java.util.Arrays.copyOfRange(stream, 5, 8), java.util.Arrays.copyOfRange(dPrime, 5, 8));
        // trial 2 starts at value 8; D draws 300 (the tape grows), D' only 2
        c.record();
        assertArrayEquals(java.util.Arrays.copyOfRange(stream, 8, 308), draw(c, 300));
        assertEquals(300, c.recorded());
        c.replay();
        assertArrayEquals(java.util.Arrays.copyOfRange(stream, 8, 10), draw(c, 2));
        // trial 3 starts after every value trial 2 drew
        c.record();
        assertArrayEquals(java.util.Arrays.copyOfRange(stream, 308, 310), draw(c, 2));
    }

    @Test
    void derivedDrawsAgreeBetweenTheWorlds() {
        CommonRandomNumbers c = new CommonRandomNumbers(RandomSource.XO_SHI_RO_256_PP.create(11L));
        for (int trial = 0; trial < 100; trial++) {
            c.record();
            double u = c.nextDouble();
            int k = c.nextInt(17);
            boolean b = c.nextBoolean();
            c.replay();
            assertEquals(u, c.nextDouble());
            assertEquals(k, c.nextInt(17));
            assertEquals(b, c.nextBoolean());
        }
    }
}

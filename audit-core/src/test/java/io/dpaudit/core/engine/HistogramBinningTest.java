package io.dpaudit.core.engine;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import io.dpaudit.core.InvalidInputException;
import org.junit.jupiter.api.Test;

class HistogramBinningTest {
    @Test
    void everyScoreLandsInExactlyOneSlot() {
        HistogramBinning b = new HistogramBinning(-1, 1, 4);
        assertEquals(0, b.index(-1.0000001));
        assertEquals(0, b.index(Double.NEGATIVE_INFINITY));
        assertEquals(0, b.index(Double.NaN));
        assertEquals(1, b.index(-1));
        assertEquals(1, b.index(-0.50001));
        assertEquals(2, b.index(-0.5));
        assertEquals(4, b.index(0.99999));
        assertEquals(5, b.index(1));
        assertEquals(5, b.index(Double.POSITIVE_INFINITY));
        assertEquals(-0.5, b.edge(1));
        assertEquals(1.0, b.edge(4));
    }

    @Test
    void shardCountsUseTheSameRuleAsIndex() {
        HistogramBinning b = new HistogramBinning(-3, 2, 37);
        double[] scores = {-5, -3, -2.999, 0, 1.99999, 2, 7, Double.NaN, Double.POSITIVE_INFINITY, -0.0};
        assertShardCountsMatchIndex(b, scores, World.WITH_CANARY);
    }

    @Test
    void shardCountsAgreeWithIndexOnEdgesAndExtremes() {
        HistogramBinning b = new HistogramBinning(-3, 2, 37);
        java.util.SplittableRandom random = new java.util.SplittableRandom(11);
        double[] scores = new double[20_000];
        for (int i = 0; i < scores.length; i++) {
            double edge = b.edge(random.nextInt(b.bins() + 1));
            scores[i] = switch (i % 5) {
                case 0 -> edge;
                case 1 -> Math.nextDown(edge);
                case 2 -> Math.nextUp(edge);
                case 3 -> random.nextDouble(-10, 10);
                default -> (random.nextBoolean() ? 1 : -1) * Math.scalb(random.nextDouble(), random.nextInt(-60, 1000));
            };
        }
        assertShardCountsMatchIndex(b, scores, World.WITHOUT_CANARY);
    }

    /** Counts {@code scores} in {@code world} of fresh shard counts and checks every slot against {@code index}. */
    private static void assertShardCountsMatchIndex(HistogramBinning b, double[] scores, World world) {
        ShardCounts c = new ShardCounts(b);
        c.add(world, scores, scores.length);
        int[] counted = world == World.WITH_CANARY ? c.withCanary : c.withoutCanary;
        int[] expected = new int[b.slots()];
        for (double s : scores) {
            expected[b.index(s)]++;
        }
        for (int i = 0; i < b.slots(); i++) {
            assertEquals(expected[i], counted[i], "slot " + i);
        }
    }

    @Test
    void pilotRangeIsWidenedOnBothSides() {
        HistogramBinning b = HistogramBinning.fromPilot(-2, 4, 100);
        assertEquals(-5, b.lo(), 1e-12);
        assertEquals(7, b.hi(), 1e-12);
        HistogramBinning flat = HistogramBinning.fromPilot(3, 3, 10);
        assertEquals(1.0, flat.lo(), 1e-12);
    }

    @Test
    void invalidRangesAreRejected() {
        assertThrows(IllegalArgumentException.class, () -> new HistogramBinning(1, 1, 4));
        assertThrows(InvalidInputException.class, () -> new HistogramBinning(0, Double.NaN, 4));
        assertThrows(InvalidInputException.class, () -> new HistogramBinning(0, 1, 0));
    }
}

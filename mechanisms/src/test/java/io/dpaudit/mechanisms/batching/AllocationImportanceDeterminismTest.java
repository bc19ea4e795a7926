package io.dpaudit.mechanisms.batching;

import static org.junit.jupiter.api.Assertions.assertEquals;

import io.dpaudit.core.engine.ProgressListener;
import io.dpaudit.core.estimate.profile.PrivacyLossEstimate;
import io.dpaudit.core.rng.RandomStreams;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * The dependent-round samplers' importance estimates give the same numbers for any thread count (shards of fixed size,
 * merged in order): balls-and-bins, k-of-T allocation and the shuffle's pair.
 */
class AllocationImportanceDeterminismTest {
    private static PrivacyLossEstimate run(int threads) {
        return TiltedPairImportanceEstimator.allocation(50, 1, 2, 0.6, 5_000).estimate(List.of(6.0), List.of(1e-8), 0.95,
                new RandomStreams(59), threads, ProgressListener.NONE);
    }

    @Test
    void sameNumbersForAnyThreadCount() {
        PrivacyLossEstimate one = run(1);
        assertEquals(one.grid(), run(3).grid());
        assertEquals(one.epsilonAt(1e-8), run(2).epsilonAt(1e-8));
    }

    @Test
    void sameNumbersForAnyThreadCountForAllocationAndTheShufflePair() {
        for (java.util.function.Supplier<TiltedPairImportanceEstimator> est : List.<java.util.function.Supplier<
                TiltedPairImportanceEstimator>>of(() -> TiltedPairImportanceEstimator.allocation(30, 3, 1, 0.6, 2_000),
                () -> new TiltedPairImportanceEstimator(new ShuffleTiltedPair(30, 0.6), 2, 2_000, "30 steps"))) {
            PrivacyLossEstimate one = est.get().estimate(List.of(6.0), List.of(1e-8), 0.95, new RandomStreams(59), 1,
                    ProgressListener.NONE);
            PrivacyLossEstimate three = est.get().estimate(List.of(6.0), List.of(1e-8), 0.95, new RandomStreams(59), 3,
                    ProgressListener.NONE);
            assertEquals(one.grid(), three.grid());
        }
    }
}

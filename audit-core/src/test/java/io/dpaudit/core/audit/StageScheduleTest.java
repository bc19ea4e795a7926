package io.dpaudit.core.audit;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.dpaudit.core.InvalidInputException;
import org.junit.jupiter.api.Test;

/** The stages of a sequential audit and the error level each look spends. */
class StageScheduleTest {

    @Test
    void stagesDoubleAndSpendTheBudgetExactly() {
        StageSchedule s = StageSchedule.of(Stopping.SEQUENTIAL, 1_000_000, 0.95);
        long[] expected = {1000, 2000, 4000, 8000, 16000, 32000, 64000, 128000, 256000, 489000};
        assertEquals(expected.length, s.looks());
        for (int k = 1; k <= s.looks(); k++) {
            assertEquals(expected[k - 1], s.stageTrials(k), "stage " + k);
        }
        assertEquals(1_000_000, s.trialsThrough(s.looks()));
        assertTrue(s.sequential());
    }

    @Test
    void aRemainderSmallerThanTheFirstStageJoinsTheLastStage() {
        StageSchedule s = StageSchedule.of(Stopping.sequentialFrom(100), 1_000, 0.95);
        // 100, 200, 400 (700), then 300 left: at least 100, a stage of its own
        assertEquals(4, s.looks());
        assertEquals(300, s.stageTrials(4));
        StageSchedule t = StageSchedule.of(Stopping.sequentialFrom(100), 750, 0.95);
        // 100, 200, 400 (700), then 50 left: joins the third
        assertEquals(3, t.looks());
        assertEquals(450, t.stageTrials(3));
        assertEquals(750, t.trialsThrough(3));
        assertEquals(1, StageSchedule.of(Stopping.sequentialFrom(100), 150, 0.95).looks());
    }

    /**
     * Looks before the last spend alpha / (2 k (k + 1)), which telescopes to (alpha / 2)(1 - 1/K); the last spends
     * alpha / 2: less than alpha in all.
     */
    @Test
    void theLooksSpendLessThanTheErrorLevelHalfOfItAtTheLast() {
        StageSchedule s = StageSchedule.of(Stopping.SEQUENTIAL, 1_000_000, 0.95);
        int last = s.looks();
        double spent = 0;
        for (int k = 1; k < last; k++) {
            spent += s.errorLevel(k);
            assertEquals(0.05 / 2 * (1 - 1.0 / (k + 1)), spent, 1e-15, "look " + k);
        }
        assertEquals(0.025, s.errorLevel(last), 1e-15);
        spent += s.errorLevel(last);
        assertTrue(spent < 1 - 0.95, "spent " + spent);
        assertEquals(0.05 / 4, s.errorLevel(1), 1e-15);
        assertEquals(1 - 0.05 / 12, s.confidence(2), 1e-15);
    }

    /**
     * Look k >= 2 chooses on the prefix of stages nearest the held-out fraction of its trials: with f = 0.1, stage 1
     * of 3 (a third) at look 2, then about an eighth from look 5 on; never none and never every stage.
     */
    @Test
    void eachLookChoosesOnThePrefixNearestTheHeldOutFraction() {
        StageSchedule s = StageSchedule.of(Stopping.SEQUENTIAL, 1_000_000, 0.95);
        assertEquals(1, s.selectionStages(2, 0.1));
        assertEquals(1, s.selectionStages(3, 0.1));
        assertEquals(1, s.selectionStages(4, 0.1)); // 1,000 of 15,000 (1,500 wanted; 3,000 is further)
        assertEquals(2, s.selectionStages(5, 0.1)); // 3,000 of 31,000
        assertEquals(7, s.selectionStages(10, 0.1)); // 127,000 of 1,000,000
        for (int k = 2; k <= s.looks(); k++) {
            for (double f : new double[] {0.01, 0.1, 0.5, 0.9}) {
                int j = s.selectionStages(k, f);
                assertTrue(j >= 1 && j < k, "look " + k + ", fraction " + f + ": " + j);
            }
        }
    }

    @Test
    void aFixedDesignIsOneLookAtTheWholeErrorLevel() {
        StageSchedule s = StageSchedule.of(Stopping.FIXED, 12345, 0.99);
        assertFalse(s.sequential());
        assertEquals(1, s.looks());
        assertEquals(12345, s.stageTrials(1));
        assertEquals(0.01, s.errorLevel(1), 1e-15);
    }

    @Test
    void aBudgetWithinTheFirstStageIsOneLookAndAFirstStageBelowTwoIsRefusedByName() {
        StageSchedule s = StageSchedule.of(Stopping.sequentialFrom(5000), 1000, 0.95);
        assertEquals(1, s.looks());
        assertEquals(1000, s.stageTrials(1));
        assertEquals(0.05, s.errorLevel(1), 1e-15);
        InvalidInputException f = assertThrows(InvalidInputException.class, () -> Stopping.sequentialFrom(1));
        assertTrue(f.getMessage().contains("stopping.firstStageTrials"), f.getMessage());
    }
}

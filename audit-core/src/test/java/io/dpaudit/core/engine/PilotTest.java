package io.dpaudit.core.engine;

import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.dpaudit.core.rng.RandomStreams;
import io.dpaudit.core.testing.ShiftedGaussianSampler;
import org.junit.jupiter.api.Test;

class PilotTest {
    @Test
    void rangeCoversThePilotWithMargin() {
        HistogramBinning b = Pilot.binning(new ShiftedGaussianSampler(1, 2), ShiftedGaussianSampler.identity(),
                10_000, 256, new RandomStreams(5).next());
        assertTrue(b.lo() < -4 && b.hi() > 6, b.lo() + " " + b.hi());
    }

    @Test
    void nanScoresAreRefusedInOneLineNamingTheAttack() {
        Scorer nan = new Scorer() {
            @Override
            public int outputLength() {
                return 1;
            }

            @Override
            public double[] score(double[] outputs, int trials, double[] scratch) {
                java.util.Arrays.fill(scratch, 0, trials, Double.NaN);
                return scratch;
            }

            @Override
            public String description() {
                return "nan";
            }
        };
        // A NaN score reaches the pilot from outputs or likelihood ratios outside double precision (extreme
        // parameters, a user's black box): a one-line refusal naming the attack, not an internal error; the built-in
        // scorers are held to finite scores on every catalog type by MechanismContractTest.
        io.dpaudit.core.InvalidInputException e = assertThrows(io.dpaudit.core.InvalidInputException.class,
                () -> Pilot.binning(new ShiftedGaussianSampler(1, 2), nan, 100, 16, new RandomStreams(5).next()));
        org.junit.jupiter.api.Assertions.assertTrue(e.getMessage().contains("score is NaN") && e.getMessage()
                .contains("nan"), e.getMessage());
    }
}

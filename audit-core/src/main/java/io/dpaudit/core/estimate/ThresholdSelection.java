package io.dpaudit.core.estimate;

import io.dpaudit.core.Checks;
import java.util.Locale;

/**
 * How the threshold (and direction) of a test is chosen without biasing the bound it certifies.
 */
public sealed interface ThresholdSelection {
    /** One-line description for reports. */
    String describe();

    /**
     * Select on a held-out part of the trials, certify on the rest (default). A fraction {@code f} of the trials
     * per world is run first, on its own streams; the test maximising the plug-in objective on those trials (with
     * median-unbiased rates) is then evaluated once on the remaining trials. Because the choice is independent of
     * the evaluation data, the two Clopper–Pearson bounds at level {@code (1 - confidence)/2} each certify the
     * bound at the stated confidence, for all four directions and any number of thresholds considered.
     *
     * @param fraction fraction of the trials used for selection, in (0, 1); default 0.1
     */
    record HeldOut(double fraction) implements ThresholdSelection {
        /** Default fraction, chosen by a power study (README, "Estimator"). */
        public static final double DEFAULT_FRACTION = 0.1;

        public HeldOut {
            Checks.openUnitInterval("thresholdSelection.holdoutFraction", fraction);
        }

        @Override
        public String describe() {
            return String.format(Locale.ROOT,
                    "held-out: %.3g of the trials select the test, the rest certify it", fraction);
        }
    }

    /**
     * A fixed grid of thresholds, all evaluated on all trials, with a union (Bonferroni) bound: {@code G} edges
     * equally spaced over the pilot's histogram range times 4 directions is {@code m = 4G} tests, and each of the
     * two rates of each test gets error level {@code (1 - confidence)/(2m)}. The grid depends only on the pilot
     * run, never on the counted trials.
     *
     * @param gridSize number of threshold edges G, at least 1
     */
    record Bonferroni(int gridSize) implements ThresholdSelection {
        /** Default grid size. */
        public static final int DEFAULT_GRID = 64;

        public Bonferroni {
            Checks.atLeast("thresholdSelection.grid", gridSize, 1);
        }

        @Override
        public String describe() {
            return "bonferroni: " + gridSize + " thresholds x 4 directions on all trials, union bound";
        }
    }
}

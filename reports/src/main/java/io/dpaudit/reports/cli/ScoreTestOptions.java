package io.dpaudit.reports.cli;

import io.dpaudit.core.Checks;
import io.dpaudit.core.InvalidInputException;
import io.dpaudit.core.audit.AuditSettings;
import io.dpaudit.core.estimate.ThresholdSelection;
import picocli.CommandLine.Option;

/**
 * The options of {@code dp-audit scores} that shape the threshold test: how it is selected and on how many histogram
 * bins. They do not apply to a one-run audit, whose guesses and grid the number of canaries fixes.
 */
final class ScoreTestOptions {
    @Option(names = "--selection", paramLabel = "held-out|bonferroni", description = "threshold selection (held-out)")
    String selection;
    @Option(names = "--holdout-fraction", paramLabel = "F", description = "share of each file that chooses the test "
            + "(0.1)")
    String holdout;
    @Option(names = "--grid", paramLabel = "G", description = "Bonferroni grid size (64)")
    String grid;
    @Option(names = "--bins", paramLabel = "K", description = "histogram bins (8192)")
    String bins;

    /** Refuses any of these options for a one-run audit. */
    void refuseForOneRun() {
        for (String[] o : new String[][] {{"--selection", selection}, {"--holdout-fraction", holdout},
            {"--grid", grid}, {"--bins", bins}}) {
            if (o[1] != null) {
                throw new InvalidInputException(o[0], o[1], "does not apply to --one-run (its guesses and their "
                        + "grid are fixed by the number of canaries)");
            }
        }
    }

    /** The histogram's interior bins, validated. */
    int bins() {
        return bins == null ? AuditSettings.DEFAULT_BINS : Checks.inRange("--bins",
                (int) Math.max(Integer.MIN_VALUE, Math.min(Integer.MAX_VALUE, OptionValues.wholeNumber("--bins",
                        bins))), 16, 1 << 20);
    }

    /** The threshold selection, validated (each method's own options only). */
    ThresholdSelection selection() {
        String m = selection == null ? "held-out" : selection;
        switch (m) {
            case "held-out" -> {
                if (grid != null) {
                    throw new InvalidInputException("--grid", grid, "applies to --selection bonferroni");
                }
                double f = holdout == null ? ThresholdSelection.HeldOut.DEFAULT_FRACTION
                        : OptionValues.number("--holdout-fraction", holdout);
                if (!(f > 0 && f < 1)) {
                    throw new InvalidInputException("--holdout-fraction", holdout, "must be in (0, 1)");
                }
                return new ThresholdSelection.HeldOut(f);
            }
            case "bonferroni" -> {
                if (holdout != null) {
                    throw new InvalidInputException("--holdout-fraction", holdout, "applies to --selection "
                            + "held-out");
                }
                long g = grid == null ? ThresholdSelection.Bonferroni.DEFAULT_GRID
                        : OptionValues.wholeNumber("--grid", grid);
                if (g < 1 || g > 4096) {
                    throw new InvalidInputException("--grid", grid, "must be in [1, 4096]");
                }
                return new ThresholdSelection.Bonferroni((int) g);
            }
            default -> throw new InvalidInputException("--selection", m, "must be held-out or bonferroni");
        }
    }
}

package io.dpaudit.reports.cli;

import io.dpaudit.core.Checks;
import io.dpaudit.core.Deadline;
import picocli.CommandLine.Option;

/**
 * {@code --max-seconds S}, for users who script dp-audit: the command stops with exit 2 and a one-line message naming
 * where the work stood once S seconds have passed since it started, and writes nothing. Mixed into every command that
 * computes.
 */
final class TimeBudget {
    @Option(names = "--max-seconds", paramLabel = "S", description = "stop with exit 2, writing nothing, if the work "
            + "takes longer than S seconds (no limit by default)")
    String maxSeconds;

    /** Starts the budget, if one was given. */
    void start() {
        if (maxSeconds == null) {
            return;
        }
        double s = OptionValues.number("--max-seconds", maxSeconds);
        Checks.positive("--max-seconds", s);
        Deadline.start("--max-seconds", s);
    }
}

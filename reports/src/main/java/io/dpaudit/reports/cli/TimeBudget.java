package io.dpaudit.reports.cli;

import io.dpaudit.core.Checks;
import io.dpaudit.core.engine.ProgressListener;
import io.dpaudit.core.engine.RunControl;
import io.dpaudit.core.numerics.Interruption;
import java.util.function.Function;
import picocli.CommandLine.Option;

/**
 * {@code --max-seconds S}, for users who script dp-audit: the command stops with exit 2 and a one-line message naming
 * where the work stood once S seconds have passed since it started, and writes nothing. Mixed into every command that
 * computes; it makes the command's {@link RunControl}.
 */
final class TimeBudget {
    @Option(names = "--max-seconds", paramLabel = "S", description = "stop with exit 2, writing nothing, if the work "
            + "takes longer than S seconds (no limit by default)")
    String maxSeconds;

    @Option(names = "--no-limit", description = "run however long the time model expects it to take (default: a run "
            + "expected to take more than 30 days, from the counted loop's measured rate, is refused before it starts)")
    boolean noLimit;

    /** The run's control from now on: the budget, if one was given, around {@code display}. */
    RunControl control(ProgressListener display) {
        RunControl control;
        if (maxSeconds == null) {
            control = RunControl.unlimited(display);
        } else {
            double s = OptionValues.number("--max-seconds", maxSeconds);
            Checks.positive("--max-seconds", s);
            control = RunControl.withBudget(display, "--max-seconds", s);
        }
        return noLimit ? control.withoutDurationCap() : control;
    }

    /**
     * Runs {@code work} on this thread under {@code control}: the thread is interrupted when the budget runs out
     * (numerical loops then stop at their next check), and an interrupted loop becomes the control's one-line refusal.
     */
    static <T> T guarded(RunControl control, Function<RunControl, T> work) {
        try (RunControl.Watch watch = control.watch()) {
            return work.apply(control);
        } catch (Interruption.Interrupted e) {
            throw control.stoppedAt(e.where());
        }
    }
}

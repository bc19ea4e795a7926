package io.dpaudit.reports.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;

import io.dpaudit.core.engine.ProgressListener;
import io.dpaudit.core.engine.RunControl;
import org.junit.jupiter.api.Test;

/**
 * {@code calibrate} runs two families at a time; the status its "still working" line and its time-budget message quote
 * must name the family still running. Before, it named the one started last: calibrating a million rounds printed
 * "still working on calibrate: gdp-clt" (a closed form, done in microseconds) while the PLD took 15 s.
 */
class RunningFamiliesTest {
    @Test
    void theStatusNamesTheFamiliesStillRunningNotTheLastStarted() {
        RunControl control = RunControl.unlimited(ProgressListener.NONE);
        RunningFamilies running = new RunningFamilies(control);
        running.started("pld");
        assertEquals("calibrate: pld", control.status());
        running.started("gdp-clt");
        assertEquals("calibrate: pld, gdp-clt", control.status());
        running.finished("gdp-clt");
        assertEquals("calibrate: pld", control.status());
        running.started("rdp");
        running.finished("pld");
        assertEquals("calibrate: rdp", control.status());
    }

    @Test
    void twoFamiliesOfTheSameNameAreTrackedApart() {
        RunControl control = RunControl.unlimited(ProgressListener.NONE);
        RunningFamilies running = new RunningFamilies(control);
        running.started("pld");
        running.started("pld");
        running.finished("pld");
        assertEquals("calibrate: pld", control.status());
    }
}

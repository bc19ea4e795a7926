package io.dpaudit.reports.cli;

import io.dpaudit.core.engine.RunControl;
import java.util.ArrayList;
import java.util.List;

/**
 * The bound families {@code calibrate} is working on, reported to its run control as the phase {@code calibrate: a, b}.
 * Families are calibrated two at a time, and one can finish in microseconds (gdp-clt's closed form) while another
 * takes seconds (the PLD at a million rounds): the status must name the families still running, not the one started
 * last, or "still working on calibrate: gdp-clt" blames the wrong one. The names are in the order their work began.
 */
final class RunningFamilies {
    private final RunControl control;
    private final List<String> running = new ArrayList<>();

    RunningFamilies(RunControl control) {
        this.control = control;
    }

    /** {@code family} has started. */
    synchronized void started(String family) {
        running.add(family);
        report();
    }

    /** {@code family} is done (calibrated or refused); the status keeps the ones still running. */
    synchronized void finished(String family) {
        running.remove(family);
        report();
    }

    private void report() {
        if (!running.isEmpty()) {
            control.onPhase("calibrate", String.join(", ", running));
        }
    }
}

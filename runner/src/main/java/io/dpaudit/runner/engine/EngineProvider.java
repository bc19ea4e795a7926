package io.dpaudit.runner.engine;

import io.dpaudit.core.engine.PhaseEngine;
import io.dpaudit.core.engine.ProgressListener;
import io.dpaudit.runner.ScenarioAudit;

/**
 * An engine other than the local one, found at run time through {@link java.util.ServiceLoader} (so that the core
 * and the command line stay free of it): {@code dp-audit run ... --engine NAME}. The Spark runner
 * ({@code dp-audit-spark}) is one.
 */
public interface EngineProvider {
    /** The name {@code --engine} takes. */
    String name();

    /**
     * Opens an engine for one prepared audit.
     *
     * @param prepared the audit, as the driver prepared it
     * @param scenarioText the scenario file's text, from which remote workers prepare the same audit
     * @param master {@code --master}, or null for the engine's default
     * @param partitions {@code --partitions}, or 0 for the engine's default
     * @param progress where progress goes
     * @throws io.dpaudit.core.InvalidInputException for options the engine cannot serve (an unreachable master)
     */
    Session open(ScenarioAudit.Prepared prepared, String scenarioText, String master, int partitions,
            ProgressListener progress);

    /** An open engine; closing it releases the cluster. */
    interface Session extends AutoCloseable {
        /** The engine of the counted phases. */
        PhaseEngine engine();

        @Override
        void close();
    }
}

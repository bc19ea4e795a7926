/** Engines beyond the local one, plugged in through {@link io.dpaudit.reports.engine.EngineProvider}. */
package io.dpaudit.reports.engine;

/** Engines beyond the local one, plugged in through {@link io.dpaudit.runner.engine.EngineProvider}. */
package io.dpaudit.runner.engine;

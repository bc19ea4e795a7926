/** Audits of per-trial scores computed outside dp-audit (text, CSV, .npy, gzip), streamed in two passes. */
package io.dpaudit.runner.scores;

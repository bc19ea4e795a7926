/**
 * Report model and writers (JSON contract, Markdown, self-contained HTML with an SVG plot), written atomically.
 */
package io.dpaudit.reports.report;

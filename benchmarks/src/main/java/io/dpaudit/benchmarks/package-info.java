/**
 * JMH benchmarks of the trial loop, the draw limit, scenario loops (trials and rounds per second), the accountants, bound evaluation and calibration.
 */
package io.dpaudit.benchmarks;

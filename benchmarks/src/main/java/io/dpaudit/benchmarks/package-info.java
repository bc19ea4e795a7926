/**
 * JMH benchmarks of the trial loop and of the draw limit.
 */
package io.dpaudit.benchmarks;

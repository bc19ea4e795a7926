/**
 * The {@code dp-audit} command line: run, bound, calibrate, list, demo; exit codes 0/1/2/3.
 */
package io.dpaudit.reports.cli;

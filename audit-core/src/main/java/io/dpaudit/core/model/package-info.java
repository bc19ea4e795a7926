/**
 * What mechanisms expose to attacks and reports: output layout, the exact law of the sufficient statistic,
 * parameters and applicable bounds.
 */
package io.dpaudit.core.model;

/**
 * Mechanism types with their faithful simulators (explicit records, clipping, sampling as the papers describe)
 * and reduced simulators (exact samplers of the worst-case sufficient statistic), and the bounds that apply.
 */
package io.dpaudit.mechanisms;

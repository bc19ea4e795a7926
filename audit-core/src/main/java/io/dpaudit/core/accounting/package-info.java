/**
 * Accountants over an event algebra: immutable {@link io.dpaudit.core.accounting.DpEvent}s with an explicit
 * {@link io.dpaudit.core.accounting.Adjacency}, and the RDP, PLD and Gaussian-DP accountants that turn them into
 * (ε, δ) guarantees, rounded to the safe side.
 */
package io.dpaudit.core.accounting;

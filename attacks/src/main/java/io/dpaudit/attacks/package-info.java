/**
 * Distinguishing attacks: each maps one output to one score, batched and allocation-free.
 */
package io.dpaudit.attacks;

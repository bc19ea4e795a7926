/** Helpers several mechanism families share: l2 clipping, Bernoulli processes (exact binomial tables are in {@code io.dpaudit.core.law}). */
package io.dpaudit.mechanisms.common;

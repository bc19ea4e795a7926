/** Helpers several mechanism families share: l2 clipping, exact binomial tables, Bernoulli processes. */
package io.dpaudit.mechanisms.common;

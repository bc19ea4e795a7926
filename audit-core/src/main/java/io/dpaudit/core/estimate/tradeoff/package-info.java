/**
 * Certified empirical trade-off curves (f-DP): the tests' error rates bounded simultaneously
 * (TradeOffCertification) into a curve the true one lies on or below (CertifiedTradeOff).
 */
package io.dpaudit.core.estimate.tradeoff;

/**
 * What an audit could have detected: the power behind a verdict, in δ (DetectionPower; for coupled trials
 * PairedDetectionPower), in ε (EpsilonPower, over Laplace and Gaussian mechanisms) and for f-DP claims
 * (TradeOffPower, over Gaussian pairs).
 */
package io.dpaudit.core.estimate.power;

/**
 * PriFedSync and federated f-DP (Zheng, Chen, Long &amp; Su, AISTATS 2021, seed 002): parameters, the exact law of
 * what reaches the adversary, reduced and faithful simulators, the exact curve of the simulated pair, the proven
 * bound and the seed's statements (Lemma 3.8 and Theorem 1, Theorem 2's finite-sample and central-limit forms).
 */
package io.dpaudit.mechanisms.prifedsync;

/**
 * The zoo: algorithms black-box DP testers are traditionally measured on — the Laplace mechanism, a noisy histogram,
 * report-noisy-max and the six sparse-vector variants of Lyu, Su &amp; Li — correct and buggy, run as black boxes so
 * that the auditor's generic distinguishers are tested on them.
 */
package io.dpaudit.mechanisms.zoo;

/**
 * Random participation in federated learning (Hasircioğlu &amp; Gündüz, seed 000): the three adversary configurations,
 * the four schemes, exact profiles by numerical integration and the paper's theorems (with its two misprints kept as
 * known-wrong claims). Calibration parameter: {@code sigma}.
 */
package io.dpaudit.mechanisms.participation;

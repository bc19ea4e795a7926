/**
 * Random check-ins (Balle, Kairouz, McMahan, Thakkar &amp; Thakurta, NeurIPS 2020, seed 004): the fixed-window
 * protocol (Algorithm 1), averaged updates (Algorithm 2) and sliding windows (Section 4.2), with binary randomized
 * response or a Gaussian randomizer; their exact laws ({@link io.dpaudit.mechanisms.checkin.CheckInModel}), faithful
 * and reduced simulators, worst-case datasets, the seed's reconstructed statements and the proven bounds.
 */
package io.dpaudit.mechanisms.checkin;

/**
 * Local randomizers and the shuffle model (seed 001, Girgis, Data &amp; Diggavi, dss-SGD; and plain shuffling): the
 * randomizers with their exact output laws, the exact law of a shuffled round ({@link
 * io.dpaudit.mechanisms.shuffle.ShuffleLaw}), simulators, and the bounds — the exact curve, the baseline without the
 * shuffler, Feldman–McMillan–Talwar, the seed's proof instantiated with named constants, its readings without
 * constants and two planted accounting bugs. Calibration parameter: {@code eps0}.
 */
package io.dpaudit.mechanisms.shuffle;

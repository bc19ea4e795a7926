/**
 * The learned distinguisher: classifiers between the two worlds fitted on samples of their own, whose log-odds score
 * black-box outputs ({@link io.dpaudit.attacks.learned.LearnedDistinguisher}).
 */
package io.dpaudit.attacks.learned;

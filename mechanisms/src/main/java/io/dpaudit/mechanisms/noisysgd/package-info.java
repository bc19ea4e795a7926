/**
 * {@code noisy-sgd}: projected noisy SGD on a quadratic or logistic loss over an explicit dataset, with a gradient or
 * input canary, releasing only the final model (the hidden-state threat model; formula sheet §16).
 */
package io.dpaudit.mechanisms.noisysgd;

/**
 * DP-SGD batch samplers (issue "DP-SGD batch samplers"; formula sheet §14): Adaptive Batch Linear Queries with Gaussian
 * noise under zero-out adjacency, one noisy sum released per step, the adversary sees every step. Types
 * {@code shuffled-batches} (a permutation per epoch cut into {@code steps} equal batches; {@code shuffle} dynamic or
 * persistent), {@code balls-and-bins} (each record in one uniform step per epoch), {@code random-allocation} (each
 * record in {@code k} uniform distinct steps per epoch), {@code deterministic-batches} (fixed batches) and
 * {@code poisson-batches} (each record in each step with probability 1/steps): faithful simulators over explicit
 * datasets, reduced simulators of the pairs of Chua et al. (2024, 2025) and Feldman &amp; Shenfeld (2025), their exact
 * likelihood ratios in O(T) (O(Tk) for random allocation), and the accountings people use — the right ones and the
 * wrong one.
 */
package io.dpaudit.mechanisms.batching;

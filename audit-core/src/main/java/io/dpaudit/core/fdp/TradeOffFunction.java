package io.dpaudit.core.fdp;

/**
 * A trade-off function {@code f(alpha) = inf {beta_phi : alpha_phi <= alpha}} (Dong, Roth &amp; Su 2019): the smallest
 * type-II error of a test between neighbouring outputs at type-I error {@code alpha}. Convex, continuous,
 * non-increasing, {@code f(alpha) <= 1 - alpha}. A mechanism is f-DP when every neighbouring pair's trade-off curve
 * lies on or above {@code f}.
 */
@FunctionalInterface
public interface TradeOffFunction {
    /** {@code f(alpha)} for {@code alpha in [0, 1]}. */
    double beta(double alpha);
}

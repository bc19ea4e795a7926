package io.dpaudit.core.bounds;

/**
 * The generic composition theorems for {@code T} mechanisms that are each {@code (eps, delta)}-DP (Dwork &amp; Roth,
 * "The Algorithmic Foundations of Differential Privacy", 2014): the basic one (Theorem 3.16) and the strong, or
 * advanced, one (Theorem 3.20) as seed 001 prints it. Both hold for adaptive composition and either adjacency.
 */
public final class Composition {
    private Composition() {
    }

    /** Theorem 3.16: {@code T eps}, with {@code delta_total = T delta}. */
    public static double basicEpsilon(double eps, long rounds) {
        return rounds * eps;
    }

    /**
     * Theorem 3.20: {@code sqrt(2 T log(1/deltaPrime)) eps + T eps (e^eps - 1)}, with
     * {@code delta_total = T delta + deltaPrime}.
     */
    public static double advancedEpsilon(double eps, long rounds, double deltaPrime) {
        return Math.sqrt(2.0 * rounds * Math.log(1 / deltaPrime)) * eps + rounds * eps * Math.expm1(eps);
    }
}

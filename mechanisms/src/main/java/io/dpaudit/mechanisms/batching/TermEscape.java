package io.dpaudit.mechanisms.batching;

import io.dpaudit.core.numerics.Normal;

/**
 * Probabilities under {@code P} that balls-and-bins' terms exceed a clamp {@code B}: {@code T} terms, {@code T - 1} of
 * them of {@code Q}'s law ({@code log w ~ N(0, tau^2)}, one term's tail {@code p_Q = Q(w > B)}) and one of {@code P}'s
 * ({@code log w ~ N(tau^2, tau^2)}, tail {@code p_P}), the terms independent. Each is rounded up.
 */
final class TermEscape {
    private TermEscape() {
    }

    /** That some term exceeds {@code clamp}: {@code 1 - (1 - p_Q)^{T-1} (1 - p_P)}. */
    static double any(int steps, double tau, double clamp) {
        double termQ = Normal.sf(Math.log(clamp) / tau);
        double termP = Normal.sf((Math.log(clamp) - tau * tau) / tau);
        return -Math.expm1((steps - 1) * Math.log1p(-termQ) + Math.log1p(-termP)) * (1 + 1e-12);
    }

    /**
     * That two or more terms exceed {@code clamp}, bounded by the union over pairs:
     * {@code p_P (T - 1) p_Q + C(T - 1, 2) p_Q^2}.
     */
    static double twoOrMore(int steps, double tau, double clamp) {
        double z = Math.log(clamp) / tau;
        double q = Normal.sf(z);
        double p = Normal.sf(z - tau);
        return (p * (steps - 1.0) * q + (steps - 1.0) * (steps - 2.0) / 2 * q * q) * (1 + 1e-12);
    }

    /** That two or more of {@code T} terms of {@code Q}'s law exceed {@code clamp}: at most {@code C(T, 2) p_Q^2}. */
    static double twoOrMoreUnderQ(int steps, double tau, double clamp) {
        double q = Normal.sf(Math.log(clamp) / tau);
        return steps * (steps - 1.0) / 2 * q * q * (1 + 1e-12);
    }

    /**
     * The smallest clamp where {@link #any} (or, {@code twoOrMore}, {@link #twoOrMore}) is at most {@code escape}:
     * bisection on {@code log B} over {@code [0, 200]}, the upper end kept.
     */
    static double clamp(int steps, double tau, double escape, boolean twoOrMore) {
        double lo = 0;
        double hi = 200;
        for (int it = 0; it < 80; it++) {
            double mid = (lo + hi) / 2;
            double b = Math.exp(mid);
            if ((twoOrMore ? twoOrMore(steps, tau, b) : any(steps, tau, b)) > escape) {
                lo = mid;
            } else {
                hi = mid;
            }
        }
        return Math.exp(hi);
    }
}

package io.dpaudit.mechanisms.batching;

import io.dpaudit.core.numerics.Normal;

/**
 * Probabilities that balls-and-bins' terms exceed a clamp {@code B}: {@code T} independent terms, under {@code Q} all of
 * one law ({@code log w ~ N(0, tau^2)}, tail {@code p_Q = Q(w > B)}), under {@code P} one of them of the shifted law
 * ({@code log w ~ N(tau^2, tau^2)}, tail {@code p_P}) and {@code T - 1} of {@code Q}'s. Each is rounded up.
 */
final class TermEscape {
    private TermEscape() {
    }

    /**
     * Under {@code P}, that at least {@code k} (1, 2 or 3) terms exceed {@code clamp}: for {@code k = 1},
     * {@code 1 - (1 - p_Q)^{T-1} (1 - p_P)}; otherwise by the union over sets of {@code k} terms,
     * {@code p_P C(T - 1, k - 1) p_Q^{k-1} + C(T - 1, k) p_Q^k}.
     */
    static double atLeast(int k, int steps, double tau, double clamp) {
        double q = Normal.sf(Math.log(clamp) / tau);
        double p = Normal.sf((Math.log(clamp) - tau * tau) / tau);
        if (k == 1) {
            return -Math.expm1((steps - 1) * Math.log1p(-q) + Math.log1p(-p)) * (1 + 1e-12);
        }
        if (k == 2) {
            return (p * (steps - 1.0) * q + (steps - 1.0) * (steps - 2.0) / 2 * q * q) * (1 + 1e-12);
        }
        return (p * choose(steps - 1, k - 1) * power(q, k - 1) + choose(steps - 1, k) * power(q, k)) * (1 + 1e-12);
    }

    /**
     * Under {@code Q}, that at least {@code k} terms exceed {@code clamp}: {@code 1 - (1 - p_Q)^T} for {@code k = 1},
     * otherwise at most {@code C(T, k) p_Q^k}.
     */
    static double atLeastUnderQ(int k, int steps, double tau, double clamp) {
        double q = Normal.sf(Math.log(clamp) / tau);
        if (k == 1) {
            return -Math.expm1(steps * Math.log1p(-q)) * (1 + 1e-12);
        }
        if (k == 2) {
            return steps * (steps - 1.0) / 2 * q * q * (1 + 1e-12);
        }
        return choose(steps, k) * power(q, k) * (1 + 1e-12);
    }

    private static double power(double q, int k) {
        double v = 1;
        for (int i = 0; i < k; i++) {
            v *= q;
        }
        return v;
    }

    /** {@code C(n, k)} for small {@code k}, in double (at least 0). */
    private static double choose(int n, int k) {
        double c = 1;
        for (int i = 0; i < k; i++) {
            c *= (double) (n - i) / (i + 1);
        }
        return Math.max(0, c);
    }

    /**
     * The smallest clamp where {@link #atLeast} {@code k} is at most {@code escape}: bisection on {@code log B} over
     * {@code [0, 200]}, the upper end kept.
     */
    static double clamp(int steps, double tau, double escape, int k) {
        double lo = 0;
        double hi = 200;
        for (int it = 0; it < 80; it++) {
            double mid = (lo + hi) / 2;
            if (atLeast(k, steps, tau, Math.exp(mid)) > escape) {
                lo = mid;
            } else {
                hi = mid;
            }
        }
        return Math.exp(hi);
    }
}

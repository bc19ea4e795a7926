package io.dpaudit.mechanisms.batching;

import io.dpaudit.core.bounds.BoundKind;
import io.dpaudit.core.bounds.PrivacyBound;
import io.dpaudit.core.numerics.Normal;
import io.dpaudit.core.numerics.SafeRounding;

/**
 * The lower bound of Chua, Ghazi, Kamath, Kumar, Manurangsi, Sinha &amp; Zhang ("How Private are DP-SGD
 * Implementations?", ICML 2024) on shuffled batches: on the pair {@code P = (1/T) sum_t N(2 e_t, s^2 I_T)} against
 * {@code Q = (1/T) sum_t N(e_t, s^2 I_T)} (every other record's clipped gradient opposite to the canary's), the single
 * test {@code E_C = {max_t x_t > C}} gives
 * <pre>
 * delta_S(eps) >= max_C [P(E_C) - e^eps Q(E_C)],   P(max <= C) under a shift m: Phi((C - m)/s) Phi(C/s)^(T-1),
 * </pre>
 * a lower bound on the δ that any correct accounting of shuffled batches must give (formula sheet §14). One epoch,
 * or E epochs of a persistent shuffle ({@code s = sigma / sqrt(E)}: the per-step sums over the epochs). For E epochs of
 * a dynamic shuffle the one-epoch value is used: still a lower bound (more epochs only add privacy loss), a loose one.
 *
 * <p>Computed in log space ({@code (T-1) log Phi}), maximised over C on a grid of 4000 points spanning the noise
 * (C from {@code 1.5 - 12 s} to {@code 2 + 60 s}) refined by golden-section search around the best, and rounded down
 * (a lower bound). ε(δ) by the default root finding on the profile.
 */
final class ShuffleMaxTestBound implements PrivacyBound {
    static final String NAME = "chua24-shuffle-lower";
    private final int steps;
    private final double s;
    private final String source;

    ShuffleMaxTestBound(BatchingParameters b) {
        this.steps = b.steps();
        this.s = b.persistent() ? b.sigma() / Math.sqrt(b.epochs()) : b.sigma();
        this.source = "Chua et al. (ICML 2024), the max test on the shuffle's pair (1/T) sum N(2 e_t) vs (1/T) sum "
                + "N(e_t): a proven lower bound on shuffled batches' delta(eps)" + (b.epochs() > 1 && !b.persistent()
                ? " (the one-epoch value: a loose lower bound for " + b.epochs() + " dynamic epochs)" : "");
    }

    @Override
    public String name() {
        return NAME;
    }

    @Override
    public String source() {
        return source;
    }

    @Override
    public BoundKind kind() {
        return BoundKind.LOWER_BOUND;
    }

    @Override
    public double delta(double epsilon) {
        double lo = 1.5 - 12 * s;
        double hi = 2 + 60 * s;
        int n = 4000;
        double best = Double.NEGATIVE_INFINITY;
        int arg = 0;
        for (int i = 0; i <= n; i++) {
            double v = gap(lo + (hi - lo) * i / n, epsilon);
            if (v > best) {
                best = v;
                arg = i;
            }
        }
        double a = lo + (hi - lo) * Math.max(0, arg - 1) / n;
        double b = lo + (hi - lo) * Math.min(n, arg + 1) / n;
        double g = (Math.sqrt(5) - 1) / 2;
        for (int it = 0; it < 60; it++) {
            double c = b - g * (b - a);
            double d = a + g * (b - a);
            double vc = gap(c, epsilon);
            double vd = gap(d, epsilon);
            best = Math.max(best, Math.max(vc, vd));
            if (vc > vd) {
                b = d;
            } else {
                a = c;
            }
        }
        return Math.max(0, SafeRounding.down(best));
    }

    /** {@code P(E_C) - e^eps Q(E_C)} (NaN-free; -inf where e^eps overflows against a positive Q(E_C)). */
    private double gap(double c, double epsilon) {
        double logOthers = (steps - 1) * Normal.logCdf(c / s);
        double p = -Math.expm1(Normal.logCdf((c - 2) / s) + logOthers);
        double q = -Math.expm1(Normal.logCdf((c - 1) / s) + logOthers);
        if (q <= 0) {
            return p;
        }
        double logTerm = epsilon + Math.log(q);
        return logTerm > 700 ? Double.NEGATIVE_INFINITY : p - Math.exp(logTerm);
    }
}

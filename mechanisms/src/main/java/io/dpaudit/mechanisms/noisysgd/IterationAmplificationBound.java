package io.dpaudit.mechanisms.noisysgd;

import io.dpaudit.core.Checks;
import io.dpaudit.core.accounting.RdpAccountant;
import io.dpaudit.core.accounting.RdpConversion;
import io.dpaudit.core.bounds.PrivacyBound;
import java.util.Locale;

/**
 * {@code amplification-by-iteration}: privacy amplification by iteration (Feldman, Mironov, Talwar &amp; Thakurta,
 * FOCS 2018) for the final model of projected noisy SGD on a convex, smooth loss, as a Rényi bound converted to
 * (ε, δ).
 *
 * <p>The statement. Write one step as {@code theta' = Proj_K(psi_t(theta) + Z_t)}, {@code psi_t(theta) = theta - eta
 * g_t(theta)}, {@code Z_t ~ N(0, s^2 I_d)} with {@code s = eta sigma C}, K the ball of diameter D. When every possible
 * batch's summed (clipped) gradient is the gradient of a convex, beta-smooth function and {@code eta <= 2 / beta},
 * each {@code psi_t} is a contraction, and so is the projection. The canary moves a step's map by at most
 * {@code s_t = eta C} (its clipped gradient), in every step where it is drawn. FMTT18's shift-reduction and
 * contraction-reduction lemmas (their Section 3, chained as in their Theorem 22) then give, for shifts
 * {@code a_t >= 0} with running slack {@code z_t = z_{t-1} + s_t - a_t >= 0} and {@code z_T = 0},
 * {@code D_alpha(theta_T || theta'_T) <= sum_t alpha a_t^2 / (2 s^2)}. Two starts:
 * <ul>
 *   <li>from step 0 ({@code z_0 = 0}, both runs start at 0): {@code a_t = eta C} gives {@code T alpha / (2 sigma^2)},
 *       the unsampled transcript's Gaussian composition (post-processing gives it too);</li>
 *   <li>from step {@code T - tau} with {@code z_{T - tau} = D}: both iterates lie in K, so the infinity-Wasserstein
 *       distance of their laws is at most D and the D-shifted divergence there is 0 (the bounded-domain start
 *       Altschuler &amp; Talwar, NeurIPS 2022, use); equal shifts {@code a = (D + tau eta C) / tau} keep every
 *       {@code z_t >= 0} and give {@code alpha (x + tau)^2 / (2 sigma^2 tau)}, {@code x = D / (eta C)}.</li>
 * </ul>
 * Hence {@code (alpha, alpha rho)}-RDP for every {@code alpha > 1} with
 * {@code rho = min(T, min_{1 <= tau < T} (x + tau)^2 / tau) / (2 sigma^2)}, in both directions of add/remove. The
 * canary's Poisson draws and the records' batches are mixed out by the joint quasi-convexity of Rényi divergence (the
 * batches are shared by both worlds; the worst case draws the canary in every step), so the bound takes no
 * amplification by sampling: it is the last iterate's gain from the bounded domain alone, independent of T once
 * {@code T > x}. The RDP curve is converted on {@link RdpAccountant}'s orders by {@link RdpConversion} (the better of
 * Mironov 2017 and Balle et al. 2020 at each order), rounded up.
 */
final class IterationAmplificationBound implements PrivacyBound {
    /** The bound's name. */
    static final String NAME = "amplification-by-iteration";

    private final double[] orders;
    private final double[] curve;
    private final double rho;
    private final String source;

    /**
     * @param sigma the noise multiplier
     * @param steps T
     * @param shiftSteps {@code x = D / (eta C)}, the domain's diameter in canary steps (infinite without projection)
     * @param conditions the contractivity conditions checked, for the source text
     */
    IterationAmplificationBound(double sigma, long steps, double shiftSteps, String conditions) {
        double best = steps;
        if (Double.isFinite(shiftSteps)) {
            // (x + tau)^2 / tau is convex in tau with its minimum at tau = x: the integers either side suffice.
            long around = (long) Math.floor(Math.min(shiftSteps, steps - 1.0));
            for (long tau = Math.max(1, around); tau <= Math.min(steps - 1, around + 1); tau++) {
                best = Math.min(best, (shiftSteps + tau) * (shiftSteps + tau) / tau);
            }
        }
        this.rho = best / (2 * sigma * sigma);
        this.orders = new RdpAccountant().orders();
        this.curve = new double[orders.length];
        for (int i = 0; i < orders.length; i++) {
            curve[i] = orders[i] * rho;
        }
        this.source = String.format(Locale.ROOT, "Feldman, Mironov, Talwar & Thakurta (FOCS 2018), privacy amplification "
                + "by iteration (shift and contraction reduction, chained as in their Theorem 22), started from the "
                + "domain's diameter tau steps before the end (Altschuler & Talwar 2022): (alpha, alpha rho)-RDP with "
                + "rho = min(T, min_tau (x + tau)^2 / tau) / (2 sigma^2) = %s, x = D / (eta C) = %s; %s; no "
                + "amplification by sampling; converted on %d orders by the better of Mironov 2017 and Balle et al. "
                + "2020", Checks.format(rho), Checks.format(shiftSteps), conditions, orders.length);
    }

    /** {@code rho}: the bound is {@code (alpha, alpha rho)}-RDP. */
    double rho() {
        return rho;
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
    public double delta(double epsilon) {
        return RdpConversion.delta(orders, curve, epsilon).value();
    }

    @Override
    public double epsilon(double delta) {
        return RdpConversion.epsilon(orders, curve, delta).value();
    }
}

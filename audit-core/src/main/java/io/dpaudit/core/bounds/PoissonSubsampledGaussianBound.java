package io.dpaudit.core.bounds;

import io.dpaudit.core.Checks;
import io.dpaudit.core.numerics.LogSpace;
import io.dpaudit.core.numerics.Normal;
import io.dpaudit.core.numerics.SafeRounding;

/**
 * Exact privacy profile of one round of the Poisson-subsampled Gaussian mechanism under add/remove adjacency.
 *
 * <p>With the canary included with probability {@code q}, the worst-case output laws are
 * {@code P = (1-q) N(0, 1) + q N(mu, 1)} (canary present) and {@code Q = N(0, 1)} (absent), {@code mu = C/s}. The
 * profile is {@code max(H_{e^eps}(P||Q), H_{e^eps}(Q||P))} with, writing
 * {@code eps+ = log(1 + (e^eps - 1)/q)} and {@code eps- = log(1 + (e^-eps - 1)/q)}:
 * <ul>
 *   <li>remove: {@code H(P||Q) = q delta_G(eps+; mu)} for {@code eps > log(1-q)} — Balle, Barthe &amp; Gaboardi
 *       (NeurIPS 2018) Thm 8 is tight for the Gaussian;</li>
 *   <li>add: {@code H(Q||P) = (1 - e^eps (1-q)) Phi(x') - q e^eps Phi(x' - mu)}, {@code x' = mu/2 + eps-/mu}, for
 *       {@code eps < -log(1-q)}, else 0.</li>
 * </ul>
 * These closed forms are derived in the formula sheet (§2.2) and match dp_accounting's
 * {@code GaussianPrivacyLoss(sampling_prob=q)} to about 1e-15. Differences are taken in log space. The profile is
 * for one round only; compositions belong to the numerical accountants.
 */
public final class PoissonSubsampledGaussianBound implements PrivacyBound {
    /** Identifier used in claims and on the command line. */
    public static final String NAME = "poisson-subsampled-gaussian-exact";

    private final double q;
    private final double mu;

    /**
     * @param q sampling probability in (0, 1]
     * @param mu {@code C / s}, {@code > 0}
     */
    public PoissonSubsampledGaussianBound(double q, double mu) {
        this.q = Checks.samplingProbability("q", q);
        this.mu = Checks.positive("mu", mu);
    }

    @Override
    public String name() {
        return NAME;
    }

    @Override
    public String source() {
        return "exact profile, max of remove q*delta_G(log(1+(e^eps-1)/q)) (Balle, Barthe & Gaboardi 2018, Thm 8, "
                + "tight for the Gaussian) and add direction (closed form, dp-audit formula sheet 2.2); one round";
    }

    @Override
    public double delta(double epsilon) {
        return SafeRounding.upProbability(Math.max(remove(epsilon, q, mu), add(epsilon, q, mu)));
    }

    /** {@code H_{e^eps}(P || Q)}, the remove direction, without rounding. */
    public static double remove(double epsilon, double q, double mu) {
        if (q == 1.0) {
            return GaussianBound.exactDelta(epsilon, mu);
        }
        double log1mq = Math.log1p(-q);
        if (epsilon <= log1mq) {
            return -Math.expm1(epsilon);
        }
        double epsPlus = PoissonAmplificationBound.baseEpsilon(epsilon, q); // log space where e^eps overflows
        return q * GaussianBound.exactDelta(epsPlus, mu);
    }

    /** {@code H_{e^eps}(Q || P)}, the add direction, without rounding. */
    public static double add(double epsilon, double q, double mu) {
        if (q == 1.0) {
            return GaussianBound.exactDelta(epsilon, mu);
        }
        double log1mq = Math.log1p(-q);
        if (epsilon + log1mq >= 0) {
            return 0.0;
        }
        // eps- = log(1 + (e^-eps - 1)/q), finite because e^-eps > 1 - q here.
        double epsMinus = Math.log1p(Math.expm1(-epsilon) / q);
        double x = mu / 2 + epsMinus / mu;
        double l1 = Math.log(-Math.expm1(epsilon + log1mq)) + Normal.logCdf(x);
        double l2 = Math.log(q) + epsilon + Normal.logCdf(x - mu);
        if (l2 >= l1) {
            return 0.0;
        }
        return Math.min(1.0, Math.exp(l1 + LogSpace.log1mExp(l2 - l1)));
    }
}

package io.dpaudit.core.fdp;

import io.dpaudit.core.Checks;
import io.dpaudit.core.numerics.Normal;

/**
 * Central-limit approximations of the Gaussian-DP parameter of T-fold subsampled Gaussian mechanisms. These are
 * <b>asymptotic approximations, not upper bounds</b>: for the DP-SGD example of the formula sheet (§5.5) the Poisson
 * CLT gives ε = 2.3243 where the tight PLD value is 2.3817. They are reported as uncertified approximations, which an
 * audit may legitimately find violated.
 *
 * <ul>
 *   <li>Poisson subsampling (Bu, Dong, Long &amp; Su 2020): {@code mu = p sqrt(T (e^{1/sigma^2} - 1))};</li>
 *   <li>sampling without replacement, i.e. the {@code C_p} CLT (Dong, Roth &amp; Su 2019; the "refined" form of seed
 *       002): {@code mu = sqrt(2) p sqrt(T) sqrt(e^{1/sigma^2} Phi(1.5/sigma) + 3 Phi(-0.5/sigma) - 2)} — a different
 *       sampling scheme and adjacency (replace-one) from the Poisson form, not a refinement of it.</li>
 * </ul>
 * {@code sigma} is the noise multiplier (noise standard deviation over the sensitivity under the adjacency in use).
 */
public final class CentralLimitMu {
    private CentralLimitMu() {
    }

    /** Poisson subsampling with probability {@code p}, {@code rounds} rounds. */
    public static double poisson(double p, double sigma, long rounds) {
        Checks.samplingProbability("p", p);
        Checks.positive("sigma", sigma);
        return p * Math.sqrt(rounds * Math.expm1(1 / (sigma * sigma)));
    }

    /** Sampling without replacement of a fraction {@code p}, {@code rounds} rounds. */
    public static double uniform(double p, double sigma, long rounds) {
        Checks.samplingProbability("p", p);
        Checks.positive("sigma", sigma);
        double inner = Math.exp(1 / (sigma * sigma)) * Normal.cdf(1.5 / sigma) + 3 * Normal.cdf(-0.5 / sigma) - 2;
        return Math.sqrt(2) * p * Math.sqrt((double) rounds) * Math.sqrt(inner);
    }
}

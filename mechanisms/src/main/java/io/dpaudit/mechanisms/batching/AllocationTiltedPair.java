package io.dpaudit.mechanisms.batching;

import io.dpaudit.core.numerics.Normal;
import java.util.ArrayList;
import java.util.List;
import org.apache.commons.rng.UniformRandomProvider;
import org.apache.commons.rng.sampling.distribution.ZigguratSampler;

/**
 * Balls-and-bins ({@code k = 1}) and k-of-T random allocation as a {@link TiltedPair}: P, the canary in a uniform
 * k-subset of the T steps with shift 1, against Q, no canary, both with noise {@code sigma}. The tilts are the integer
 * powers of the likelihood ratio, {@code r = P e^{theta L} / M(theta)}, exact finite mixtures of shifted Gaussians
 * ({@link AllocationTilt} for one step, {@link SubsetTilt} for k); the weight {@code M e^{-theta L}} is a function of L.
 *
 * <p>Add direction: {@code L >= k mean_t(log w_t)} (Maclaurin's inequality: {@code (e_k(w)/C(T,k))^{1/k}} is at least
 * the geometric mean of the w), and under Q the {@code log w_t} are independent {@code N(-tau^2/2, tau^2)}, so
 * {@code E_Q[e^{-theta L}] <= e^{theta k (1 + theta k / T) tau^2 / 2}}; and for one epoch a lower-tail bound on the
 * likelihood ratio R itself ({@link #logAddTail}), which holds where the moment bound says nothing
 * ({@code eps < k tau^2 / 2}).
 */
final class AllocationTiltedPair implements TiltedPair {
    private final int steps;
    private final int k;
    private final double sigma;
    private List<Tilt> tilts;

    AllocationTiltedPair(int steps, int k, double sigma) {
        this.steps = steps;
        this.k = k;
        this.sigma = sigma;
    }

    /**
     * The integer tilts 1, 2, ... up to {@value AllocationTilt#MAX_THETA} or the first whose profile table is too large,
     * built on first use (a scenario asks for its mechanism's importance sampler whether or not it runs it).
     */
    @Override
    public synchronized List<Tilt> tilts() {
        if (tilts == null) {
            List<Tilt> list = new ArrayList<>();
            for (int t = 1; t <= AllocationTilt.MAX_THETA; t++) {
                Tilt tilt = k == 1 ? new AllocationTilt(steps, 1.0, sigma, t) : SubsetTilt.build(steps, k, sigma, t);
                if (tilt == null) {
                    break; // its profile table is too large, and so are the larger tilts'
                }
                list.add(tilt);
            }
            tilts = List.copyOf(list);
        }
        return tilts;
    }

    @Override
    public EpochSampler plain(UniformRandomProvider rng) {
        if (k > 1) {
            return SubsetTilt.plain(steps, k, sigma, rng);
        }
        ZigguratSampler.NormalizedGaussian gauss = ZigguratSampler.NormalizedGaussian.of(rng);
        int[] none = new int[0];
        return new EpochSampler() {
            @Override
            public double next() {
                return AllocationTilt.lossOf(gauss, steps, 1.0, sigma, none, none, 0);
            }

            @Override
            public double slack() {
                return 0;
            }
        };
    }

    @Override
    public double logAddMoment(double theta) {
        double tau = 1 / sigma;
        return theta * k * (1 + theta * k / steps) * tau * tau / 2;
    }

    /**
     * {@code log Q(R < e^{-eps})}, bounded through Hoeffding's representation of the U-statistic
     * {@code R = e_k(w) / C(T,k)}: R is an average over permutations of {@code V = (1/m) sum_{j<m} h_j}, the products
     * {@code h_j} of the w over m = floor(T/k) disjoint blocks of k steps (independent lognormals, {@code log h ~
     * N(-k tau^2/2, k tau^2)}, mean 1), so by Jensen's inequality {@code E e^{-lambda R} <= (E e^{-lambda h/m})^m}.
     * With {@code Y = min(h, c) <= h} and {@code e^{-x} <= 1 - x + x^2/2} ({@code x >= 0}):
     * {@code E e^{-lambda Y/m} <= exp(-lambda mu_c / m + lambda^2 nu_c / (2 m^2))} ({@code mu_c, nu_c} the truncated
     * moments, closed forms), and Chernoff's bound at the best lambda gives
     * {@code Q(R < a) <= exp(-m (mu_c - a)^2 / (2 nu_c))} for every c with {@code mu_c > a}; the smallest over a grid of
     * c. The moments are rounded the safe way (mu_c down, nu_c up, by a relative 1e-12).
     */
    @Override
    public double logAddTail(double eps) {
        double a = Math.exp(-eps);
        int m = steps / k;
        double s2 = k / (sigma * sigma);
        double s = Math.sqrt(s2);
        double mu = -s2 / 2;
        double best = 0;
        for (int i = 0; i <= 400; i++) {
            double logC = -3 + 9 * i / 400.0;
            double c = Math.exp(logC);
            double above = Normal.sf((logC - mu) / s);
            double first = (Normal.cdf((logC - mu - s2) / s) + c * above) * (1 - 1e-12);
            double second = (Math.exp(s2) * Normal.cdf((logC - mu - 2 * s2) / s) + c * c * above) * (1 + 1e-12);
            if (first > a) {
                best = Math.min(best, -m * (first - a) * (first - a) / (2 * second));
            }
        }
        return best;
    }

    @Override
    public String source() {
        return k == 1 ? "importance sampling of balls-and-bins from its likelihood-ratio-tilted law P e^{theta L} / "
                + "M(theta) (integer theta: a finite mixture of shifted Gaussians, sampled exactly), whose weights are "
                + "at most M^E e^{-theta eps} where the profile's integrand is non-zero; add direction by plain sampling "
                + "and Chernoff bounds"
                : "importance sampling of " + k + "-of-T random allocation from its likelihood-ratio-tilted law P e^{theta "
                + "L} / M(theta) (integer theta: a finite mixture of shifted Gaussians over tuples of k-subsets, sampled "
                + "exactly through their count profiles), whose weights are at most M^E e^{-theta eps} where the "
                + "profile's integrand is non-zero; add direction by plain sampling and Chernoff bounds";
    }
}

package io.dpaudit.mechanisms.batching;

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
 * {@code E_Q[e^{-theta L}] <= e^{theta k (1 + theta k / T) tau^2 / 2}}.
 */
final class AllocationTiltedPair implements TiltedPair {
    private final int steps;
    private final int k;
    private final double sigma;
    private final List<Tilt> tilts;

    AllocationTiltedPair(int steps, int k, double sigma) {
        this.steps = steps;
        this.k = k;
        this.sigma = sigma;
        List<Tilt> list = new ArrayList<>();
        for (int t = 1; t <= AllocationTilt.MAX_THETA; t++) {
            Tilt tilt = k == 1 ? new AllocationTilt(steps, 1.0, sigma, t) : SubsetTilt.build(steps, k, sigma, t);
            if (tilt == null) {
                break; // its profile table is too large, and so are the larger tilts'
            }
            list.add(tilt);
        }
        this.tilts = List.copyOf(list);
    }

    @Override
    public List<Tilt> tilts() {
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

    @Override
    public String source() {
        return k == 1 ? "importance sampling of balls-and-bins from its likelihood-ratio-tilted law P e^{theta L} / "
                + "M(theta) (integer theta: a finite mixture of shifted Gaussians, sampled exactly), whose weights are "
                + "at most M^E e^{-theta eps} where the profile's integrand is non-zero; add direction by plain sampling "
                + "and a Chernoff bound"
                : "importance sampling of " + k + "-of-T random allocation from its likelihood-ratio-tilted law P e^{theta "
                + "L} / M(theta) (integer theta: a finite mixture of shifted Gaussians over tuples of k-subsets, sampled "
                + "exactly through their count profiles), whose weights are at most M^E e^{-theta eps} where the "
                + "profile's integrand is non-zero; add direction by plain sampling and a Chernoff bound";
    }
}

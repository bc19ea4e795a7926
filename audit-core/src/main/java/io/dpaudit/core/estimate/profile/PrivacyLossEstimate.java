package io.dpaudit.core.estimate.profile;

import java.util.List;

/**
 * A two-sided Monte Carlo estimate of the privacy profile {@code δ(ε)} of the simulated pair, with confidence
 * intervals that hold simultaneously over the whole ε grid (see {@link PrivacyLossEstimator}).
 *
 * @param method how the trials were drawn: {@code plain} (Monte Carlo of the mechanism itself, any engine) or
 *        {@code importance} ({@link TiltedProfileEstimator}: white-box, from the exact densities)
 * @param source the method's and its intervals' citation
 * @param confidence probability that every interval on the grid holds at once
 * @param trials trials per world
 * @param bracket how the counted scores bracket the exact log-likelihood ratio
 * @param tailTrials trials (both worlds) that fell outside the histogram's interior, counted at their safe extremes
 * @param grid the intervals, by increasing ε
 * @param effectiveSampleSize per grid point, the effective sample size {@code (Σ Y)^2 / Σ Y^2} of its weighted terms
 *        (for plain sampling, the trials per world)
 * @param plainTrialsEquivalent per grid point, the plain trials per world whose standard error would equal this
 *        estimate's (for plain sampling, the trials per world)
 */
public record PrivacyLossEstimate(String method, String source, double confidence, long trials, String bracket,
        long tailTrials, List<DeltaInterval> grid, double[] effectiveSampleSize, double[] plainTrialsEquivalent) {

    public PrivacyLossEstimate {
        grid = List.copyOf(grid);
        if (effectiveSampleSize.length != grid.size() || plainTrialsEquivalent.length != grid.size()) {
            throw new IllegalArgumentException("one effective sample size and one plain equivalent per grid point");
        }
        effectiveSampleSize = effectiveSampleSize.clone();
        plainTrialsEquivalent = plainTrialsEquivalent.clone();
        if (grid.isEmpty()) {
            throw new IllegalArgumentException("an estimate needs at least one epsilon");
        }
    }

    /**
     * The interval for δ at one ε.
     *
     * @param epsilon ε
     * @param lower lower confidence bound on δ(ε)
     * @param upper upper confidence bound on δ(ε)
     * @param estimate point estimate (the larger of the two directions' sample means, midpoint of their brackets)
     */
    public record DeltaInterval(double epsilon, double lower, double upper, double estimate) {
    }

    /**
     * The interval for ε(δ) = the smallest ε ≥ 0 with δ(ε) ≤ δ.
     *
     * @param delta δ
     * @param lower lower confidence bound (0 when nothing is proven)
     * @param upper upper confidence bound ({@code +inf} when no grid point is proven to reach δ)
     */
    public record EpsilonInterval(double delta, double lower, double upper) {
    }

    /**
     * The grid of a white-box estimate from its per-point bounds, made consistent with δ(ε) being non-increasing:
     * every upper bound is lowered to the smallest one at a smaller ε and every lower bound raised to the largest one
     * at a larger ε (each still holds where the originals hold together), and no upper end below its lower end.
     *
     * @param epsilons the grid's ε, increasing
     * @param lower lower confidence bounds on δ, modified in place
     * @param upper upper confidence bounds on δ, modified in place
     * @param point point estimates
     */
    public static List<DeltaInterval> monotoneGrid(double[] epsilons, double[] lower, double[] upper, double[] point) {
        int k = epsilons.length;
        for (int j = 1; j < k; j++) {
            upper[j] = Math.min(upper[j], upper[j - 1]);
        }
        for (int j = k - 2; j >= 0; j--) {
            lower[j] = Math.max(lower[j], lower[j + 1]);
        }
        List<DeltaInterval> grid = new java.util.ArrayList<>(k);
        for (int j = 0; j < k; j++) {
            grid.add(new DeltaInterval(epsilons[j], lower[j], Math.max(upper[j], lower[j]), point[j]));
        }
        return grid;
    }

    /** Equal when every component is, the per-point arrays by content. */
    @Override
    public boolean equals(Object o) {
        return o instanceof PrivacyLossEstimate e && method.equals(e.method) && source.equals(e.source)
                && Double.compare(confidence, e.confidence) == 0 && trials == e.trials && bracket.equals(e.bracket)
                && tailTrials == e.tailTrials && grid.equals(e.grid)
                && java.util.Arrays.equals(effectiveSampleSize, e.effectiveSampleSize)
                && java.util.Arrays.equals(plainTrialsEquivalent, e.plainTrialsEquivalent);
    }

    @Override
    public int hashCode() {
        return java.util.Objects.hash(method, source, confidence, trials, bracket, tailTrials, grid,
                java.util.Arrays.hashCode(effectiveSampleSize), java.util.Arrays.hashCode(plainTrialsEquivalent));
    }

    /** Whether the estimate was computed from the simulator's exact densities (importance sampling). */
    public boolean whiteBox() {
        return TiltedProfileEstimator.NAME.equals(method);
    }

    /** The grid index of {@code epsilon}, or -1 when it is not a grid point. */
    public int indexOf(double epsilon) {
        int lo = 0;
        int hi = grid.size() - 1;
        while (lo <= hi) {
            int mid = (lo + hi) >>> 1;
            double e = grid.get(mid).epsilon();
            if (e < epsilon) {
                lo = mid + 1;
            } else if (e > epsilon) {
                hi = mid - 1;
            } else {
                return mid;
            }
        }
        return -1;
    }

    /**
     * The interval at {@code epsilon}: the grid's own when {@code epsilon} is a grid point; between two grid points
     * {@code ε_j < ε < ε_{j+1}} the monotonicity of δ gives {@code [lower(ε_{j+1}), upper(ε_j)]}, valid on the same
     * event. Beyond the grid the lower bound is 0 (and the upper bound that of the last point).
     */
    public DeltaInterval deltaAt(double epsilon) {
        DeltaInterval below = null;
        for (DeltaInterval d : grid) {
            if (d.epsilon() == epsilon) {
                return d;
            }
            if (d.epsilon() > epsilon) {
                return new DeltaInterval(epsilon, d.lower(), below == null ? 1.0 : below.upper(), Double.NaN);
            }
            below = d;
        }
        return new DeltaInterval(epsilon, 0.0, below.upper(), Double.NaN);
    }

    /**
     * The interval for ε(δ) read off the grid: the upper end is the first grid ε whose upper δ bound is at most
     * {@code delta}; the lower end the last grid ε whose lower δ bound exceeds {@code delta}. Both hold whenever every
     * interval of the grid does, since δ is non-increasing in ε. The grid's spacing adds to the width.
     */
    public EpsilonInterval epsilonAt(double delta) {
        double upper = Double.POSITIVE_INFINITY;
        double lower = 0.0;
        for (DeltaInterval d : grid) {
            if (d.upper() <= delta) {
                upper = d.epsilon();
                break;
            }
        }
        for (DeltaInterval d : grid) {
            if (d.lower() > delta) {
                lower = d.epsilon();
            }
        }
        return new EpsilonInterval(delta, Math.min(lower, upper), upper);
    }
}

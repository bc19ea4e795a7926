package io.dpaudit.attacks;

import io.dpaudit.core.law.GaussianMixture;

/**
 * The per-round log-likelihood ratio {@code L(y) = log p_D(y) - log p_D'(y)} of a one-dimensional statistic,
 * tabulated for hot loops.
 *
 * <p>The table covers {@code [min mean - 40 s, max mean + 40 s]} with spacing {@code s/128}; inside it {@code L} is
 * linearly interpolated, outside it is evaluated exactly (a rare, separate path). Construction measures the largest
 * interpolation error at all cell midpoints and reports it: since {@code L''} is bounded by
 * {@code 1/s^2 + (range of means)^2/(4 s^4)}, it is of order {@code 1e-5} or below for the mechanisms here. An
 * interpolated {@code L} is still a fixed function of the output applied identically in both worlds, so the audit
 * remains valid; only the attack's optimality is approximate to this error.
 */
final class TabulatedLogRatio {
    private static final int CELLS_PER_SD = 128;
    private static final double HALF_WIDTH_SDS = 40.0;

    private final GaussianMixture withCanary;
    private final GaussianMixture withoutCanary;
    private final double lo;
    private final double hi;
    private final double inverseStep;
    private final double step;
    private final double[] values;
    private final double[] slopes;
    private final double maxInterpolationError;
    private final boolean nonDecreasing;

    /** Largest table (cells); beyond it the exact log ratio is evaluated per trial instead. */
    static final double MAX_CELLS = 1 << 22;

    /**
     * Whether the table for this pair fits: the means spread over at most about {@code MAX_CELLS / 128} noise
     * standard deviations (a noise scale tiny against the clip does not).
     */
    static boolean fits(GaussianMixture withCanary, GaussianMixture withoutCanary) {
        double s = withCanary.sd();
        double spread = Math.max(withCanary.maxMean(), withoutCanary.maxMean())
                - Math.min(withCanary.minMean(), withoutCanary.minMean());
        double cells = (spread + 2 * HALF_WIDTH_SDS * s) / (s / CELLS_PER_SD);
        return cells <= MAX_CELLS;
    }

    TabulatedLogRatio(GaussianMixture withCanary, GaussianMixture withoutCanary) {
        if (withCanary.dimension() != 1 || withoutCanary.dimension() != 1) {
            throw new IllegalArgumentException("tabulation needs a one-dimensional statistic");
        }
        this.withCanary = withCanary;
        this.withoutCanary = withoutCanary;
        double s = withCanary.sd();
        double minMean = Math.min(withCanary.minMean(), withoutCanary.minMean());
        double maxMean = Math.max(withCanary.maxMean(), withoutCanary.maxMean());
        this.step = s / CELLS_PER_SD;
        this.lo = minMean - HALF_WIDTH_SDS * s;
        int cells = (int) Math.ceil((maxMean - minMean + 2 * HALF_WIDTH_SDS * s) / step);
        this.hi = lo + cells * step;
        this.inverseStep = 1.0 / step;
        this.values = new double[cells + 1];
        this.slopes = new double[cells];
        double[] x = new double[1];
        for (int i = 0; i <= cells; i++) {
            x[0] = lo + i * step;
            values[i] = exact(x, 0);
        }
        double err = 0;
        boolean monotone = true;
        for (int i = 0; i < cells; i++) {
            slopes[i] = (values[i + 1] - values[i]) * inverseStep;
            // Where L is flat (far tails) its computed values jitter by an ulp or two; that is not a decrease.
            monotone &= values[i + 1] >= values[i] - 1e-12 * (1 + Math.abs(values[i]));
            x[0] = lo + (i + 0.5) * step;
            err = Math.max(err, Math.abs(exact(x, 0) - 0.5 * (values[i] + values[i + 1])));
        }
        // Beyond the table each posterior sits on its extreme component, so L is monotone there iff the extreme
        // means are ordered the same way.
        monotone &= withCanary.maxMean() >= withoutCanary.maxMean()
                && withCanary.minMean() >= withoutCanary.minMean();
        this.maxInterpolationError = err;
        this.nonDecreasing = monotone;
    }

    /** Exact {@code L} at {@code x[offset]}. */
    double exact(double[] x, int offset) {
        return withCanary.logDensityUnnormalized(x, offset) - withoutCanary.logDensityUnnormalized(x, offset);
    }

    /** Interpolated {@code L(y)}; exact outside the table. */
    double value(double y) {
        double t = (y - lo) * inverseStep;
        if (t >= 0 && t < values.length - 1) {
            int i = (int) t;
            return values[i] + (y - (lo + i * step)) * slopes[i];
        }
        return outside(y);
    }

    private double outside(double y) {
        return exact(new double[] {y}, 0);
    }

    /** Largest |interpolated - exact| seen at cell midpoints. */
    double maxInterpolationError() {
        return maxInterpolationError;
    }

    /**
     * A proven bound on {@code |interpolated - exact|} anywhere in the table: linear interpolation errs by at most
     * {@code h^2/8 max|L''|}, and {@code L'' = (log p_D)'' - (log p_D')''} where each term lies in
     * {@code [-1/s^2, -1/s^2 + R^2/(4 s^4)]} ({@code R} the range of that mixture's means: the posterior variance of
     * the mean is at most {@code R^2/4}), so {@code |L''| <= max(R_D, R_D')^2 / (4 s^4)}. The larger of this and the
     * measured error is returned.
     */
    double interpolationErrorBound() {
        double s = withCanary.sd();
        double r = Math.max(withCanary.maxMean() - withCanary.minMean(),
                withoutCanary.maxMean() - withoutCanary.minMean());
        double proven = step * step / 8 * (r * r / (4 * s * s * s * s));
        return Math.max(proven, maxInterpolationError) * (1 + 1e-9) + 1e-15;
    }

    /** Whether {@code L} is non-decreasing on the whole line. */
    boolean nonDecreasing() {
        return nonDecreasing;
    }

    /** Table range, for tests. */
    double lo() {
        return lo;
    }

    /** Table range, for tests. */
    double hi() {
        return hi;
    }
}

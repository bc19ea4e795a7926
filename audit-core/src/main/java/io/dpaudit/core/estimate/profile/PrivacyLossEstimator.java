package io.dpaudit.core.estimate.profile;

import io.dpaudit.core.estimate.EmpiricalBernstein;
import io.dpaudit.core.engine.HistogramBinning;
import io.dpaudit.core.engine.LossBracket;
import io.dpaudit.core.engine.ScoreCounts;
import io.dpaudit.core.engine.World;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;

/**
 * Two-sided confidence intervals for the privacy profile of the simulated pair, from histograms of its exact
 * log-likelihood ratio {@code L = log p_D/p_D'}.
 *
 * <p><b>Identity.</b> For the pair's two hockey-stick divergences
 * <pre>
 *   δ_{D||D'}(ε) = E_D[(1 - e^{ε - L})_+],     δ_{D'||D}(ε) = E_D'[(1 - e^{ε + L})_+],
 * </pre>
 * and the profile is their maximum. Each is the mean of a variable in {@code [0, 1]}, so a bound on bounded means
 * turns the trials of one world into an interval with no threshold to choose.
 *
 * <p><b>Why a histogram.</b> The trials are not kept; each world's {@code L} is counted in a fine histogram (the
 * engine's constant-memory counts) whose slots the scorer's {@link LossBracket} maps to intervals
 * {@code [L_lo, L_hi]} of {@code L}. Since {@code (1 - e^{ε - L})_+} is non-decreasing in {@code L}, replacing each
 * trial's {@code L} by its slot's {@code L_lo} gives a variable {@code X_lo <= X} and by {@code L_hi} one with
 * {@code X_hi >= X}, and the histogram gives the exact sample mean and variance of both for every ε at once. The lower
 * bound is a lower confidence bound on {@code E X_lo <= δ}, the upper one an upper confidence bound on
 * {@code E X_hi >= δ}: binning widens the interval but never makes it wrong. Running sums per ε would avoid the
 * bracket but cost one pass over the grid per trial; the histogram costs one increment. Trials outside the
 * histogram's interior are counted at the extremes of their bracket (for the overflow slot, {@code L_hi = +inf}, so
 * each adds 1 to the upper sum).
 *
 * <p><b>Confidence.</b> Bounds are {@link io.dpaudit.core.estimate.EmpiricalBernstein} at level {@code (1 - c) / (4 K)} for a grid of
 * {@code K} ε values (two directions, two sides), so all {@code 4K} hold together with probability at least
 * {@code c}. On that event δ is non-increasing in ε, so upper bounds are replaced by their running minimum from
 * the left and lower bounds by their running maximum from the right, which only tightens them.
 *
 * <p>The grid must not depend on the counted trials (take it from a pilot, the scenario, or the claims).
 */
public final class PrivacyLossEstimator {
    /** The sampling method's name in reports ({@code estimate.method}). */
    public static final String NAME = "plain";
    /** How the intervals are obtained, in reports. */
    public static final String SOURCE = "plain Monte Carlo of the simulated pair; " + EmpiricalBernstein.NAME
            + " intervals (" + EmpiricalBernstein.SOURCE + ") from histograms of the exact log-likelihood ratio";
    /** Largest ε at which excesses are computed as {@code 1 - e^ε e^{-L}} (e^ε stays far from overflow). */
    static final double PRODUCT_LIMIT = 700;
    /** Absolute outward rounding of an excess computed as a product (4 units of 2^-53, the product's error bound). */
    static final double ROUNDING = 4 * 0x1.0p-53;

    private PrivacyLossEstimator() {
    }

    /**
     * Estimates δ(ε) at every grid point.
     *
     * @param counts histograms of the scores of a loss-bracketed scorer in both worlds (at least 2 trials)
     * @param bracket how scores bracket {@code L} (for a rank binning, the rank values are bracketed)
     * @param confidence simultaneous confidence over the grid
     * @param epsilons grid, strictly increasing, non-negative, finite
     */
    public static PrivacyLossEstimate estimate(ScoreCounts counts, LossBracket bracket, double confidence,
            double[] epsilons) {
        if (epsilons.length == 0) {
            throw new IllegalArgumentException("empty epsilon grid");
        }
        for (int i = 0; i < epsilons.length; i++) {
            if (!(epsilons[i] >= 0) || !Double.isFinite(epsilons[i]) || (i > 0 && !(epsilons[i] > epsilons[i - 1]))) {
                throw new IllegalArgumentException("epsilon grid must be finite, non-negative and increasing");
            }
        }
        long n = counts.trials();
        double alpha = (1 - confidence) / (4.0 * epsilons.length);
        Slots with = Slots.of(counts, World.WITH_CANARY, bracket, false);
        Slots without = Slots.of(counts, World.WITHOUT_CANARY, bracket, true);
        int k = epsilons.length;
        double[] lower = new double[k];
        double[] upper = new double[k];
        double[] point = new double[k];
        for (int i = 0; i < k; i++) {
            double e = epsilons[i];
            Moments a = with.moments(e);
            Moments b = without.moments(e);
            lower[i] = Math.max(EmpiricalBernstein.lower(n, a.lowSum, a.lowSquares, alpha),
                    EmpiricalBernstein.lower(n, b.lowSum, b.lowSquares, alpha));
            upper[i] = Math.max(EmpiricalBernstein.upper(n, a.highSum, a.highSquares, alpha),
                    EmpiricalBernstein.upper(n, b.highSum, b.highSquares, alpha));
            point[i] = Math.max(a.lowSum + a.highSum, b.lowSum + b.highSum) / (2.0 * n);
        }
        for (int i = 1; i < k; i++) {
            upper[i] = Math.min(upper[i], upper[i - 1]);
        }
        for (int i = k - 2; i >= 0; i--) {
            lower[i] = Math.max(lower[i], lower[i + 1]);
        }
        List<PrivacyLossEstimate.DeltaInterval> grid = new ArrayList<>(k);
        for (int i = 0; i < k; i++) {
            grid.add(new PrivacyLossEstimate.DeltaInterval(epsilons[i], lower[i], upper[i], point[i]));
        }
        long tails = 0;
        int last = counts.binning().slots() - 1;
        if (!counts.binning().exact()) {
            for (World w : World.values()) {
                tails += counts.count(w, 0) + counts.count(w, last);
            }
        }
        double[] trialsPerPoint = new double[grid.size()];
        java.util.Arrays.fill(trialsPerPoint, n);
        return new PrivacyLossEstimate(NAME, SOURCE, confidence, n, bracket.description(), tails, grid,
                trialsPerPoint, trialsPerPoint);
    }

    /** Sums of {@code X_lo}, {@code X_lo^2}, {@code X_hi}, {@code X_hi^2} over one world's trials at one ε. */
    private record Moments(double lowSum, double lowSquares, double highSum, double highSquares) {
    }

    /**
     * One world's non-empty slots with their bracket of the privacy loss of that world's direction ({@code L} for
     * {@code D}, {@code -L} for {@code D'}), sorted so that both ends are non-decreasing.
     */
    private record Slots(long[] count, double[] lossLow, double[] lossHigh, double[] expNegLow,
            double[] expNegHigh) {
        static Slots of(ScoreCounts counts, World world, LossBracket bracket, boolean negate) {
            HistogramBinning binning = counts.binning();
            int slots = binning.slots();
            List<double[]> rows = new ArrayList<>();
            for (int s = 0; s < slots; s++) {
                long c = counts.count(world, s);
                if (c == 0) {
                    continue;
                }
                double lo;
                double hi;
                if (binning.exact()) {
                    if (s == 0) {
                        lo = Double.NEGATIVE_INFINITY;
                        hi = Double.POSITIVE_INFINITY;
                    } else {
                        double v = binning.edge(s - 1);
                        lo = bracket.lower(v);
                        hi = bracket.upper(v);
                    }
                } else {
                    double a = s == 0 ? Double.NEGATIVE_INFINITY : binning.edge(s - 1);
                    double b = s == slots - 1 ? Double.POSITIVE_INFINITY : binning.edge(s);
                    lo = bracket.lower(a);
                    hi = bracket.upper(b);
                }
                if (Double.isNaN(lo) || Double.isNaN(hi) || lo > hi) {
                    throw new IllegalStateException("loss bracket of slot " + s + " is [" + lo + ", " + hi + "]");
                }
                rows.add(negate ? new double[] {c, -hi, -lo} : new double[] {c, lo, hi});
            }
            if (negate) {
                Collections.reverse(rows);
            }
            long[] cnt = new long[rows.size()];
            double[] low = new double[rows.size()];
            double[] high = new double[rows.size()];
            for (int i = 0; i < cnt.length; i++) {
                double[] r = rows.get(i);
                cnt[i] = (long) r[0];
                low[i] = r[1];
                high[i] = r[2];
            }
            for (int i = 1; i < cnt.length; i++) {
                if (low[i] < low[i - 1] || high[i] < high[i - 1]) {
                    throw new IllegalStateException("loss bracket is not monotone in the score at slot " + i);
                }
            }
            double[] eLow = new double[cnt.length];
            double[] eHigh = new double[cnt.length];
            for (int i = 0; i < cnt.length; i++) {
                eLow[i] = Math.exp(-low[i]);
                eHigh[i] = Math.exp(-high[i]);
            }
            return new Slots(cnt, low, high, eLow, eHigh);
        }

        /**
         * The moments at ε; only slots whose upper loss exceeds ε contribute (a suffix: ends are sorted).
         *
         * <p>For ε up to {@value #PRODUCT_LIMIT} the excess {@code 1 - e^{ε - L}} of a slot is computed as
         * {@code 1 - e^ε e^{-L}} from {@code e^{-L}} tabulated once per slot, a multiplication instead of an
         * {@code expm1} per slot and grid point (the grid has thousands of points, the histogram up to 65,538 slots).
         * For {@code L > ε >= 0} the product is below 1 and carries at most 3 units in the last place of error, so the
         * excess is wrong by at most {@value #ROUNDING} in absolute terms; the lower variable is moved down and the
         * upper one up by that much (clamped to [0, 1]), which keeps them below and above the true excess.
         */
        Moments moments(double epsilon) {
            int from = firstAbove(lossHigh, epsilon);
            double s1 = 0;
            double s2 = 0;
            double t1 = 0;
            double t2 = 0;
            if (epsilon <= PRODUCT_LIMIT) {
                double ee = Math.exp(epsilon);
                for (int i = from; i < count.length; i++) {
                    double c = count[i];
                    double x = lossLow[i] > epsilon ? Math.max(0.0, 1.0 - ee * expNegLow[i] - ROUNDING) : 0.0;
                    double y = Math.min(1.0, 1.0 - ee * expNegHigh[i] + ROUNDING);
                    s1 += c * x;
                    s2 += c * x * x;
                    t1 += c * y;
                    t2 += c * y * y;
                }
            } else {
                for (int i = from; i < count.length; i++) {
                    double c = count[i];
                    double x = excess(epsilon, lossLow[i]);
                    double y = excess(epsilon, lossHigh[i]);
                    s1 += c * x;
                    s2 += c * x * x;
                    t1 += c * y;
                    t2 += c * y * y;
                }
            }
            return new Moments(s1, s2, t1, t2);
        }

        /** {@code (1 - e^{ε - L})_+}, exact at infinite {@code L}. */
        private static double excess(double epsilon, double loss) {
            return loss > epsilon ? io.dpaudit.core.numerics.LogSpace.oneMinusExp(epsilon - loss) : 0.0;
        }

        private static int firstAbove(double[] sorted, double value) {
            int lo = 0;
            int hi = sorted.length;
            while (lo < hi) {
                int mid = (lo + hi) >>> 1;
                if (sorted[mid] > value) {
                    hi = mid;
                } else {
                    lo = mid + 1;
                }
            }
            return lo;
        }
    }
}

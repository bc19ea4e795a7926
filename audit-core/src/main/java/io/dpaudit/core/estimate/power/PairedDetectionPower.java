package io.dpaudit.core.estimate.power;

import io.dpaudit.core.estimate.ClopperPearson;
import io.dpaudit.core.estimate.DeltaLowerBound;
import io.dpaudit.core.estimate.EpsilonLowerBound;
import io.dpaudit.core.estimate.PairedDeltaBound;
import io.dpaudit.core.numerics.SafeRounding;

/**
 * What an audit on coupled trials could have detected: {@link DetectionPower}'s statement for a δ bound certified by
 * one of {@link io.dpaudit.core.estimate.PairedDeltaBound}'s two forms, the form the verdict used.
 *
 * <p><b>The alternative.</b> The chosen test's coupled trials fall in three cells: both worlds' outputs in the test's
 * event ({@code both}), the flagged world's alone ({@code flaggedOnly}), the other world's alone ({@code otherOnly}),
 * observed at rates {@code r11}, {@code r10}, {@code r01} of {@code n}. Keep {@code r11} and {@code r01} (so the other
 * world's rate is the observed {@code Q = r11 + r01}, as {@link DetectionPower} keeps the observed false-positive
 * rate) and let the flagged-only rate be {@code x}: the test's δ at ε is then
 * {@code P - e^eps Q = x - (e^eps Q - r11)}. {@link #detectableDelta} is the smallest such δ that the audit flags
 * against a claimed {@code delta_c} with probability at least {@value DetectionPower#PROBABILITY}.
 *
 * <p><b>The paired form.</b> Its bound rises with {@code flaggedOnly} and falls with {@code both} (see
 * {@link io.dpaudit.core.estimate.PairedDeltaBound}: {@code pi_L}, {@code d_L} rise and {@code kappa_U} falls with {@code flaggedOnly};
 * only {@code kappa_U} moves with {@code both}, upwards); in {@code otherOnly} it is not monotone ({@code pi_L} falls,
 * {@code d_L} rises). With probability at least 0.9 (union bound over three events of 1/30 each), {@code both} is
 * at most its 1 − 1/30 quantile {@code y11}, {@code otherOnly} lies between its 1/60 and 1 − 1/60 quantiles, and
 * {@code flaggedOnly} is at least its 1/30 quantile under {@code x}; the audit then flags the claim when the bound at
 * {@code y11}, that {@code flaggedOnly} and every {@code otherOnly} in the range exceeds {@code delta_c}. The minimum
 * over the range is taken at {@value #OTHER_GRID} evenly spaced counts (and their ends): a power statement, like
 * {@link DetectionPower}'s, not a certified bound. The smallest sufficient {@code flaggedOnly} count {@code f} is found
 * by bisection (the bound rises with it), and the smallest {@code x} that reaches {@code f} with probability
 * 1 − 1/30 is the Clopper–Pearson upper limit of {@code f - 1} at 1/30 (the duality {@link DetectionPower} uses).
 *
 * <p><b>The marginal form.</b> {@code P_L - e^eps Q_U} is monotone in each world's own count, so the statement is
 * {@link DetectionPower}'s with the form's shares of the level ({@code (1 - s) a} for {@code P_L}, {@code s a} for
 * {@code Q_U}) in place of its halves: the other world's count at its 0.95 quantile, the flagged world's at its 0.05
 * quantile.
 *
 * <p>In both, the answer is conditional on the test and form the audit chose and on the other world's observed rates,
 * and it is {@code +inf} when no flagged-only rate could make the form refute the claim.
 */
public final class PairedDetectionPower {
    /** Counts of the other world alone at which the paired form's minimum over its range is taken. */
    static final int OTHER_GRID = 33;
    /** Each of the paired form's three counts stays on its side with probability {@code 1 - 1/30}. */
    private static final double PER_COUNT_MISS = (1 - DetectionPower.PROBABILITY) / 3;

    private PairedDetectionPower() {
    }

    /**
     * The smallest true δ at {@code epsilon} that the form certifying {@code bound} would have flagged against a
     * claimed {@code claimDelta} with probability at least {@value DetectionPower#PROBABILITY}, rounded up;
     * {@code +inf} when none would be.
     *
     * @param bound a δ bound from coupled trials ({@code bound.paired()} not null)
     */
    public static double detectableDelta(DeltaLowerBound bound, double epsilon, double claimDelta) {
        EpsilonLowerBound.PairedCounts c = bound.paired();
        if (c == null) {
            throw new IllegalArgumentException("not a bound from coupled trials");
        }
        long n = bound.test().trials();
        double q = (double) (c.both() + c.otherOnly()) / n;
        double r11 = (double) c.both() / n;
        // e^eps Q - r11: the flagged-only rate at which the test's delta is 0 (through a logarithm: eps = 1000)
        double zeroRate = q == 0 ? 0 : Math.exp(epsilon + Math.log(q)) - r11;
        if (!(zeroRate < 1 - q)) {
            return Double.POSITIVE_INFINITY;
        }
        return bound.certification() == EpsilonLowerBound.Certification.MARGINAL
                ? marginal(c, n, epsilon, claimDelta)
                : paired(c, n, zeroRate, epsilon, claimDelta);
    }

    private static double paired(EpsilonLowerBound.PairedCounts c, long n, double zeroRate, double epsilon,
            double claimDelta) {
        long y11 = DetectionPower.upperQuantile(n, (double) c.both() / n, 1 - PER_COUNT_MISS);
        double r01 = (double) c.otherOnly() / n;
        long oLo = DetectionPower.upperQuantile(n, r01, PER_COUNT_MISS / 2);
        long oHi = DetectionPower.upperQuantile(n, r01, 1 - PER_COUNT_MISS / 2);
        long hi = n - y11 - oHi; // the largest flagged-only count the other two leave room for
        if (hi < 1 || !(worstPaired(y11, hi, oLo, oHi, n, epsilon, c) > claimDelta)) {
            return Double.POSITIVE_INFINITY;
        }
        long lo = 0; // the bound at lo does not clear claimDelta (at 0 flagged-only trials it is 0)
        while (hi - lo > 1) {
            long mid = lo + (hi - lo) / 2;
            if (worstPaired(y11, mid, oLo, oHi, n, epsilon, c) > claimDelta) {
                hi = mid;
            } else {
                lo = mid;
            }
        }
        double x = ClopperPearson.upper(hi - 1, n, PER_COUNT_MISS); // P(Bin(n, x) >= hi) >= 1 - 1/30
        if (!(x <= 1 - (double) (c.both() + c.otherOnly()) / n)) {
            return Double.POSITIVE_INFINITY; // no law with the observed other cells has that flagged-only rate
        }
        return SafeRounding.up(Math.max(0, x - zeroRate));
    }

    /** The paired bound's minimum over the other-only counts in {@code [oLo, oHi]}. */
    private static double worstPaired(long both, long flaggedOnly, long oLo, long oHi, long n, double epsilon,
            EpsilonLowerBound.PairedCounts c) {
        double worst = Double.POSITIVE_INFINITY;
        long previous = -1;
        for (int i = 0; i <= OTHER_GRID + 1; i++) {
            long o = oLo + Math.round((double) (oHi - oLo) * i / (OTHER_GRID + 1));
            if (o == previous) {
                continue;
            }
            previous = o;
            worst = Math.min(worst, PairedDeltaBound.delta(both, flaggedOnly, o, n, epsilon, c.errorLevel(),
                    c.share()));
        }
        return worst;
    }

    private static double marginal(EpsilonLowerBound.PairedCounts c, long n, double epsilon, double claimDelta) {
        double level = c.errorLevel();
        return DetectionPower.detectableDelta(n, n, c.both() + c.otherOnly(), (1 - c.share()) * level,
                c.share() * level, epsilon, claimDelta);
    }
}

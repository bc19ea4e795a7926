package io.dpaudit.core.estimate.tradeoff;

import io.dpaudit.core.estimate.ClopperPearson;
import io.dpaudit.core.estimate.EmpiricalEstimator;
import io.dpaudit.core.Checks;
import io.dpaudit.core.engine.HistogramBinning;
import io.dpaudit.core.engine.ScoreCounts;
import io.dpaudit.core.engine.World;
import io.dpaudit.core.numerics.SafeRounding;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;

/**
 * Certifies an empirical trade-off curve ({@link CertifiedTradeOff}) from the score histograms an audit fills: every
 * threshold edge {@code t} gives two tests, "reject {@code D} when score &lt; t" and "reject {@code D} when score
 * &gt;= t", whose error rates are the fractions {@code u_D(t)}, {@code u_D'(t)} of each world's scores at or above
 * {@code t} or their complements. Upper confidence bounds on all of them must hold <i>simultaneously</i>, because the
 * curve, the GDP bound and the claims use every point at once. Two ways:
 *
 * <ul>
 *   <li><b>{@code dkw}</b>: the Dvoretzky–Kiefer–Wolfowitz inequality with Massart's constant, {@code P(sup_t
 *       |u_hat(t) - u(t)| > e) <= 2 exp(-2 N e^2)}, for each world at level {@code a/2}: one band
 *       {@code e = sqrt(log(4/a)/(2N))} covers every edge of both worlds, so no test needs choosing at all;</li>
 *   <li><b>{@code bonferroni}</b>: Clopper–Pearson bounds on {@code u_D} and {@code u_D'} (both sides) at {@code G}
 *       edges fixed without the evaluation data — chosen on the held-out selection trials at logit-spaced quantiles of
 *       each world's scores (so that both tails of both worlds, and the gap between well-separated worlds, are
 *       represented), or spaced evenly over the bins when all trials are
 *       evaluation trials — each of the {@code 4G} one-sided bounds at level {@code a/(4G)}.</li>
 * </ul>
 * DKW's band is additive, about {@code 1.4 / sqrt(N)} at 95%, so it cannot certify an error rate below that; the
 * Clopper–Pearson bounds are relative in the tails (an error rate of {@code 10/N} is certified within a factor of about
 * 2) at the price of a union over the grid. Compared on the Gaussian with {@code mu = 1} (held-out selection, two
 * seeds each, README): the GDP lower bounds agree within 0.2% (DKW 0.9928, 0.9985, 0.9996 at 10^6, 10^7, 10^8 trials
 * per world; Bonferroni with {@code G = 64}: 0.9909, 0.9978, 0.9994), because {@code mu} is best certified at
 * moderate error rates, where both are accurate; but the ε lower bound at δ = 1e-5 read off the curve, which lives in
 * the tails, is far better with Bonferroni (3.34, 3.78, 4.23 against DKW's 2.16, 2.51, 2.81; exact 4.38). So
 * Bonferroni over 64 edges is the default and DKW an option; grids of 16 and 256 edges were within 3% of 64. (These
 * comparisons were measured with quantiles of the pooled scores; the per-world quantiles used now certify the same
 * within 0.5% where the worlds' scores overlap, and far more where they are separated: see {@link #quantileEdges}.)
 */
public final class TradeOffCertification {
    /** Default number of edges of the Bonferroni grid. */
    public static final int DEFAULT_GRID = 64;

    /** How the simultaneous bounds are obtained. */
    public enum Method {
        /** Clopper–Pearson at a grid of edges fixed without the evaluation data, union bound. */
        BONFERRONI("bonferroni"),
        /** One DKW–Massart band per world over every edge. */
        DKW("dkw");

        private final String label;

        Method(String label) {
            this.label = label;
        }

        /** The name used in scenarios and reports. */
        public String label() {
            return label;
        }

        /** The method named {@code s}, or null. */
        public static Method of(String s) {
            for (Method m : values()) {
                if (m.label.equals(s)) {
                    return m;
                }
            }
            return null;
        }
    }

    private TradeOffCertification() {
    }

    /**
     * @param selection held-out selection counts (chooses the Bonferroni grid), or null when every trial is an
     *     evaluation trial
     * @param evaluation the counts that certify
     * @param confidence simultaneous confidence
     * @param method DKW or Bonferroni
     * @param grid number of Bonferroni edges (ignored by DKW)
     */
    public static CertifiedTradeOff certify(ScoreCounts selection, ScoreCounts evaluation, double confidence,
            Method method, int grid) {
        Checks.confidence("confidence", confidence);
        double a = 1 - confidence;
        HistogramBinning binning = evaluation.binning();
        long n = evaluation.trials(World.WITH_CANARY);
        long nPrime = evaluation.trials(World.WITHOUT_CANARY);
        long[] upD = evaluation.upperTail(World.WITH_CANARY);
        long[] upDPrime = evaluation.upperTail(World.WITHOUT_CANARY);
        List<CertifiedTradeOff.Point> points = new ArrayList<>();
        String description;
        CertifiedTradeOff.RateUpperBound rule;
        if (method == Method.DKW) {
            double band = Math.sqrt(Math.log(4 / a) / (2.0 * n));
            double bandPrime = Math.sqrt(Math.log(4 / a) / (2.0 * nPrime));
            for (int k = 0; k <= binning.bins(); k++) {
                double d = (double) upD[k] / n;
                double dp = (double) upDPrime[k] / nPrime;
                add(points, binning, k, Math.max(0, d - band), Math.min(1, d + band), Math.max(0, dp - bandPrime),
                        Math.min(1, dp + bandPrime), d, dp);
            }
            double logTerm = Math.log(4 / a);
            rule = (count, trials) -> Math.min(1, (double) count / trials + Math.sqrt(logTerm / (2.0 * trials)));
            description = String.format(Locale.ROOT, "dkw: one Dvoretzky-Kiefer-Wolfowitz-Massart band per world, "
                    + "+-%.3g on every threshold's rates (%s evaluation trials per world), %s simultaneous",
                    Math.max(band, bandPrime), n == nPrime ? Long.toString(n) : n + " / " + nPrime, pct(confidence));
        } else {
            int[] edges = selection != null ? quantileEdges(selection, grid) : EmpiricalEstimator.gridEdges(
                    binning.bins(), grid);
            double level = a / (4.0 * edges.length);
            for (int k : edges) {
                add(points, binning, k, ClopperPearson.lower(upD[k], n, level), ClopperPearson.upper(upD[k], n, level),
                        ClopperPearson.lower(upDPrime[k], nPrime, level),
                        ClopperPearson.upper(upDPrime[k], nPrime, level), (double) upD[k] / n,
                        (double) upDPrime[k] / nPrime);
            }
            rule = (count, trials) -> SafeRounding.upProbability(ClopperPearson.upper(count, trials, level));
            description = String.format(Locale.ROOT, "bonferroni: Clopper-Pearson bounds on both worlds' tail "
                    + "fractions at %d thresholds %s, each one-sided bound at level %.3g (%s evaluation trials per "
                    + "world), %s simultaneous", edges.length, selection != null ? "chosen on the held-out selection "
                    + "trials (logit-spaced quantiles of each world's scores)" : "evenly spaced over the histogram",
                    level, n == nPrime ? Long.toString(n) : n + " / " + nPrime, pct(confidence));
        }
        return new CertifiedTradeOff(description, confidence, points, n, nPrime, rule);
    }

    private static String pct(double c) {
        return String.format(Locale.ROOT, "%.4g%%", 100 * c);
    }

    /**
     * Adds both tests of edge {@code k}: rejecting {@code D} below the threshold ({@code alpha = 1 - u_D}, {@code beta =
     * u_D'}) and at or above it ({@code alpha = u_D}, {@code beta = 1 - u_D'}), from bounds on {@code u_D} and
     * {@code u_D'}; rounded up. {@code d} and {@code dp} are the observed fractions, kept for power statements.
     */
    private static void add(List<CertifiedTradeOff.Point> points, HistogramBinning binning, int k, double dLower,
            double dUpper, double dpLower, double dpUpper, double d, double dp) {
        String t = String.format(Locale.ROOT, "%.6g", binning.edge(k));
        points.add(new CertifiedTradeOff.Point(SafeRounding.upProbability(1 - dLower),
                SafeRounding.upProbability(dpUpper), "reject D when score < " + t, 1 - d, dp));
        points.add(new CertifiedTradeOff.Point(SafeRounding.upProbability(dUpper),
                SafeRounding.upProbability(1 - dpLower), "reject D when score >= " + t, d, 1 - dp));
    }

    /**
     * {@code G} edges at logit-spaced quantiles of each world's selection scores, {@code ceil(G/2)} of {@code D}'s and
     * {@code floor(G/2)} of {@code D'}'s: the quantile levels {@code 1/(1 + e^-x)} for {@code x} evenly spaced in
     * {@code [-L, L]}, {@code L = log(selection trials)}, each mapped to the first edge whose fraction of that world's
     * scores below it reaches the level; duplicates removed, ascending. Quantiles of each world rather than of the
     * pooled scores: when the two worlds' scores are well separated (a strong mechanism), the pooled distribution has
     * almost no mass between them and its quantiles jump over the gap, where the tests with both errors small — those
     * that certify the most — live; each world's own tail quantiles fall into it.
     */
    static int[] quantileEdges(ScoreCounts selection, int grid) {
        int[] a = quantileEdges(selection, World.WITH_CANARY, (grid + 1) / 2);
        int[] b = quantileEdges(selection, World.WITHOUT_CANARY, grid / 2);
        int[] all = Arrays.copyOf(a, a.length + b.length);
        System.arraycopy(b, 0, all, a.length, b.length);
        return Arrays.stream(all).sorted().distinct().toArray();
    }

    private static int[] quantileEdges(ScoreCounts selection, World world, int grid) {
        long[] up = selection.upperTail(world);
        long n = selection.trials(world);
        double reach = Math.log(Math.max(2, Math.min(selection.trials(World.WITH_CANARY),
                selection.trials(World.WITHOUT_CANARY))));
        int[] edges = new int[grid];
        int k = 0;
        for (int j = 0; j < grid; j++) {
            double x = grid == 1 ? 0 : -reach + 2 * reach * j / (grid - 1);
            double level = 1 / (1 + Math.exp(-x));
            // smallest edge whose fraction of this world's scores below it reaches the level
            while (k < up.length - 1 && 1 - (double) up[k] / n < level) {
                k++;
            }
            edges[j] = k;
        }
        return edges;
    }
}

package io.dpaudit.attacks;

import io.dpaudit.core.engine.LossBracket;
import io.dpaudit.core.engine.Scorer;
import io.dpaudit.core.law.GaussianMixture;
import io.dpaudit.core.model.LinearStatistic;
import io.dpaudit.core.model.OutputModel;
import java.util.Locale;

/**
 * The exact likelihood-ratio attack for two-dimensional statistics {@code (u, v)} whose laws have the form
 * <pre>
 *   D':  sum_j g_j N((0, v_j), s^2 I)
 *   D :  sum_j a_j N((0, v_j), s^2 I) + sum_j b_j N((c, v_j), s^2 I)
 * </pre>
 * — the canary moves {@code u} by {@code c} or not at all, and {@code v} carries side information (e.g. how many of
 * the canary's client's other records were sampled, orthogonal to the canary). Then
 * {@code LLR(u, v) = log(A(v)/G(v) + B(v)/G(v) e^{(c u - c^2/2)/s^2})} with {@code A, B, G} the {@code v}-marginal
 * mixtures. The two ratios are tabulated in log space on a grid of spacing {@code s/128} over all {@code v_j} plus and
 * minus 40 s (linear interpolation inside, exact evaluation outside), and the log-sum-exp of the two terms,
 * {@code max(a, b) + log1p(e^{-|a - b|})}, takes its second part from a table of {@code log1p(e^{-d})} on
 * {@code [0, 40]} at spacing 1/512 (second derivative at most 1/4, so linear interpolation errs by at most
 * {@code (1/512)^2/32 = 1.2e-7}; beyond 40 it is computed). A round costs three table lookups and no transcendental
 * function (it cost an {@code exp} and a {@code log1p}: the scorer ran at a quarter of the simulator's speed); the
 * coordinates are read directly where the projection is a coordinate.
 */
final class ShiftedMixtureScorer implements Scorer {
    private static final int CELLS_PER_SD = 128;
    /** Range and spacing of the table of {@code log1p(e^{-d})}. */
    private static final double SOFTPLUS_RANGE = 40;
    private static final double SOFTPLUS_STEP = 1.0 / 512;
    private static final double[] SOFTPLUS = softplusTable();
    /** Proven and measured error of the interpolated {@code log1p(e^{-d})}, whichever is larger. */
    static final double SOFTPLUS_ERROR = softplusError();
    /** Largest table of the finer tabulation a privacy-loss estimate asks for (cells). */
    private static final double MAX_FINE_CELLS = 1 << 22;

    private final int rounds;
    private final int roundDimension;
    private final int flag;
    private final double[] uDirection;
    private final double[] vDirection;
    private final double shift;
    private final double inv2s2;
    private final double lo;
    private final double step;
    private final double[] logA;
    private final double[] logB;
    private final GaussianMixture aMix;
    private final GaussianMixture bMix;
    private final GaussianMixture gMix;
    private final double logWeightA;
    private final double logWeightB;
    private final double interpolationErrorBound;
    /** Index of the coordinate that is u (v), or -1 when u (v) is a general projection. */
    private final int uIndex;
    private final int vIndex;

    private ShiftedMixtureScorer(OutputModel model, LinearStatistic statistic, int uAxis, double c,
            GaussianMixture a, double weightA, GaussianMixture b, double weightB, GaussianMixture g,
            double cellsPerSd) {
        this.rounds = model.rounds();
        this.roundDimension = model.roundDimension();
        this.flag = statistic.flagIndex();
        this.uDirection = statistic.basisRow(uAxis);
        this.vDirection = statistic.basisRow(1 - uAxis);
        this.shift = c;
        double s = g.sd();
        this.inv2s2 = 1.0 / (s * s);
        this.aMix = a;
        this.bMix = b;
        this.gMix = g;
        this.logWeightA = Math.log(weightA);
        this.logWeightB = Math.log(weightB);
        double vLo = Math.min(a.minMean(), Math.min(b.minMean(), g.minMean())) - 40 * s;
        double vHi = Math.max(a.maxMean(), Math.max(b.maxMean(), g.maxMean())) + 40 * s;
        this.step = s / cellsPerSd;
        this.lo = vLo;
        int n = (int) Math.ceil((vHi - vLo) / step) + 1;
        this.logA = new double[n];
        this.logB = new double[n];
        for (int i = 0; i < n; i++) {
            double v = lo + i * step;
            logA[i] = exactLogA(v);
            logB[i] = exactLogB(v);
        }
        this.interpolationErrorBound = errorBound(s);
        this.uIndex = coordinate(uDirection);
        this.vIndex = coordinate(vDirection);
    }

    /** The index {@code j} if {@code row} is the unit vector {@code e_j}, else -1. */
    private static int coordinate(double[] row) {
        int found = -1;
        for (int j = 0; j < row.length; j++) {
            if (row[j] == 1.0 && found < 0) {
                found = j;
            } else if (row[j] != 0.0) {
                return -1;
            }
        }
        return found;
    }

    private static double[] softplusTable() {
        int n = (int) Math.round(SOFTPLUS_RANGE / SOFTPLUS_STEP);
        double[] t = new double[n + 1];
        for (int k = 0; k <= n; k++) {
            t[k] = Math.log1p(Math.exp(-k * SOFTPLUS_STEP));
        }
        return t;
    }

    private static double softplusError() {
        double proven = SOFTPLUS_STEP * SOFTPLUS_STEP / 32;
        double measured = 0;
        for (int k = 0; k + 1 < SOFTPLUS.length; k++) {
            double d = (k + 0.5) * SOFTPLUS_STEP;
            measured = Math.max(measured, Math.abs(Math.log1p(Math.exp(-d)) - 0.5 * (SOFTPLUS[k] + SOFTPLUS[k + 1])));
        }
        return Math.max(proven, measured) * (1 + 1e-9) + 1e-16;
    }

    /** {@code log1p(e^{-d})} for {@code d >= 0}: interpolated on [0, 40], computed beyond (and for NaN). */
    private static double softplus(double d) {
        if (d < SOFTPLUS_RANGE) {
            double pos = d * (1.0 / SOFTPLUS_STEP);
            int k = (int) pos;
            double f = pos - k;
            return SOFTPLUS[k] + f * (SOFTPLUS[k + 1] - SOFTPLUS[k]);
        }
        return Math.log1p(Math.exp(-d));
    }

    /**
     * A proven bound on the per-round error of the interpolated {@code L}: {@code L = logsumexp(la, lb + ...)} is
     * 1-Lipschitz in {@code (la, lb)} in the max norm, and each of {@code la = log A - log G}, {@code lb = log B -
     * log G} is a difference of log densities of one-dimensional Gaussian mixtures with a common sd {@code s}, whose
     * second derivatives lie in {@code [-1/s^2, -1/s^2 + R^2/(4 s^4)]} ({@code R} the range of that mixture's means),
     * so linear interpolation on spacing {@code h} errs by at most {@code h^2/8 max(R_X, R_G)^2/(4 s^4)}. The larger
     * of this and the error measured at every cell midpoint is returned.
     */
    private double errorBound(double s) {
        double rg = gMix.maxMean() - gMix.minMean();
        double r = Math.max(rg, Math.max(aMix.maxMean() - aMix.minMean(), bMix.maxMean() - bMix.minMean()));
        double proven = step * step / 8 * r * r / (4 * s * s * s * s);
        double measured = 0;
        for (int i = 0; i + 1 < logA.length; i++) {
            double v = lo + (i + 0.5) * step;
            measured = Math.max(measured, Math.abs(exactLogA(v) - 0.5 * (logA[i] + logA[i + 1])));
            measured = Math.max(measured, Math.abs(exactLogB(v) - 0.5 * (logB[i] + logB[i + 1])));
        }
        return Math.max(proven, measured) * (1 + 1e-9) + 1e-15;
    }

    /**
     * Per round, the tabulated ratio is within the interpolation error of the two side-information tables (the
     * log-sum-exp is 1-Lipschitz in its two arguments) plus that of the {@code log1p(e^{-d})} table, plus rounding, of
     * the exact one.
     */
    @Override
    public LossBracket lossBracket() {
        return LossBracket.within(rounds * (perRoundError() + LikelihoodRatioAttack.ROUND_SLACK),
                LikelihoodRatioAttack.RELATIVE_SLACK);
    }

    /** The bound on the per-round error of the tabulated ratio. */
    double perRoundError() {
        return interpolationErrorBound + SOFTPLUS_ERROR;
    }

    /**
     * The scorer when the model has the shifted-mixture form (a linear statistic, Gaussian-mixture laws, either
     * coordinate may be u), else null.
     */
    static ShiftedMixtureScorer tryOf(OutputModel model, LinearStatistic statistic, GaussianMixture with,
            GaussianMixture without) {
        return tryOf(model, statistic, with, without, Double.NaN);
    }

    /**
     * As {@link #tryOf(OutputModel, LinearStatistic, GaussianMixture, GaussianMixture)}, with a table fine enough
     * that the proven per-round interpolation error is at most {@code targetError} (NaN: the attack's default
     * spacing {@code s/128}), as long as the table stays below 2^22 cells.
     */
    static ShiftedMixtureScorer tryOf(OutputModel model, LinearStatistic statistic, GaussianMixture with,
            GaussianMixture without, double targetError) {
        if (model.statisticDimension() != 2) {
            return null;
        }
        for (int u = 0; u < 2; u++) {
            ShiftedMixtureScorer s = tryAxis(model, statistic, with, without, u, targetError);
            if (s != null) {
                return s;
            }
        }
        return null;
    }

    private static ShiftedMixtureScorer tryAxis(OutputModel model, LinearStatistic statistic, GaussianMixture with,
            GaussianMixture without, int u, double targetError) {
        int v = 1 - u;
        for (int j = 0; j < without.components(); j++) {
            if (without.mean(j, u) != 0) {
                return null;
            }
        }
        double c = Double.NaN;
        int shifted = 0;
        for (int j = 0; j < with.components(); j++) {
            double m = with.mean(j, u);
            if (m != 0) {
                if (!Double.isNaN(c) && m != c) {
                    return null;
                }
                c = m;
                shifted++;
            }
        }
        if (Double.isNaN(c) || shifted == with.components()) {
            return null;
        }
        // Split D into its unshifted (a) and shifted (b) parts, each as a 1-D mixture in v (normalised, with weight).
        int na = with.components() - shifted;
        double[] wa = new double[na];
        double[][] ma = new double[na][1];
        double[] wb = new double[shifted];
        double[][] mb = new double[shifted][1];
        double ta = 0;
        double tb = 0;
        int ia = 0;
        int ib = 0;
        for (int j = 0; j < with.components(); j++) {
            if (with.mean(j, u) == 0) {
                wa[ia] = with.weight(j);
                ma[ia++][0] = with.mean(j, v);
                ta += with.weight(j);
            } else {
                wb[ib] = with.weight(j);
                mb[ib++][0] = with.mean(j, v);
                tb += with.weight(j);
            }
        }
        for (int j = 0; j < na; j++) {
            wa[j] /= ta;
        }
        for (int j = 0; j < shifted; j++) {
            wb[j] /= tb;
        }
        double[] wg = new double[without.components()];
        double[][] mg = new double[without.components()][1];
        for (int j = 0; j < wg.length; j++) {
            wg[j] = without.weight(j);
            mg[j][0] = without.mean(j, v);
        }
        double s = with.sd();
        GaussianMixture a = new GaussianMixture(wa, ma, s);
        GaussianMixture b = new GaussianMixture(wb, mb, s);
        GaussianMixture g = new GaussianMixture(wg, mg, s);
        double cells = CELLS_PER_SD;
        if (!Double.isNaN(targetError)) {
            // proven error (R/s)^2 / (32 c^2) at c cells per sd (see errorBound)
            double r = Math.max(g.maxMean() - g.minMean(), Math.max(a.maxMean() - a.minMean(),
                    b.maxMean() - b.minMean())) / s;
            double span = Math.max(a.maxMean(), Math.max(b.maxMean(), g.maxMean()))
                    - Math.min(a.minMean(), Math.min(b.minMean(), g.minMean()));
            double wanted = Math.ceil(r / Math.sqrt(32 * targetError));
            double affordable = Math.floor(MAX_FINE_CELLS / (span / s + 80));
            cells = Math.max(CELLS_PER_SD, Math.min(wanted, affordable));
        }
        return new ShiftedMixtureScorer(model, statistic, u, c, a, ta, b, tb, g, cells);
    }

    private double exactLogA(double v) {
        double[] x = {v};
        return logWeightA + aMix.logDensityUnnormalized(x, 0) - gMix.logDensityUnnormalized(x, 0);
    }

    private double exactLogB(double v) {
        double[] x = {v};
        return logWeightB + bMix.logDensityUnnormalized(x, 0) - gMix.logDensityUnnormalized(x, 0);
    }

    @Override
    public int outputLength() {
        return rounds * roundDimension;
    }

    @Override
    public double[] score(double[] outputs, int trials, double[] scores) {
        int m = roundDimension;
        double halfShift2 = 0.5 * shift * shift;
        double inverseStep = 1.0 / step;
        int last = logA.length - 1;
        for (int i = 0; i < trials; i++) {
            double sum = 0;
            for (int t = 0; t < rounds; t++) {
                int base = (i * rounds + t) * m;
                if (flag >= 0 && outputs[base + flag] == 0) {
                    continue;
                }
                double yu;
                double yv;
                if (uIndex >= 0 && vIndex >= 0) {
                    yu = outputs[base + uIndex];
                    yv = outputs[base + vIndex];
                } else {
                    yu = 0;
                    yv = 0;
                    for (int j = 0; j < m; j++) {
                        yu += outputs[base + j] * uDirection[j];
                        yv += outputs[base + j] * vDirection[j];
                    }
                }
                double la;
                double lb;
                double pos = (yv - lo) * inverseStep;
                if (pos >= 0 && pos < last) {
                    int k = (int) pos;
                    double f = pos - k;
                    la = logA[k] + f * (logA[k + 1] - logA[k]);
                    lb = logB[k] + f * (logB[k + 1] - logB[k]);
                } else {
                    la = exactLogA(yv);
                    lb = exactLogB(yv);
                }
                double x = lb + (shift * yu - halfShift2) * inv2s2;
                if (la == Double.NEGATIVE_INFINITY || x == Double.NEGATIVE_INFINITY) {
                    sum += Math.max(la, x);
                } else {
                    sum += Math.max(la, x) + softplus(Math.abs(la - x));
                }
            }
            scores[i] = sum;
        }
        return scores;
    }

    @Override
    public String description() {
        return String.format(Locale.ROOT, "%s: exact LLR of the shifted 2-D mixture (tabulated side information and "
                + "log-sum-exp, max interpolation error %.1e per round), summed over %d round(s)",
                LikelihoodRatioAttack.NAME, perRoundError(), rounds);
    }
}

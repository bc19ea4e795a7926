package io.dpaudit.core.bounds;

import io.dpaudit.core.law.GaussianMixture;
import io.dpaudit.core.numerics.Normal;
import io.dpaudit.core.numerics.RootFinder;
import io.dpaudit.core.numerics.SafeRounding;
import java.util.ArrayList;
import java.util.List;

/**
 * The exact privacy profile of one neighbouring pair whose outputs are one-dimensional Gaussian mixtures with a
 * common standard deviation: {@code max(H_{e^eps}(P||Q), H_{e^eps}(Q||P))}, {@code P} the law with the record and
 * {@code Q} without (both directions of add/remove adjacency).
 *
 * <p>{@code H_{e^eps}(P||Q) = int (p - e^eps q)_+}. The sign of {@code p - e^eps q} can change several times (the
 * likelihood ratio of mixtures need not be monotone), so its sign changes are located on a grid of spacing
 * {@code s/64} over all means plus and minus 40 s and refined by bracketing to 1e-13; on each interval where it is
 * positive the integral is a difference of normal CDFs summed over components — exact up to the roots. Components
 * of weight below 1e-300 are dropped. Evaluated in log space where the densities underflow.
 *
 * <p>As a bound on a mechanism this is {@link BoundKind#PAIR_PROFILE}: exact for this pair, a lower bound on the
 * worst case over all pairs.
 */
public final class MixturePairProfile implements PairProfile {
    private final String name;
    private final String source;
    private final GaussianMixture withRecord;
    private final GaussianMixture withoutRecord;
    private final double scale;
    /** Most grid points the sign changes are searched on (the noise against the spread of the means). */
    static final long MAX_GRID = 1L << 24;
    private final double[] grid;
    private final double[] logP;
    private final double[] logQ;
    /** Why the profile cannot be evaluated (a grid too fine), or null. */
    private final String refusal;

    /**
     * @param name bound name
     * @param source description of the pair
     * @param withRecord law of the output with the record ({@code P})
     * @param withoutRecord law without it ({@code Q})
     * @param scale a factor in (0, 1] multiplying both hockey-stick divergences (e.g. the probability of the event
     *     in which the pair differs at all, when outside it the outputs are identical)
     */
    public MixturePairProfile(String name, String source, GaussianMixture withRecord,
            GaussianMixture withoutRecord, double scale) {
        if (withRecord.dimension() != 1 || withoutRecord.dimension() != 1 || withRecord.sd() != withoutRecord.sd()) {
            throw new IllegalArgumentException("one-dimensional mixtures with one standard deviation are required");
        }
        this.name = name;
        this.source = source;
        this.withRecord = withRecord;
        this.withoutRecord = withoutRecord;
        this.scale = scale;
        double s = withRecord.sd();
        double lo = Math.min(withRecord.minMean(), withoutRecord.minMean()) - 40 * s;
        double hi = Math.max(withRecord.maxMean(), withoutRecord.maxMean()) + 40 * s;
        double points = Math.ceil((hi - lo) / (s / 64));
        if (!(points <= MAX_GRID)) {
            this.refusal = String.format(java.util.Locale.ROOT, "the means are %.3g noise standard deviations "
                    + "apart: the exact profile would need %.3g grid points (at most %d); no finite answer at "
                    + "this noise", (hi - lo - 80 * s) / s, points, MAX_GRID);
            this.grid = new double[0];
            this.logP = new double[0];
            this.logQ = new double[0];
            return;
        }
        this.refusal = null;
        int n = (int) points;
        this.grid = new double[n + 1];
        this.logP = new double[n + 1];
        this.logQ = new double[n + 1];
        double[] x = new double[1];
        for (int i = 0; i <= n; i++) {
            grid[i] = lo + (hi - lo) * i / n;
            x[0] = grid[i];
            logP[i] = withRecord.logDensityUnnormalized(x, 0);
            logQ[i] = withoutRecord.logDensityUnnormalized(x, 0);
        }
    }

    @Override
    public String name() {
        return name;
    }

    @Override
    public String source() {
        return source;
    }

    @Override
    public BoundKind kind() {
        return BoundKind.PAIR_PROFILE;
    }

    @Override
    public double delta(double epsilon) {
        refuseIfUnavailable();
        return SafeRounding.upProbability(Math.max(remove(epsilon), add(epsilon)));
    }

    /** {@code scale * H_{e^eps}(P || Q)}, without rounding. */
    public double remove(double epsilon) {
        refuseIfUnavailable();
        return scale * hockeyStick(withRecord, withoutRecord, logP, logQ, epsilon);
    }

    /** {@code scale * H_{e^eps}(Q || P)}, without rounding. */
    public double add(double epsilon) {
        refuseIfUnavailable();
        return scale * hockeyStick(withoutRecord, withRecord, logQ, logP, epsilon);
    }

    private void refuseIfUnavailable() {
        if (refusal != null) {
            throw new io.dpaudit.core.bounds.AccountingLimitException("bound " + name, "(these parameters)",
                    refusal);
        }
    }

    /**
     * {@code H_{e^eps}(p || q)}; {@code logPGrid} and {@code logQGrid} are the two log densities on {@link #grid},
     * computed once, so that locating the sign changes costs a subtraction per grid point and only the refinement
     * of each root evaluates the mixtures (the same arithmetic as evaluating them afresh, hence the same roots).
     */
    private double hockeyStick(GaussianMixture p, GaussianMixture q, double[] logPGrid, double[] logQGrid,
            double epsilon) {
        double[] x = new double[1];
        java.util.function.DoubleUnaryOperator g = y -> {
            x[0] = y;
            return p.logDensityUnnormalized(x, 0) - q.logDensityUnnormalized(x, 0) - epsilon;
        };
        List<Double> cuts = new ArrayList<>();
        cuts.add(Double.NEGATIVE_INFINITY);
        double prev = logPGrid[0] - logQGrid[0] - epsilon;
        for (int i = 1; i < grid.length; i++) {
            double cur = logPGrid[i] - logQGrid[i] - epsilon;
            if ((prev > 0) != (cur > 0)) {
                RootFinder.Bracket b = RootFinder.solve(g, grid[i - 1], grid[i], 0, 1e-13);
                cuts.add(0.5 * (b.lo() + b.hi()));
            }
            prev = cur;
        }
        cuts.add(Double.POSITIVE_INFINITY);
        double total = 0;
        double expEps = Math.exp(epsilon);
        for (int k = 0; k + 1 < cuts.size(); k++) {
            double a = cuts.get(k);
            double b = cuts.get(k + 1);
            double mid = Double.isInfinite(a) ? (Double.isInfinite(b) ? 0 : b - 1) : (Double.isInfinite(b) ? a + 1
                    : 0.5 * (a + b));
            if (g.applyAsDouble(mid) > 0) {
                double qMass = mass(q, a, b);
                // e^eps may overflow (eps > 709): a zero q-mass then contributes nothing, not inf * 0 = NaN
                total += mass(p, a, b) - (qMass == 0 ? 0 : expEps * qMass);
            }
        }
        return Math.max(0.0, Math.min(1.0, total));
    }

    /** Probability of {@code (a, b)} under a one-dimensional mixture, with tails from the survival function. */
    private static double mass(GaussianMixture m, double a, double b) {
        double s = m.sd();
        double total = 0;
        for (int i = 0; i < m.components(); i++) {
            double mu = m.mean(i, 0);
            double za = (a - mu) / s;
            double zb = (b - mu) / s;
            // Use the tail on the side where the interval lies, so tiny masses keep their precision.
            double pr = za > 0 ? Normal.sf(za) - Normal.sf(zb) : Normal.cdf(zb) - Normal.cdf(za);
            total += m.weight(i) * pr;
        }
        return total;
    }
}

package io.dpaudit.core.estimate.profile;

import io.dpaudit.core.law.GaussianMixture;
import io.dpaudit.core.numerics.LogSpace;
import org.apache.commons.rng.UniformRandomProvider;

/**
 * One round of a stratum, tilted: the Gaussian {@code N(μ, σ^2)} (one component of the world's mixture p) reweighted
 * by {@code e^{θ ℓ(x)}}, where {@code ℓ = log p/q} is the round's privacy loss against the other world's mixture q
 * (both one-dimensional, one σ):
 * <pre>
 *   r(x) = φ_σ(x - μ) e^{θ ℓ(x)} / M(θ),      M(θ) = E_{N(μ,σ^2)}[e^{θ ℓ}].
 * </pre>
 *
 * <p><b>Exact sampling.</b> {@code f = log φ + θℓ} has {@code f'' >= -K}, {@code K = 1/σ^2 + θ S_q^2/(4σ^4)} (S_q the
 * spread of q's means: for a mixture with one σ, {@code (log m)'' = -1/σ^2 + Var_post(μ)/σ^4} with the posterior
 * variance of the component mean in {@code [0, S^2/4]} (Popoviciu), so {@code (log p)'' >= -1/σ^2} and
 * {@code -(log q)'' >= 1/σ^2 - S_q^2/(4σ^4)}). On a grid of step {@code h = σ/32} each cell's
 * {@code max(f(x_j), f(x_{j+1})) + K h^2/8} bounds f on the cell (the excess {@code e} of f over its chord vanishes at
 * the cell's ends and has {@code e'' >= -K}, so {@code e(x) <= K (x - x_j)(x_{j+1} - x)/2 <= K h^2/8}; an upper bound on
 * f'' says nothing here: the Gaussian factor alone makes f exceed its chords); a cell drawn in proportion to
 * {@code h e^{U_j}}, a uniform point in it and
 * acceptance with probability {@code e^{f(x) - U_j}} give an exact draw of r restricted to the grid. Beyond the grid
 * ({@code μ + θ(μ_p - ν_j)σ^2/σ^2} ± 40σ for every extreme mean μ_p of p and component ν_j of q) f lies below a
 * Gaussian of variance σ^2 ({@code log p <= max_k -(x-μ_k)^2/(2σ^2)}, {@code log q >= log b_j - (x-ν_j)^2/(2σ^2)}),
 * whose relative mass {@link #logTruncatedMass()} is computed; the constructor refuses a tilt where it exceeds
 * {@value #MAX_LOG_TRUNCATED_MASS} in log (e^{-30} ≈ 1e-13, inside the intervals' outward rounding of 1e-12).
 *
 * <p><b>The normaliser</b> {@code log M(θ)} is the trapezoidal rule in log space with step σ/16, checked against step
 * σ/8 (they must agree to 1e-12): the rule converges geometrically for such analytic, Gaussian-tailed integrands.
 */
public final class TiltedRound {
    /** Relative allowance on {@code M(θ)} for the quadrature and round-off (far above both). */
    public static final double MOMENT_ALLOWANCE = 1e-10;
    /** Largest log relative mass of the tilted law beyond the tabulated range that a round accepts. */
    static final double MAX_LOG_TRUNCATED_MASS = -30;
    private static final int CELLS_PER_SD = 32;
    private static final double HALF_WIDTH_SDS = 40;
    private static final int MAX_CELLS = 1 << 21;

    private final GaussianMixture p;
    private final GaussianMixture q;
    private final double mean;
    private final double theta;
    private final double sd;
    private final double lo;
    private final double h;
    private final double[] cumulative;
    private final double[] cellBound;
    private final double logMoment;
    private final double logTruncatedMass;

    /**
     * @param p the mixture of the world whose divergence is estimated (ℓ's numerator)
     * @param q the other world's mixture
     * @param mean the mean of the component of p this round is drawn from
     * @param theta the tilt, {@code >= 0}
     */
    public TiltedRound(GaussianMixture p, GaussianMixture q, double mean, double theta) {
        if (!(theta >= 0) || !Double.isFinite(theta)) {
            throw new IllegalArgumentException("tilt must be finite and >= 0: " + theta);
        }
        this.p = p;
        this.q = q;
        this.mean = mean;
        this.theta = theta;
        this.sd = p.sd();
        double[] range = range(p, q, mean, theta);
        this.lo = range[0];
        this.h = sd / CELLS_PER_SD;
        long cells = (long) Math.ceil((range[1] - lo) / h);
        if (cells > MAX_CELLS) {
            throw tooWide(p, range);
        }
        int n = (int) cells;
        double[] f = new double[n + 1];
        RoundLoss roundLoss = new RoundLoss(p, q);
        for (int j = 0; j <= n; j++) {
            f[j] = logTarget(lo + j * h, roundLoss);
        }
        double s2 = sd * sd;
        double spread = q.maxMean() - q.minMean();
        double slack = (1 / s2 + theta * spread * spread / (4 * s2 * s2)) * h * h / 8;
        cellBound = new double[n];
        for (int j = 0; j < n; j++) {
            cellBound[j] = Math.max(f[j], f[j + 1]) + slack + 1e-12 * Math.max(Math.abs(f[j]), Math.abs(f[j + 1]));
        }
        cumulative = io.dpaudit.core.numerics.Inversion.cumulativeOfLogs(cellBound);
        double fine = logMoment(p, q, mean, theta);
        this.logMoment = fine;
        this.logTruncatedMass = truncatedMass(p, q, mean, theta) - fine - Math.log(sd) - 0.5 * Math.log(2 * Math.PI);
        if (!(logTruncatedMass <= MAX_LOG_TRUNCATED_MASS)) {
            throw new IllegalArgumentException("tilted round's mass beyond its table is not negligible (log "
                    + logTruncatedMass + " at tilt " + theta + ")");
        }
    }

    /**
     * {@code log M(θ)}, verified: the trapezoidal rule with step σ/16 over the sampled range, checked against step σ/8
     * (they must agree to 1e-12 relative; the rule converges geometrically for these analytic, Gaussian-tailed
     * integrands, so the finer value is far more accurate than that). The constructor's {@link #logMoment()} is this.
     */
    public static double logMoment(GaussianMixture p, GaussianMixture q, double mean, double theta) {
        double[] range = range(p, q, mean, theta);
        if (Math.ceil((range[1] - range[0]) / (p.sd() / 8)) > MAX_CELLS) {
            throw tooWide(p, range);
        }
        int coarseIntervals = (int) Math.ceil((range[1] - range[0]) / (p.sd() / 8));
        double coarse = trapezoid(p, q, mean, theta, range[0], range[1], coarseIntervals);
        double fine = trapezoid(p, q, mean, theta, range[0], range[1], 2 * coarseIntervals);
        if (!(Math.abs(fine - coarse) <= 1e-12 * Math.max(1, Math.abs(fine)))) {
            // The rule resolves Gaussians of the mixtures' width; a narrower one (a pair whose noise is tiny against
            // its shifts) is refused for this method, never integrated on too coarse a grid.
            throw new io.dpaudit.core.InvalidInputException("estimate.method", "importance", String.format(
                    java.util.Locale.ROOT, "the tilted normaliser does not converge at these parameters (log M %.6g "
                            + "with step sd/16, %.6g with sd/8, tilt %.3g): the noise is too narrow for the importance "
                            + "sampler's grid; use method plain", fine, coarse, theta));
        }
        return fine;
    }

    /**
     * The refusal of a round whose Gaussians are so narrow against the distances between their centres (σ = 1e-12
     * against a shift of 1, say) that the tables and the trapezoidal rule cannot resolve them: bad input for this
     * method, named, not an internal error (and never a number computed on too coarse a grid).
     */
    private static io.dpaudit.core.InvalidInputException tooWide(GaussianMixture p, double[] range) {
        return new io.dpaudit.core.InvalidInputException("estimate.method", "importance", String.format(
                java.util.Locale.ROOT, "the noise (sd %.3g) is %.3g times narrower than the span of the outputs it "
                        + "must tabulate, beyond the importance sampler's %d cells: use method plain", p.sd(),
                (range[1] - range[0]) / p.sd(), MAX_CELLS));
    }

    /** The sampled range: every centre of the bounding Gaussians ± 40σ. */
    private static double[] range(GaussianMixture p, GaussianMixture q, double mean, double theta) {
        double left = Math.min(mean, p.minMean());
        double right = Math.max(mean, p.maxMean());
        for (int j = 0; j < q.components(); j++) {
            double nu = q.mean(j, 0);
            for (double mp : new double[] {p.minMean(), p.maxMean()}) {
                double centre = mean + theta * (mp - nu);
                left = Math.min(left, centre);
                right = Math.max(right, centre);
            }
        }
        return new double[] {left - HALF_WIDTH_SDS * p.sd(), right + HALF_WIDTH_SDS * p.sd()};
    }

    /** Log of the bound on both tails' mass beyond the range (unnormalised, as the trapezoid). */
    /**
     * Whether the tilted round at θ can be tabulated: at most {@code 2^21} cells, and a proven bound on its mass beyond
     * the table of at most e^{-30} relative ({@code logMoment} = {@link #logMoment}). Searches choose θ among these.
     */
    public static boolean tabulable(GaussianMixture p, GaussianMixture q, double mean, double theta, double logMoment) {
        double[] range = range(p, q, mean, theta);
        if ((range[1] - range[0]) / (p.sd() / CELLS_PER_SD) > MAX_CELLS) {
            return false;
        }
        double truncated = truncatedMass(p, q, mean, theta) - logMoment - Math.log(p.sd()) - 0.5 * Math.log(2 * Math.PI);
        return truncated <= MAX_LOG_TRUNCATED_MASS;
    }

    private static double truncatedMass(GaussianMixture p, GaussianMixture q, double mean, double theta) {
        double sd = p.sd();
        double s2 = sd * sd;
        double logPhi40 = -800 - Math.log(40 * Math.sqrt(2 * Math.PI)) + Math.log(sd) + 0.5 * Math.log(2 * Math.PI);
        double total = Double.NEGATIVE_INFINITY;
        for (double mp : new double[] {p.minMean(), p.maxMean()}) {
            double best = Double.POSITIVE_INFINITY;
            for (int j = 0; j < q.components(); j++) {
                double nu = q.mean(j, 0);
                double beta = theta * (mp - nu) / s2;
                double constant = beta * mean + beta * beta * s2 / 2 - theta * (mp * mp - nu * nu) / (2 * s2)
                        - theta * Math.log(q.weight(j));
                best = Math.min(best, constant);
            }
            total = LogSpace.add(total, best + logPhi40);
        }
        return total;
    }

    private static double trapezoid(GaussianMixture p, GaussianMixture q, double mean, double theta, double from,
            double to, int intervals) {
        double step = (to - from) / intervals;
        double[] logs = new double[intervals + 1];
        RoundLoss roundLoss = new RoundLoss(p, q);
        double inv = 0.5 / (p.sd() * p.sd());
        for (int j = 0; j <= intervals; j++) {
            double x = from + j * step;
            double loss = theta == 0 ? 0 : roundLoss.at(x);
            logs[j] = -(x - mean) * (x - mean) * inv + theta * loss + (j == 0 || j == intervals ? Math.log(0.5) : 0);
        }
        return LogSpace.sum(logs, 0, logs.length) + Math.log(step) - Math.log(p.sd()) - 0.5 * Math.log(2 * Math.PI);
    }

    private double logTarget(double x, RoundLoss roundLoss) {
        double loss = theta == 0 ? 0 : roundLoss.at(x);
        return -(x - mean) * (x - mean) / (2 * sd * sd) + theta * loss;
    }

    /**
     * For tests of the sampler's proof: the largest {@code f(x) - U_j} over {@code perCell} uniform points of every
     * cell j (at most 0 when the cell bounds hold; a draw from a cell where it is positive would be biased).
     */
    double maxBoundExcess(UniformRandomProvider rng, int perCell) {
        RoundLoss roundLoss = new RoundLoss(p, q);
        double worst = Double.NEGATIVE_INFINITY;
        for (int j = 0; j < cellBound.length; j++) {
            for (int k = 0; k < perCell; k++) {
                double x = lo + (j + rng.nextDouble()) * h;
                worst = Math.max(worst, logTarget(x, roundLoss) - cellBound[j]);
            }
        }
        return worst;
    }

    /** The tilt θ. */
    public double theta() {
        return theta;
    }

    /** {@code log M(θ)}, by quadrature, without the allowance. */
    public double logMoment() {
        return logMoment;
    }

    /** Log of an upper bound on the mass of r outside the tabulated range, relative to M (never drawn). */
    public double logTruncatedMass() {
        return logTruncatedMass;
    }

    /** A sampler on its own random source; one per thread. */
    public Sampler sampler(UniformRandomProvider rng) {
        return new Sampler(rng);
    }

    /**
     * The round loss {@code ℓ(x) = log p(x) - log q(x)} of two one-dimensional mixtures with one σ, by log-sum-exp over
     * their components with the normalising constants cancelled: the same value as the mixtures' own log densities,
     * without their per-call array handling (this is the inner loop of every sample).
     */
    static final class RoundLoss {
        private final double[] pMeans;
        private final double[] pLogWeights;
        private final double[] qMeans;
        private final double[] qLogWeights;
        private final double inv;

        RoundLoss(GaussianMixture p, GaussianMixture q) {
            pMeans = new double[p.components()];
            pLogWeights = new double[p.components()];
            for (int i = 0; i < pMeans.length; i++) {
                pMeans[i] = p.mean(i, 0);
                pLogWeights[i] = Math.log(p.weight(i));
            }
            qMeans = new double[q.components()];
            qLogWeights = new double[q.components()];
            for (int i = 0; i < qMeans.length; i++) {
                qMeans[i] = q.mean(i, 0);
                qLogWeights[i] = Math.log(q.weight(i));
            }
            inv = 0.5 / (p.sd() * p.sd());
        }

        double at(double x) {
            return logSumExp(pMeans, pLogWeights, x) - logSumExp(qMeans, qLogWeights, x);
        }

        private double logSumExp(double[] means, double[] logWeights, double x) {
            int k = means.length;
            double d0 = x - means[0];
            double first = logWeights[0] - d0 * d0 * inv;
            if (k == 1) {
                return first;
            }
            if (k == 2) { // the common case, unrolled (the loop below measured several times slower under C2)
                double d1 = x - means[1];
                double second = logWeights[1] - d1 * d1 * inv;
                return first >= second ? first + Math.log1p(Math.exp(second - first))
                        : second + Math.log1p(Math.exp(first - second));
            }
            double max = first;
            for (int i = 1; i < k; i++) {
                double d = x - means[i];
                double t = logWeights[i] - d * d * inv;
                if (t > max) {
                    max = t;
                }
            }
            double sum = 0;
            for (int i = 0; i < k; i++) {
                double d = x - means[i];
                sum += Math.exp(logWeights[i] - d * d * inv - max);
            }
            return max + Math.log(sum);
        }
    }

    /** Draws of r, returning each draw's round loss {@code ℓ(x)}. */
    public final class Sampler {
        private final UniformRandomProvider rng;
        private final RoundLoss roundLoss = new RoundLoss(p, q);
        private final double inv = 0.5 / (sd * sd);

        Sampler(UniformRandomProvider rng) {
            this.rng = rng;
        }

        /** One draw of r; returns {@code ℓ(x) = log p(x) - log q(x)}. */
        public double nextLoss() {
            while (true) {
                double u = rng.nextDouble();
                int a = io.dpaudit.core.numerics.Inversion.index(cumulative, u);
                double x = lo + (a + rng.nextDouble()) * h;
                double loss = roundLoss.at(x);
                double f = -(x - mean) * (x - mean) * inv + theta * loss;
                if (Math.log(rng.nextDouble()) <= f - cellBound[a]) {
                    return loss;
                }
            }
        }
    }
}

package io.dpaudit.mechanisms.batching;

import io.dpaudit.core.bounds.BoundKind;
import io.dpaudit.core.bounds.PrivacyBound;
import io.dpaudit.core.numerics.Normal;

/**
 * The max-test lower bound of balls-and-bins ({@value #BALLS_AND_BINS}) and k-of-T random allocation
 * ({@value #ALLOCATION}), formula sheet §14.1. One epoch's output is T coordinates; with the canary each of k uniformly
 * chosen coordinates is shifted by 1, without it none is (noise {@code N(0, sigma^2)} on each). The event
 * {@code {max_t x_t > C}} has
 * <pre>
 * P(max &lt;= C) = Phi((C - 1)/sigma)^k Phi(C/sigma)^(T - k)   with the canary,   Q(max &lt;= C) = Phi(C/sigma)^T   without,
 * </pre>
 * since the maximum does not depend on which k coordinates carry the shift. Over E epochs (a new assignment each
 * epoch, independent) the count J of epochs whose maximum exceeds C is Binomial(E, P(max &gt; C)) against Binomial(E,
 * Q(max &gt; C)), a post-processing of the output, so its hockey-stick divergence is at most the mechanism's:
 * <pre>
 * delta(eps) &gt;= sup_C max( sum_j (P_j - e^eps Q_j)_+ , sum_j (Q_j - e^eps P_j)_+ )
 * </pre>
 * (both directions of zero-out adjacency; one epoch: the two events {@code max > C} and {@code max <= C}). A proven lower
 * bound on the sampler's δ(ε): every correct accounting lies above it, and a calibration with it gives the noise below
 * which none can meet a target. At T = 1 it is the Gaussian pair's exact curve (a threshold test is optimal there).
 *
 * <p>Numerics: the tail probabilities are taken in log space from {@code log(-log P(max <= C))}, each factor's
 * {@code -log Phi} formed without cancellation ({@link ShuffleMaxTestBound#logMinusLogCdf}), so a tail below double
 * precision's smallest number still counts; each term is lowered by a relative {@value EpochCounts#ROUNDING} and the
 * result rounded down. C is searched on 4000 points from {@code 0.5 - 12 sigma} to {@code 1 + 60 sigma}, then by golden section around
 * the best (any C gives a valid bound: the search only tightens it). ε(δ) is the lower end of the profile's root
 * bracket, rounded down.
 */
final class AllocationMaxTestBound implements PrivacyBound {
    /** Name for balls-and-bins. */
    static final String BALLS_AND_BINS = "bnb-max-test";
    /** Name for random allocation. */
    static final String ALLOCATION = "allocation-max-test";
    private final String name;
    private final int steps;
    private final int k;
    private final int epochs;
    private final double sigma;
    private final EpochCounts counts;

    AllocationMaxTestBound(BatchingParameters b) {
        this.name = b.sampler() == BatchingParameters.Sampler.BALLS_AND_BINS ? BALLS_AND_BINS : ALLOCATION;
        this.steps = b.steps();
        this.k = b.k();
        this.epochs = b.epochs();
        this.sigma = b.sigma();
        this.counts = new EpochCounts(epochs);
    }

    @Override
    public String name() {
        return name;
    }

    @Override
    public String source() {
        return "the max test on the allocation's pair (canary in " + k + " uniform step(s) of " + steps
                + " per epoch against none), formula sheet 14.1" + (epochs > 1 ? ", the count of the " + epochs
                + " epochs whose maximum exceeds C" : "") + ": a proven lower bound on the sampler's delta(eps)";
    }

    @Override
    public BoundKind kind() {
        return BoundKind.LOWER_BOUND;
    }

    /** ε(δ) of a lower bound: rounded down, finite wherever the search ran. */
    @Override
    public double epsilon(double delta) {
        return PrivacyBound.epsilonFromLowerProfile(this, delta);
    }

    @Override
    public double delta(double epsilon) {
        return ThresholdSearch.supremum(c -> gap(c, epsilon), 0.5 - 12 * sigma, 1 + 60 * sigma);
    }

    /** The larger direction's hockey-stick divergence of the two counts at threshold {@code c}, rounded down. */
    private double gap(double c, double epsilon) {
        double x = (c - 1) / sigma;
        double y = c / sigma;
        // log P(max <= C) and log P(max > C), with the canary (p) and without (q)
        double logP0 = k * Normal.logCdf(x) + (steps - k) * Normal.logCdf(y);
        double logQ0 = steps * Normal.logCdf(y);
        double logP1 = logOneMinusProduct(x, k, y, steps - k);
        double logQ1 = logOneMinusProduct(y, steps, y, 0);
        return counts.bothDirections(logP1, logP0, logQ1, logQ0, epsilon);
    }

    /**
     * {@code log(1 - Phi(x)^m Phi(y)^n)}, formed from {@code log(-L)}, {@code L = m log Phi(x) + n log Phi(y)}, so that
     * it stays accurate where the product rounds to 1: {@code 1 - e^L = -expm1(L)}, and below {@code e^-700} it is
     * {@code -L} itself (within a relative {@code e^-700}).
     */
    static double logOneMinusProduct(double x, int m, double y, int n) {
        double logMinusL = Double.NEGATIVE_INFINITY;
        if (m > 0) {
            logMinusL = Math.log(m) + ShuffleMaxTestBound.logMinusLogCdf(x);
        }
        if (n > 0) {
            double other = Math.log(n) + ShuffleMaxTestBound.logMinusLogCdf(y);
            double top = Math.max(logMinusL, other);
            logMinusL = top + Math.log1p(Math.exp(Math.min(logMinusL, other) - top));
        }
        if (logMinusL < -700) {
            return logMinusL;
        }
        return Math.log(-Math.expm1(-Math.exp(logMinusL)));
    }
}

package io.dpaudit.mechanisms.batching;

import io.dpaudit.core.bounds.BoundKind;
import io.dpaudit.core.bounds.PrivacyBound;
import io.dpaudit.core.numerics.Interruption;
import io.dpaudit.core.numerics.Normal;
import java.util.Locale;

/**
 * The sum-test lower bound of k-of-T random allocation ({@value #NAME}): the threshold test on
 * {@code S = sum_t e^{x_t / sigma^2}} per epoch, a statistic of the pair of formula sheet §14 (the canary in k uniformly
 * chosen coordinates of T, each shifted by 1, against none; noise {@code N(0, sigma^2)} on each).
 *
 * <p><b>Why this statistic.</b> The pair's likelihood ratio is {@code e_k(w) / (C(T, k) e^{k tau^2/2})}, the k-th
 * elementary symmetric polynomial of the {@code w_t = e^{x_t/sigma^2}}; for k = 1 it is a function of {@code S}
 * (balls-and-bins' exact test, {@link AllocationPld}), and for k &gt; 1 {@code e_k(w) = S^k / k! - O(S^{k-2} sum w_t^2)},
 * so for T much larger than k the threshold test on S is close to the optimal one. Its laws are those of a sum of
 * independent lognormals, k of them shifted under {@code P} ({@link LognormalSumLattice} with {@code r = k}): computable
 * on a lattice, with directed rounding.
 *
 * <p><b>Why it is a proven lower bound.</b> Every term is moved down to the lattice point below it, so the lattice sum
 * is {@code S_down = S - R}, R the total of the T rounding offsets, each in {@code [0, h]} and independent. R's mean is
 * bracketed term by term ({@link LognormalSumLattice#meanOffset}) and its deviation by Hoeffding's or Bernstein's
 * inequality ({@link OffsetConcentration}), so that
 * {@code r- <= R <= r+} but with probability {@value #OFFSET_TAIL} on each side. For the event {@code A_c = {S >= c}}:
 * <pre>
 * P(A_c) &gt;= P(no term escaped, S_down &gt;= c - r-) - 1e-15 =: p_c,
 * Q(A_c) &lt;= Q(S_down &gt;= c - r+) + 1e-15 + Q(some term escaped) + (mass wrapped around) =: q_c,
 * </pre>
 * each lattice tail moved by the round-off allowance of every point it sums (down for p, up for q) and by a relative
 * {@value #SUM_ROUNDING} for the summation itself (a sum that wrapped around is above every threshold, so wherever it
 * lands it does not inflate p). Over E epochs the count J of epochs in which {@code A_c} occurs is Binomial(E, P(A_c))
 * against Binomial(E, Q(A_c)), a post-processing of the output; where {@code p_c > q_c} its likelihood ratio increases
 * with J, so the optimal count tests are the sets {@code J >= i} (and {@code J <= i} for the other direction), whose
 * probabilities under the two binomials move the safe way when {@code P(A_c)} is replaced by {@code p_c} and
 * {@code Q(A_c)} by {@code q_c}:
 * <pre>
 * delta(eps) &gt;= sup_c max( sum_i (Bin(E, p_c)_i - e^eps Bin(E, q_c)_i)_+ , sum_i (Bin(E, q_c)_i - e^eps Bin(E, p_c)_i)_+ ),
 * </pre>
 * rounded down ({@link EpochCounts}); a threshold with {@code p_c <= q_c} counts for nothing. Any threshold gives a
 * valid bound: the search over c (4000 points on a logarithmic grid, then golden section) only tightens it.
 *
 * <p><b>Lattice.</b> Terms are clamped at {@code B = max(2 T e^{tau^2/2}, e^{tau z})}, z the normal quantile at which a
 * term escapes with probability {@value #ESCAPE}{@code / T}; {@code 2^23} points, so {@code h = B / (2^22 - 1)} and
 * the offsets' deviation {@code h sqrt(T ln(1e15) / 2)} is about 0.17% of S's standard deviation at T = 1000,
 * sigma = 1. The resolution is what limits the bound (0.3279, 0.3442, 0.3524, 0.3565 at k = 2, T = 1000, sigma = 1,
 * delta = 1e-6 on 2^21 to 2^24 points, against 0.3606 for the unrounded test). Offered for k &gt;= 2, T &lt;= 10^4 and
 * sigma &gt;= 0.18, as {@link AllocationPld} is.
 */
final class AllocationSumTestBound implements PrivacyBound {
    /** The bound's name. */
    static final String NAME = "allocation-sum-test";
    /** Lattice length (a power of two). */
    static final int LATTICE = 1 << 23;
    /** Probability that any one term escapes the clamp, summed over the steps. */
    static final double ESCAPE = 1e-13;
    /** Probability allowed for the rounding offsets' total to fall outside its interval ({@link OffsetConcentration}). */
    static final double OFFSET_TAIL = 1e-15;
    /** Relative rounding of a running sum of at most 2^23 non-negative terms (2^23 u, with room). */
    static final double SUM_ROUNDING = 1e-9;

    private final int steps;
    private final int k;
    private final int epochs;
    private final double sigma;
    private final EpochCounts counts;
    private final int lattice;
    private Tails tails;

    /**
     * The certified tails of one epoch's sum on the lattice rounded down ({@code S_down <= S <= S_down + R}).
     *
     * @param h lattice spacing
     * @param lowP {@code lowP[j] <= P(no term escaped, S_down >= j h)}
     * @param highQ {@code highQ[j] >= Q(S_down >= j h or some term escaped)}
     * @param offsetLow {@code r-}: {@code P(R < r-)} is at most {@link #OFFSET_TAIL}
     * @param offsetHigh {@code r+}: {@code Q(R > r+)} is at most {@link #OFFSET_TAIL}
     */
    private record Tails(double h, double[] lowP, double[] highQ, double offsetLow, double offsetHigh) {
    }

    AllocationSumTestBound(BatchingParameters b) {
        this(b, LATTICE);
    }

    /** The same on {@code lattice} points (a power of two; coarser lattices give weaker, still valid, bounds). */
    AllocationSumTestBound(BatchingParameters b, int lattice) {
        String why = unsupported(b);
        if (why != null) {
            throw new IllegalArgumentException(why);
        }
        this.steps = b.steps();
        this.k = b.k();
        this.epochs = b.epochs();
        this.sigma = b.sigma();
        this.counts = new EpochCounts(epochs);
        this.lattice = lattice;
    }

    /** Why the bound is not offered for {@code b}, or null when it is. */
    static String unsupported(BatchingParameters b) {
        if (b.k() < 2) {
            return "k = " + b.k() + ": the likelihood ratio is a function of the sum, whose exact curve the PLD bracket "
                    + "gives";
        }
        return AllocationPld.unsupportedLattice(b);
    }

    @Override
    public String name() {
        return NAME;
    }

    @Override
    public String source() {
        return String.format(Locale.ROOT, "the threshold test on the sum S of the %d steps' e^{x_t/sigma^2} per epoch "
                + "(canary in %d uniform step(s) of %d against none)%s; the laws of S on a lattice of 2^%d points, "
                + "every term rounded down, the total rounding offset bracketed by its mean and Hoeffding's or "
                + "Bernstein's inequality, "
                + "round-off, wrap-around and escaped terms counted against the test: a proven lower bound on the "
                + "sampler's delta(eps)", steps, k, steps,
                epochs > 1 ? ", the count of the " + epochs + " epochs in which it exceeds the threshold" : "",
                Integer.numberOfTrailingZeros(lattice));
    }

    @Override
    public BoundKind kind() {
        return BoundKind.LOWER_BOUND;
    }

    /** ε(δ) of a lower bound: rounded down. */
    @Override
    public double epsilon(double delta) {
        return PrivacyBound.epsilonFromLowerProfile(this, delta);
    }

    @Override
    public double delta(double epsilon) {
        Tails t = tails();
        // thresholds from half the mean of S under Q to the top of the lattice, on a logarithmic grid
        double lo = Math.log(0.5 * steps * Math.exp(0.5 / (sigma * sigma)));
        double hi = Math.log((t.lowP().length - 1) * t.h());
        return ThresholdSearch.supremum(u -> gap(t, Math.exp(u), epsilon), lo, hi);
    }

    /**
     * The larger direction's count divergence of the test {@code S >= c}, or 0 where the certified {@code P(S >= c)} is
     * not above the certified {@code Q(S >= c)}. {@code P(S >= c) >= P(S_down >= c - r-) - P(R < r-)} and
     * {@code Q(S >= c) <= Q(S_down >= c - r+) + Q(R > r+)}.
     */
    private double gap(Tails t, double c, double epsilon) {
        int last = t.lowP().length - 1;
        int jP = (int) Math.min(last, Math.max(0, Math.ceil((c - t.offsetLow()) / t.h())));
        int jQ = (int) Math.min(last, Math.max(0, Math.floor((c - t.offsetHigh()) / t.h())));
        double p = t.lowP()[jP] - OFFSET_TAIL;
        double q = t.highQ()[jQ] + OFFSET_TAIL;
        if (!(p > q) || q >= 1) {
            return 0;
        }
        return counts.bothDirections(Math.log(p), Math.log1p(-p), Math.log(q), Math.log1p(-q), epsilon);
    }

    private synchronized Tails tails() {
        if (tails == null) {
            tails = compute();
        }
        return tails;
    }

    private Tails compute() {
        double tau = 1 / sigma;
        double z = Normal.inverseSurvival(ESCAPE / steps);
        double clamp = Math.max(2 * steps * Math.exp(tau * tau / 2), Math.exp(tau * z));
        Interruption.check("computing the allocation sum test");
        LognormalSumLattice.Law down = LognormalSumLattice.compute(steps, k, tau, clamp, lattice, false);
        int n = down.n();
        double h = down.h();
        // the rounding offsets' total R: its mean bracketed term by term, its deviation by Hoeffding's or Bernstein's
        // inequality (u in [0, h), its variance bounded in closed form)
        double[] uQ = LognormalSumLattice.meanOffset(n, h, tau, 0);
        double[] uP = LognormalSumLattice.meanOffset(n, h, tau, tau * tau);
        double vQ = OffsetConcentration.termVariance(h, tau, 0);
        double vP = OffsetConcentration.termVariance(h, tau, tau * tau);
        double offsetHigh = steps * uQ[1] + OffsetConcentration.deviation(h, steps, steps * vQ, OFFSET_TAIL);
        double offsetLow = Math.max(0, (steps - k) * uQ[0] + k * uP[0]
                - OffsetConcentration.deviation(h, steps, (steps - k) * vQ + k * vP, OFFSET_TAIL));
        double[] lowP = new double[lattice];
        double[] highQ = new double[lattice];
        double runP = 0;
        double runQ = 0;
        double extra = down.escapeQ() + down.aliasQ();
        for (int j = lattice - 1; j >= 0; j--) {
            runP += Math.max(0, down.p()[j] - down.etaP());
            runQ += Math.max(0, down.q()[j] + down.etaQ());
            lowP[j] = runP * (1 - SUM_ROUNDING);
            highQ[j] = Math.min(1, (runQ + extra) * (1 + SUM_ROUNDING));
        }
        return new Tails(h, lowP, highQ, offsetLow, offsetHigh);
    }
}

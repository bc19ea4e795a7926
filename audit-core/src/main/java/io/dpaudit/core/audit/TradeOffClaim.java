package io.dpaudit.core.audit;

import io.dpaudit.core.estimate.power.TradeOffPower;
import io.dpaudit.core.fdp.GaussianTradeOff;
import io.dpaudit.core.fdp.TradeOffFunction;

/**
 * An f-DP claim on the audited pair {@code (M(D), M(D'))}: its trade-off curve lies on or above {@code f}, and the
 * curve of the reversed pair {@code T(M(D'), M(D))} on or above {@code reverse}.
 *
 * <p>A claim about a mechanism under a symmetric adjacency ("the mechanism is f-DP") constrains every neighbouring pair
 * in both orders by the same {@code f}, so {@code reverse = f}. A claim about one ordered pair — the exact curve
 * {@code T(P, Q)} of a pair profile, say — says nothing more about {@code T(Q, P)} than {@code T(Q, P) = T(P, Q)^{-1}
 * >= f^{-1}}, so {@code reverse = f^{-1}}: checking the reversed tests against {@code f} would refute a true curve
 * whenever the pair is asymmetric (Poisson-subsampled pairs are).
 *
 * <p>Immutable; a class rather than a record only so that {@link #claimMu} is computed once per claim.
 */
public final class TradeOffClaim {
    private final String label;
    private final TradeOffFunction f;
    private final TradeOffFunction reverse;
    private final double gdpMu;
    private final String source;
    /** {@link #claimMu}, computed on first use (NaN until then; a race computes the same value twice). */
    private volatile double claimMu = Double.NaN;

    /**
     * @param label the claim's label
     * @param f the claimed trade-off function of the ordered pair {@code (M(D), M(D'))}
     * @param reverse the one claimed for {@code (M(D'), M(D))} ({@code f} itself for a symmetric claim)
     * @param gdpMu the claim's μ when it is μ-GDP, NaN otherwise
     * @param source where the claim comes from
     */
    public TradeOffClaim(String label, TradeOffFunction f, TradeOffFunction reverse, double gdpMu, String source) {
        this.label = label;
        this.f = f;
        this.reverse = reverse;
        this.gdpMu = gdpMu;
        this.source = source;
    }

    /** A claim about every neighbouring pair in both orders ({@code reverse = f}). */
    public TradeOffClaim(String label, TradeOffFunction f, double gdpMu, String source) {
        this(label, f, f, gdpMu, source);
    }

    /** A {@code mu}-GDP claim. */
    public static TradeOffClaim gdp(String label, double mu, String source) {
        return new TradeOffClaim(label, new GaussianTradeOff(mu), mu, source);
    }

    /** Name shown in reports. */
    public String label() {
        return label;
    }

    /** The claimed lower bound on {@code T(M(D), M(D'))}. */
    public TradeOffFunction f() {
        return f;
    }

    /** The claimed lower bound on {@code T(M(D'), M(D))}. */
    public TradeOffFunction reverse() {
        return reverse;
    }

    /** {@code mu} when the claim is {@code mu}-GDP, NaN otherwise. */
    public double gdpMu() {
        return gdpMu;
    }

    /** Where the claim comes from. */
    public String source() {
        return source;
    }

    /**
     * The largest {@code mu} whose {@code G_mu} satisfies the claim ({@code gdpMu} for a μ-GDP claim, else
     * {@link TradeOffPower#largestSatisfiedMu}): what the power of every audit of this claim is measured against,
     * computed once per claim.
     */
    public double claimMu() {
        double m = claimMu;
        if (Double.isNaN(m)) {
            m = Double.isNaN(gdpMu) ? TradeOffPower.largestSatisfiedMu(f, reverse) : gdpMu;
            claimMu = m;
        }
        return m;
    }

    /** Whether the claim constrains the two orders of the pair by different functions. */
    public boolean orderedPair() {
        return reverse != f;
    }

    @Override
    public String toString() {
        return "TradeOffClaim[" + label + ", gdpMu=" + gdpMu + ", " + source + "]";
    }
}

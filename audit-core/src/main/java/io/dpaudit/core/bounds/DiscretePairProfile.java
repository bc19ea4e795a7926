package io.dpaudit.core.bounds;

import io.dpaudit.core.law.DiscreteLaw;
import io.dpaudit.core.numerics.IndexSort;
import io.dpaudit.core.numerics.SafeRounding;

/**
 * The exact privacy profile of a neighbouring pair of discrete laws {@code (P, Q)} over the same atoms, in both
 * directions, as a finite sum:
 * <pre>
 *   H_{e^eps}(P || Q) = sum_{i : L_i > eps} p_i (1 - e^{eps - L_i}),   L_i = log(p_i / q_i)  (+inf where q_i = 0)
 * </pre>
 * and the same with the laws swapped. Every term is non-negative and computed as {@code p_i (1 - e^{eps - L_i})}
 * ({@code LogSpace.oneMinusExp}), so there is no cancellation however small the result; the terms are summed in
 * decreasing order of the loss with Neumaier's compensated summation. An optional {@code allowance} (e.g. probability
 * mass a mechanism dropped from far tails when building its laws) is added to both directions, so that the profile
 * stays an upper bound on the pair it approximates. Results are rounded up.
 *
 * <p>Cost: {@code O(A log A)} to build for {@code A} atoms, {@code O(number of atoms with L_i > eps)} per evaluation.
 */
public final class DiscretePairProfile extends NamedBound implements PairProfile {
    private final Direction remove;
    private final Direction add;
    private final double allowance;
    private final DiscreteLaw withRecord;
    private final DiscreteLaw withoutRecord;

    /**
     * @param name bound name
     * @param source what the pair is
     * @param kind {@link BoundKind#PAIR_PROFILE} for the profile of one simulated pair, or
     *     {@link BoundKind#UPPER_BOUND} when the pair is proven to dominate the mechanism
     * @param withRecord {@code P}
     * @param withoutRecord {@code Q}
     * @param allowance added to both directions, {@code >= 0}
     */
    public DiscretePairProfile(String name, String source, BoundKind kind, DiscreteLaw withRecord,
            DiscreteLaw withoutRecord, double allowance) {
        super(name, source, kind);
        if (withRecord.atoms() != withoutRecord.atoms()) {
            throw new IllegalArgumentException("laws over different atoms");
        }
        if (!(allowance >= 0)) {
            throw new IllegalArgumentException("allowance must be >= 0: " + allowance);
        }
        this.remove = new Direction(withRecord, withoutRecord);
        this.add = new Direction(withoutRecord, withRecord);
        this.allowance = allowance;
        this.withRecord = withRecord;
        this.withoutRecord = withoutRecord;
    }

    @Override
    public double delta(double epsilon) {
        return SafeRounding.upProbability(Math.max(remove(epsilon), add(epsilon)));
    }

    /** {@code H_{e^eps}(P || Q)} plus the allowance, not rounded. */
    @Override
    public double remove(double epsilon) {
        return Math.min(1.0, remove.hockeyStick(epsilon) + allowance);
    }

    /** {@code H_{e^eps}(Q || P)} plus the allowance, not rounded. */
    @Override
    public double add(double epsilon) {
        return Math.min(1.0, add.hockeyStick(epsilon) + allowance);
    }

    /**
     * The vertices of {@code T(P, Q)}: the likelihood-ratio tests rejecting {@code P} on the atoms with the largest
     * {@code Q/P} first, at {@code alpha_k = P(first k atoms)} and {@code beta_k = 1 - Q(first k atoms)}, with
     * {@code beta} lowered by the allowance (the pair's profile is raised by it) and clamped at 0.
     */
    @Override
    public double[][] tradeOffVertices() {
        double[] l = new double[withRecord.atoms()];
        for (int i = 0; i < l.length; i++) {
            double a = withRecord.logProbability(i);
            double b = withoutRecord.logProbability(i);
            l[i] = b == Double.NEGATIVE_INFINITY ? Double.NEGATIVE_INFINITY
                    : (a == Double.NEGATIVE_INFINITY ? Double.POSITIVE_INFINITY : b - a);
        }
        int[] order = IndexSort.descending(l);
        double[] alpha = new double[l.length + 1];
        double[] beta = new double[l.length + 1];
        beta[0] = 1.0;
        double pa = 0;
        double qa = 0;
        for (int k = 0; k < l.length; k++) {
            pa += withRecord.probability(order[k]);
            qa += withoutRecord.probability(order[k]);
            alpha[k + 1] = Math.min(1.0, pa);
            beta[k + 1] = Math.max(0.0, 1.0 - qa);
        }
        for (int k = 0; k <= l.length; k++) {
            beta[k] = Math.max(0.0, beta[k] - allowance);
        }
        return new double[][] {alpha, beta};
    }

    /** One direction: losses {@code log(a/b)} sorted decreasingly with their masses under {@code a}. */
    private static final class Direction {
        private final double[] losses;
        private final double[] masses;

        Direction(DiscreteLaw a, DiscreteLaw b) {
            int n = 0;
            for (int i = 0; i < a.atoms(); i++) {
                if (a.logProbability(i) > Double.NEGATIVE_INFINITY) {
                    n++;
                }
            }
            double[] loss = new double[n];
            double[] mass = new double[n];
            int o = 0;
            for (int i = 0; i < a.atoms(); i++) {
                if (a.logProbability(i) > Double.NEGATIVE_INFINITY) {
                    loss[o] = a.logProbability(i) - b.logProbability(i);
                    mass[o++] = a.probability(i);
                }
            }
            int[] order = IndexSort.descending(loss);
            this.losses = new double[n];
            this.masses = new double[n];
            for (int k = 0; k < n; k++) {
                losses[k] = loss[order[k]];
                masses[k] = mass[order[k]];
            }
        }

        double hockeyStick(double epsilon) {
            double sum = 0;
            double compensation = 0;
            for (int k = 0; k < losses.length && losses[k] > epsilon; k++) {
                double term = losses[k] == Double.POSITIVE_INFINITY ? masses[k]
                        : masses[k] * io.dpaudit.core.numerics.LogSpace.oneMinusExp(epsilon - losses[k]);
                double t = sum + term;
                compensation += Math.abs(sum) >= Math.abs(term) ? (sum - t) + term : (term - t) + sum;
                sum = t;
            }
            return sum + compensation;
        }
    }
}

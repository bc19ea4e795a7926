package io.dpaudit.mechanisms.batching;

import io.dpaudit.core.bounds.BoundKind;
import io.dpaudit.core.bounds.LabelledBound;
import io.dpaudit.core.bounds.PrivacyBound;
import io.dpaudit.mechanisms.batching.BatchingParameters.Sampler;
import java.util.Locale;

/**
 * A proven upper bound on k-of-T random allocation ({@value #NAME}): the curve of balls-and-bins over
 * {@code m = floor(T/k)} steps composed {@code k E} times, computed by the upper end of {@link AllocationPld}.
 *
 * <p><b>The decomposition.</b> Fix k disjoint blocks of m positions among the T steps. Choosing one position uniformly
 * in each block gives a random k-set of positions; applying an independent uniformly random permutation of the T steps
 * to it gives a uniformly random k-subset, whatever the law of the positions. So the pair of formula sheet §14 (the
 * canary in k uniform steps of T, against none) is {@code P = E_pi[P_pi]} against {@code Q = E_pi[Q]}, where
 * {@code P_pi} places the canary once uniformly in each of the permuted blocks {@code pi(B_1), ..., pi(B_k)}. The
 * hockey-stick divergence is jointly convex (an f-divergence), so for both directions
 * <pre>
 * H_{e^eps}(P || Q) &lt;= E_pi H_{e^eps}(P_pi || Q) = H_{e^eps}(P_id || Q),     H_{e^eps}(Q || P) &lt;= H_{e^eps}(Q || P_id),
 * </pre>
 * every {@code pi} giving the same value (Q is invariant under permutations). The pair {@code (P_id, Q)} is a product
 * over the k blocks of balls-and-bins pairs of m steps (the steps outside every block carry noise alone in both worlds),
 * and E independent epochs multiply it E times: the curve is the {@code k E}-fold composition of balls-and-bins of m
 * steps. The reduction is proved here (the coupling and joint convexity above), not taken from a paper; the sampler is
 * Feldman &amp; Shenfeld's (arXiv 2502.08202). With k = 1 it is balls-and-bins itself.
 *
 * <p>Offered for k &gt;= 2 wherever {@link AllocationPld} is offered for m steps and {@code k E <= 10^4} epochs.
 */
final class AllocationDecomposition {
    /** The bound's name. */
    static final String NAME = "allocation-decomposition-upper";

    private AllocationDecomposition() {
    }

    /** Why the bound is not offered for {@code b}, or null when it is. */
    static String unsupported(BatchingParameters b) {
        if (b.sampler() != Sampler.RANDOM_ALLOCATION || b.k() < 2) {
            return "k = " + b.k() + ": nothing to decompose (the balls-and-bins bracket applies)";
        }
        if ((long) b.k() * b.epochs() > BatchingParameters.MAX_EPOCHS) {
            return "k E = " + (long) b.k() * b.epochs() + " compositions: at most " + BatchingParameters.MAX_EPOCHS;
        }
        return AllocationPld.unsupportedLattice(stratified(b));
    }

    /** Balls-and-bins over {@code floor(T/k)} steps and {@code k E} epochs. */
    static BatchingParameters stratified(BatchingParameters b) {
        return new BatchingParameters(Sampler.BALLS_AND_BINS, b.steps() / b.k(), b.epochs() * b.k(), b.sigma(), 1,
                false);
    }

    /** The bound for {@code b} (computed on first use). */
    static PrivacyBound upper(BatchingParameters b) {
        BatchingParameters s = stratified(b);
        PrivacyBound inner = SharedBrackets.of(s).upper();
        return new LabelledBound(NAME, BoundKind.UPPER_BOUND, inner, String.format(Locale.ROOT, "random allocation of "
                + "k = %d of T = %d steps is at most as private as balls-and-bins over floor(T/k) = %d steps composed "
                + "k E = %d times (joint convexity of the hockey-stick divergence over a uniform permutation of k "
                + "blocks, docs/batch-samplers.md): a proven upper bound, computed by "
                + "%s", b.k(), b.steps(), s.steps(), s.epochs(), inner.source()));
    }
}

package io.dpaudit.mechanisms.batching;

import java.util.List;
import org.apache.commons.rng.UniformRandomProvider;

/**
 * One epoch of a dependent-round sampler's pair {@code (P, Q)}, with laws tilted towards the remove direction's tail
 * that are sampled exactly and whose importance weights carry a proven bound where the privacy profile's integrand is
 * non-zero: what {@link TiltedPairImportanceEstimator} needs to give intervals with no assumption on the weights.
 *
 * <p>The contract of a {@link Tilt} r with parameter {@code theta > 0} and constant {@code B}: for every output x of one
 * epoch, {@code log dP/dr(x) = log B - theta L(x) + slack(x)} with {@code slack(x) <= 0}, L the epoch's log-likelihood
 * ratio {@code log dP/dQ}. Over E independent epochs the weights multiply, so the weight of a sample whose summed loss is
 * at least ε is at most {@code B^E e^{-theta eps}}: the remove direction's integrand {@code w (1 - e^{eps - L})_+} lies
 * in {@code [0, B^E e^{-theta eps} g(theta)]}, {@code g(theta) = max_u e^{-theta u} (1 - e^{-u})}.
 */
interface TiltedPair {
    /** The tilts the estimator chooses among (by the smallest weight bound at each target). */
    List<Tilt> tilts();

    /** A sampler of one epoch under Q, for the add direction's plain sampling (its slack is 0). */
    EpochSampler plain(UniformRandomProvider rng);

    /**
     * An upper bound on {@code log E_Q[e^{-theta L}]} for one epoch ({@code theta > 0}), the add direction's Chernoff
     * bound: {@code delta_Q(eps) <= g(theta) e^{-theta eps} E_Q[e^{-theta L}]^E}.
     */
    double logAddMoment(double theta);

    /**
     * An upper bound on {@code log Q(L < -eps)} for one epoch (so on one epoch's add-direction profile
     * {@code delta_Q(eps) = E_Q[(1 - e^{eps + L})_+]}); 0 when the pair has none but the moment bound.
     */
    default double logAddTail(double eps) {
        return 0;
    }

    /** What is sampled and how the weights are bounded, for the estimate's source line. */
    String source();

    /** A law tilted towards large L, sampled exactly. */
    interface Tilt {
        double theta();

        /** {@code log B}: the weight of an epoch is at most {@code B e^{-theta L}}. */
        double logWeightBound();

        /** A sampler of one epoch from this tilt, on {@code rng} (one per shard; it may hold scratch arrays). */
        EpochSampler sampler(UniformRandomProvider rng);
    }

    /** Draws epochs one at a time, with no allocation per draw. */
    interface EpochSampler {
        /** Draws one epoch and returns its log-likelihood ratio L. */
        double next();

        /** {@code log dP/dr - (log B - theta L)} of the last draw: at most 0 (0 when the weight is a function of L). */
        double slack();
    }
}

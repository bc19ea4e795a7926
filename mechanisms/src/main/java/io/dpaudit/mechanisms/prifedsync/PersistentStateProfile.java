package io.dpaudit.mechanisms.prifedsync;

import io.dpaudit.core.bounds.BoundKind;
import io.dpaudit.core.bounds.GaussianBound;
import io.dpaudit.core.bounds.PrivacyBound;
import io.dpaudit.core.numerics.SafeRounding;
import java.util.Locale;

/**
 * The exact privacy profile of the simulated pair under {@code state: persistent} (full-batch local steps): a global
 * model persists across rounds, so client j's update of round {@code r} reaches the observer if j is selected in
 * {@code r} and the observer takes part in some round {@code r' >= r}. With {@code L} the last round in which the
 * observer takes part ({@code P(L = 0) = (1-o)^R}, {@code P(L = l) = o (1-o)^{R-l}}, {@code o} the observation
 * probability) the number of j's updates the adversary sees is {@code S ~ Binomial(L, p)}; given the counts, the
 * observed changes are independent Gaussians whose pair composes to a Gaussian pair of parameter
 * {@code mu_1 sqrt(K S)}, {@code mu_1 = |a - b| / s} per step. Hence
 * <pre>
 *   delta(eps) = sum_l P(L = l) sum_s Bin(l, p)(s) delta_G(mu_1 sqrt(K s), eps),
 * </pre>
 * with {@code delta_G} the Gaussian profile (Balle &amp; Wang 2018, Thm 8), summed exactly over every term and rounded
 * up. Fresh rounds would reach the observer only when both take part in the same round ({@code p o} per round); the
 * difference is what refutes Theorem 1's composition under persistent state (formula sheet §10: at p = 0.5, R = 10
 * and a fully revealing step the total variation is {@code 1 - (1-p)^R (1 + R p) = 0.994} against Theorem 1's
 * {@code 1 - (1-p^2)^R = 0.944}).
 */
final class PersistentStateProfile implements PrivacyBound {
    /** Largest R: the sum has R^2 / 2 terms. */
    static final int MAX_ROUNDS = 10_000;
    private final String name;
    private final PriFedSyncParameters p;
    private final double[] seen;
    private final double muStep;

    PersistentStateProfile(String name, PriFedSyncParameters p) {
        this.name = name;
        this.p = p;
        this.seen = seenCounts(p.rounds(), p.p(), p.observation());
        this.muStep = Math.abs(p.meanWith() - p.meanWithout()) / p.noiseScale();
    }

    /** {@code P(S = s)}, {@code s = 0..R}. */
    static double[] seenCounts(int rounds, double p, double o) {
        double[] out = new double[rounds + 1];
        double logQ = Math.log1p(-p);
        double logP = Math.log(p);
        double logNotObserved = o >= 1 ? Double.NEGATIVE_INFINITY : Math.log1p(-o);
        for (int l = 0; l <= rounds; l++) {
            // (1-o)^k with k = 0 is 1 even when o = 1: never 0 * log(0), which is NaN.
            double notObservedSince = rounds == l ? 0 : (rounds - l) * logNotObserved;
            double logL = l == 0 ? notObservedSince : Math.log(o) + notObservedSince;
            if (logL < -745) {
                continue;
            }
            // Bin(l, p)(s) in log space, s = 0..l, by the ratio recursion from log C(l, 0) = 0.
            double logChoose = 0;
            for (int s = 0; s <= l; s++) {
                if (s > 0) {
                    logChoose += Math.log((double) (l - s + 1) / s);
                }
                double logTerm = logL + logChoose + (p >= 1 ? (s == l ? 0 : Double.NEGATIVE_INFINITY)
                        : s * logP + (l - s) * logQ);
                out[s] += Math.exp(logTerm);
            }
        }
        return out;
    }

    @Override
    public String name() {
        return name;
    }

    @Override
    public String source() {
        return String.format(Locale.ROOT, "exact profile of the simulated pair (%s): a persistent global model carries "
                + "client j's update of a round to the observer whenever it takes part later; S ~ sum_l P(L = l) "
                + "Binomial(l, p) updates are seen (L the observer's last round, observation probability %.6g), the "
                + "seen steps compose to a Gaussian pair mu = %.6g sqrt(K S); exact, summed over every S", p.describe(),
                p.observation(), muStep);
    }

    @Override
    public BoundKind kind() {
        return BoundKind.PAIR_PROFILE;
    }

    @Override
    public double delta(double epsilon) {
        double total = 0;
        double sum = 0;
        for (int s = 0; s < seen.length; s++) {
            sum += seen[s];
            if (s == 0 || seen[s] == 0) {
                continue;
            }
            total += seen[s] * new GaussianBound(muStep * Math.sqrt((double) s * p.localSteps())).delta(epsilon);
        }
        // The probabilities sum to 1 up to rounding: what rounding lost is charged as delta = 1.
        return SafeRounding.upProbability(total + Math.max(0, 1 - sum) + 1e-14);
    }

    /** The probability that at least one of j's updates is seen: the profile's value at epsilon = infinity. */
    double reach() {
        return 1 - seen[0];
    }
}

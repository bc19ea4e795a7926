package io.dpaudit.mechanisms.prifedsync;

import io.dpaudit.core.bounds.AccountingLimitException;
import io.dpaudit.core.accounting.ProfileComposition;
import io.dpaudit.core.bounds.BoundKind;
import io.dpaudit.core.bounds.MixturePairProfile;
import io.dpaudit.core.bounds.PrivacyBound;
import io.dpaudit.core.law.GaussianMixture;
import io.dpaudit.core.numerics.SafeRounding;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import org.apache.commons.math3.distribution.BinomialDistribution;

/**
 * The exact privacy profile of the simulated pair of PriFedSync: over {@code R} rounds the number {@code S} of rounds
 * whose update reaches the adversary is {@code Binomial(R, pi)} and is itself seen (a round that does not reach the
 * adversary carries nothing), so
 * <pre>
 *   delta(eps) = sum_s P(S = s) delta_{Ks}(eps),
 * </pre>
 * with {@code delta_n} the profile of {@code n} composed steps of the pair {@code (1 - gamma) N(0, s^2) + gamma N(a C,
 * s^2)} against {@code (1 - gamma) N(0, s^2) + gamma N(b C, s^2)} ({@code a}, {@code b} the pair's shifts,
 * {@link PriFedSyncParameters#meanWith}; a single normal when a shift is 0), each step's profile exact
 * ({@link MixturePairProfile}) and the composition by the PLD accountant (pessimistic rounding, certified for the
 * pair). Binomial terms below {@code 1e-15} in total are left out and their mass added to δ. For an asymmetric pair
 * the two directions are maximised for each {@code s} before summing, which can only raise the curve.
 *
 * <p>Accuracy: the PLD composition discretises each step's loss (pessimistically), so the composed profile lies on or
 * above the true one; the gap grows with the number of composed steps (an independent reference measured it up to
 * {@code 1.1e-3} in {@code beta} at T = 38) — conservative, never optimistic, as {@code source()} states.
 */
final class VisibleRoundsProfile implements PrivacyBound {
    private final String name;
    private final PriFedSyncParameters p;
    private final MixturePairProfile step;
    private final int lo;
    private final double[] weights;
    private final double dropped;
    private final Map<Integer, PrivacyBound> composed = new ConcurrentHashMap<>();

    VisibleRoundsProfile(String name, PriFedSyncParameters p) {
        this.name = name;
        this.p = p;
        double sd = p.noiseScale();
        double g = p.gamma();
        GaussianMixture with = mixture(g, p.meanWith(), sd);
        GaussianMixture without = mixture(g, p.meanWithout(), sd);
        this.step = new MixturePairProfile("step", "one local step", with, without, 1.0);
        double pi = p.visibility();
        int r = p.rounds();
        if (pi >= 1.0) {
            this.lo = r;
            this.weights = new double[] {1.0};
            this.dropped = 0.0;
        } else {
            BinomialDistribution b = new BinomialDistribution(null, r, pi);
            int a = 0;
            while (a < r && b.cumulativeProbability(a) < 5e-16) {
                a++;
            }
            int z = r;
            while (z > a && 1 - b.cumulativeProbability(z - 1) < 5e-16) {
                z--;
            }
            this.lo = a;
            this.weights = new double[z - a + 1];
            double kept = 0;
            for (int s = a; s <= z; s++) {
                weights[s - a] = b.probability(s);
                kept += weights[s - a];
            }
            this.dropped = Math.max(0.0, 1 - kept) + 1e-15;
        }
    }

    /** {@code (1 - g) N(0, sd^2) + g N(mean, sd^2)}; a single normal when {@code g = 1} or {@code mean = 0}. */
    private static GaussianMixture mixture(double g, double mean, double sd) {
        return g >= 1.0 || mean == 0.0 ? GaussianMixture.single(g >= 1.0 ? mean : 0.0, sd)
                : new GaussianMixture(new double[] {1 - g, g}, new double[][] {{0.0}, {mean}}, sd);
    }

    @Override
    public String name() {
        return name;
    }

    @Override
    public String source() {
        return String.format(Locale.ROOT, "exact profile of the simulated pair (%s): S ~ Binomial(R = %d, %.6g) "
                + "rounds reach the adversary, each K = %d steps of the mixture pair with B/n = %.6g; per step exact "
                + "by numerical integration, K S steps composed by the PLD accountant (pessimistic rounding), mixed "
                + "over S; on or above the pair's true profile by the PLD's discretisation (an independent reference "
                + "measured its trade-off curve up to 1.1e-3 below the true one at T = 38)", p.describe(), p.rounds(),
                p.visibility(), p.localSteps(), p.gamma());
    }

    @Override
    public BoundKind kind() {
        return BoundKind.PAIR_PROFILE;
    }

    @Override
    public double delta(double epsilon) {
        return SafeRounding.upProbability(overSeenRounds(dropped, b -> b.delta(epsilon), 1.0));
    }

    /**
     * The same mixture of the compositions' lower ends ({@link PrivacyBound#deltaLowerEnd}: the PLD's discretisation
     * taken off), without the dropped Binomial mass: a value the pair's exact δ(ε) is at least.
     */
    @Override
    public double deltaLowerEnd(double epsilon) {
        return Math.max(0.0, SafeRounding.down(overSeenRounds(0.0, b -> b.deltaLowerEnd(epsilon), 0.0)));
    }

    /**
     * {@code start + sum_s P(S = s) value(delta_{K s})} over the kept {@code s >= 1} ({@code s = 0} carries nothing),
     * with {@code refused} for a composition the accountant refuses.
     */
    private double overSeenRounds(double start, java.util.function.ToDoubleFunction<PrivacyBound> value,
            double refused) {
        double total = start;
        for (int i = 0; i < weights.length; i++) {
            int s = lo + i;
            if (s == 0) {
                continue;
            }
            double d;
            try {
                d = value.applyAsDouble(steps(s));
            } catch (AccountingLimitException e) {
                d = refused;
            }
            total += weights[i] * d;
        }
        return total;
    }

    private PrivacyBound steps(int s) {
        return composed.computeIfAbsent(s, k -> ProfileComposition.compose(step, k * p.localSteps()));
    }
}

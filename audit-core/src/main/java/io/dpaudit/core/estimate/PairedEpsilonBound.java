package io.dpaudit.core.estimate;

import io.dpaudit.core.Checks;

/**
 * A lower confidence bound on {@code log((P(S) - delta) / Q(S))} for one fixed test {@code S} from coupled trials: each
 * trial runs both worlds on common random numbers ({@link io.dpaudit.core.rng.CommonRandomNumbers}), so each world's
 * indicator of {@code S} has its own law ({@code P(S)} for the flagged world, {@code Q(S)} for the other) while the two
 * are strongly dependent. Sampling error then lives in the trials where the worlds disagree, a small part of those
 * where {@code S} occurs at all, and the bound is far tighter than any bound from independent samples of the same size.
 *
 * <p><b>Setting.</b> {@code n} independent trials, each giving {@code (X, Y)} in {0, 1}^2 ({@code X}: the flagged
 * world's output is in {@code S}). Cell probabilities {@code p11, p10, p01}; {@code P = p11 + p10}, {@code Q = p11 +
 * p01}. Counts: {@code both} trials with {@code X = Y = 1}, {@code flaggedOnly} with {@code X = 1, Y = 0},
 * {@code otherOnly} with {@code X = 0, Y = 1}; {@code D = flaggedOnly + otherOnly} discordant trials.
 *
 * <p><b>The test</b> (McNemar's conditioning, with the nuisance handled as Berger &amp; Boos 1994 do). With
 * {@code d = p10 + p01}, {@code pi = p10 / d} and {@code kappa = p11 / d},
 * {@code H0(r): P - delta <= r Q} is {@code pi <= pi0(r) = (r + (r - 1) kappa + delta / d) / (1 + r)}, increasing in
 * {@code kappa} and decreasing in {@code d} (for {@code r >= 1}). Given {@code D}, {@code flaggedOnly ~ Binomial(D,
 * pi)}; given {@code M = both + D}, {@code both ~ Binomial(M, kappa / (1 + kappa))}; and {@code D ~ Binomial(n, d)}.
 * With the one-sided Clopper–Pearson limits {@code pi_L} (from {@code flaggedOnly} of {@code D}), {@code kappa_U} (from
 * {@code both} of {@code M}, error level {@code g = s a} for a share {@code s} fixed before the counts are seen) and
 * {@code d_L} (from {@code D} of {@code n}, level {@code g_d = }{@link #NUISANCE_SHARE}{@code  a}, needed only when
 * {@code delta > 0}), {@code pi_L} taking the rest of the level ({@code a - g}, or {@code a - g - g_d}),
 * {@code H0(r)} is rejected when {@code pi_L > pi0(r)} evaluated at {@code kappa_U, d_L}: by a union bound the error is
 * at most {@code a}, and solving for {@code r} gives every rejected {@code r} at once,
 * <pre>  r &lt; r_L = (pi_L + kappa_U - delta / d_L) / (1 + kappa_U - pi_L),</pre>
 * so {@code log r_L} (or 0 when {@code r_L <= 1}) is a lower bound on {@code log((P - delta) / Q)} with probability at
 * least {@code 1 - a} — hence on the ε of every {@code (ε, delta)}-DP guarantee the mechanism has.
 *
 * <p><b>The share {@code s}.</b> Where the worlds disagree in both directions, {@code pi} carries the evidence and
 * {@code kappa} enters only through {@code (r - 1) kappa}: a small share is best. Where the coupling is monotone (one
 * world's output is in {@code S} whenever the other's is, as for a Laplace mechanism's tails or sparse vector's first
 * "above"), {@code otherOnly = 0}, {@code pi_L} is nearly 1 at any level, and {@code r_L} is about
 * {@code 1 + 1/kappa_U}: the evidence is in {@code kappa}, and a share near 1 is best. {@link PairedEstimator} chooses
 * {@code s} among {@link #KAPPA_SHARES} on the selection trials, with the test.
 *
 * <p><b>Gain.</b> The bound loses about {@code z sqrt(D) / both} to sampling: for sparse vector Algorithm 1 at 2·10^8
 * coupled trials (P = 0.0239, Q = 0.0219) the discordant trials are a small part of the trials in {@code S}, against
 * {@code z sqrt(1/x + 1/y)} for independent samples ({@link ConditionalEpsilonBound}); measured in
 * {@code docs/zoo-vs-peers.md}.
 *
 * <p><b>The marginal form</b> ({@link #marginalEpsilon}). Where the worlds' outputs never share {@code S}
 * ({@code both = 0}: disjoint supports, as for an output only one world can produce) the pairing carries no evidence,
 * yet {@code kappa_U} still costs its share: with {@code otherOnly} near 0, {@code r_L} is about
 * {@code 1 / (1 - pi_L + kappa_U)}, and {@code kappa_U} (at least {@code log(1/g) / D}) weighs as much as
 * {@code 1 - pi_L} or more (measured: sparse vector Algorithm 5 certified 14.3 paired against 15.18 from independent
 * samples). The marginal form bounds each world apart, {@code log((P_L - delta) / Q_U)} with the Clopper–Pearson
 * limits of {@code P} from {@code both + flaggedOnly} of {@code n} at level {@code (1 - s) a} and of {@code Q} from
 * {@code both + otherOnly} of {@code n} at level {@code s a}: each count is binomial whatever the joint law, so by a
 * union bound it holds with probability at least {@code 1 - a} under any coupling. {@link PairedEstimator} chooses
 * between the forms, and the share {@code s} among {@link #OTHER_SHARES}, on the selection trials.
 *
 * <p>Validity needs only that the trials are independent and identically distributed pairs whose marginals are the
 * two worlds' laws; how strongly the worlds are coupled affects the power alone.
 */
public final class PairedEpsilonBound {
    /** Share of the error level spent on {@code d_L} when δ > 0 (and the smallest share of {@code kappa_U}). */
    public static final double NUISANCE_SHARE = 0.05;
    /** The shares of the error level {@code kappa_U} may take ({@link PairedEstimator} chooses on selection trials). */
    static final double[] KAPPA_SHARES = {NUISANCE_SHARE, 0.5, 0.9};
    /**
     * The shares of the error level the other world's upper limit {@code Q_U} may take in the marginal form: the rarer
     * world's count sets the bound, and it is the other one's where ε is large.
     */
    static final double[] OTHER_SHARES = {0.5, 0.9};

    private PairedEpsilonBound() {
    }

    /**
     * The lower bound on {@code log((P - delta) / Q)}, at least 0, with {@code kappa_U} at share
     * {@link #NUISANCE_SHARE} of the level.
     *
     * @param both trials where both worlds' outputs are in {@code S}
     * @param flaggedOnly trials where only the flagged world's output is
     * @param otherOnly trials where only the other world's output is
     * @param trials coupled trials in all
     * @param delta δ in [0, 1)
     * @param level error level {@code a} in (0, 1)
     */
    public static double epsilon(long both, long flaggedOnly, long otherOnly, long trials, double delta,
            double level) {
        return epsilon(both, flaggedOnly, otherOnly, trials, delta, level, NUISANCE_SHARE);
    }

    /**
     * The lower bound with {@code kappa_U} at share {@code kappaShare} of the level.
     *
     * @param kappaShare in (0, 1 - {@link #NUISANCE_SHARE}) (fixed before the counts are seen)
     */
    public static double epsilon(long both, long flaggedOnly, long otherOnly, long trials, double delta,
            double level, double kappaShare) {
        check(both, flaggedOnly, otherOnly, trials);
        if (!(kappaShare > 0 && kappaShare < 1 - NUISANCE_SHARE)) {
            throw new IllegalArgumentException("kappaShare must be in (0, " + (1 - NUISANCE_SHARE) + "), got "
                    + kappaShare);
        }
        Checks.deltaOrZero("delta", delta);
        if (!(level > 0 && level < 1)) {
            throw new IllegalArgumentException("level must be in (0, 1), got " + level);
        }
        long discordant = flaggedOnly + otherOnly;
        if (flaggedOnly == 0 || discordant == 0) {
            return 0.0;
        }
        double g = kappaShare * level;
        double gd = NUISANCE_SHARE * level;
        double piLevel = delta > 0 ? level - g - gd : level - g;
        double piL = ClopperPearson.lower(flaggedOnly, discordant, piLevel);
        double tU = ClopperPearson.upper(both, both + discordant, g);
        if (!(tU < 1)) {
            return 0.0;
        }
        double kappaU = tU / (1 - tU);
        double numerator = piL + kappaU;
        if (delta > 0) {
            double dL = ClopperPearson.lower(discordant, trials, gd);
            if (!(dL > 0)) {
                return 0.0;
            }
            numerator -= delta / dL;
        }
        double denominator = 1 + kappaU - piL;
        if (!(numerator > denominator)) {
            return 0.0;
        }
        // log(numerator / denominator) as log1p of the small excess, accurate when r_L is near 1
        return Math.log1p((numerator - denominator) / denominator);
    }

    /**
     * The marginal form: {@code log((P_L - delta) / Q_U)}, at least 0, with {@code P_L} the Clopper–Pearson lower limit
     * of {@code P} from {@code both + flaggedOnly} of {@code trials} at error level {@code (1 - otherShare) level}
     * and {@code Q_U} the upper limit of {@code Q} from {@code both + otherOnly} at {@code otherShare level}. Valid
     * under any joint law of the two worlds (a union bound over the two marginal limits).
     *
     * @param otherShare in (0, 1) (fixed before the counts are seen)
     */
    public static double marginalEpsilon(long both, long flaggedOnly, long otherOnly, long trials, double delta,
            double level, double otherShare) {
        check(both, flaggedOnly, otherOnly, trials);
        if (!(otherShare > 0 && otherShare < 1)) {
            throw new IllegalArgumentException("otherShare must be in (0, 1), got " + otherShare);
        }
        Checks.deltaOrZero("delta", delta);
        if (!(level > 0 && level < 1)) {
            throw new IllegalArgumentException("level must be in (0, 1), got " + level);
        }
        if (flaggedOnly == 0) {
            return 0.0; // the flagged world is in S no more often than the other: no evidence
        }
        double pL = ClopperPearson.lower(both + flaggedOnly, trials, (1 - otherShare) * level);
        double qU = ClopperPearson.upper(both + otherOnly, trials, otherShare * level);
        if (!(pL - delta > qU)) {
            return 0.0;
        }
        return Math.log((pL - delta) / qU);
    }

    private static void check(long both, long flaggedOnly, long otherOnly, long trials) {
        if (both < 0 || flaggedOnly < 0 || otherOnly < 0 || both + flaggedOnly + otherOnly > trials) {
            throw new IllegalArgumentException("counts must be non-negative and sum to at most the trials: both "
                    + both + ", flagged only " + flaggedOnly + ", other only " + otherOnly + ", trials " + trials);
        }
    }
}

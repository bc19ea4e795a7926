package io.dpaudit.core.estimate;

import io.dpaudit.core.Checks;

/**
 * A lower confidence bound on {@code P(S) - e^epsilon Q(S)} for one fixed test {@code S} from coupled trials — the δ
 * that {@code S} forces at {@code epsilon} — the δ counterpart of {@link PairedEpsilonBound}, in its two forms.
 *
 * <p><b>The paired form.</b> In {@link PairedEpsilonBound}'s notation ({@code d = p10 + p01}, {@code pi = p10 / d},
 * {@code kappa = p11 / d}),
 * <pre>  P - e^eps Q = p10 - e^eps p01 - (e^eps - 1) p11 = d c,   c = (1 + e^eps) pi - e^eps - (e^eps - 1) kappa.</pre>
 * {@code c} increases in {@code pi} and, for {@code eps >= 0}, decreases in {@code kappa}. With the one-sided
 * Clopper–Pearson limits {@code pi_L} (from {@code flaggedOnly} of {@code D}, the rest of the level),
 * {@code kappa_U} (from {@code both} of {@code both + D}, a share {@code s} of the level {@code a}) and {@code d_L}
 * (from {@code D} of {@code n}, {@link PairedEpsilonBound#NUISANCE_SHARE}{@code  a}), all three hold with probability
 * at least {@code 1 - a} (union bound), and then {@code c >= c_L}; when {@code c_L > 0},
 * {@code P - e^eps Q >= d_L c_L}.
 * The sampling error is that of the discordant trials, about {@code z sqrt(d / n)}, against
 * {@code z (sqrt(P / n) + e^eps sqrt(Q / n))} for the two worlds' own limits: where the worlds rarely disagree, a far
 * smaller δ is resolved.
 *
 * <p><b>The marginal form.</b> {@code P_L - e^eps Q_U}, each world's Clopper–Pearson limit from its own count at
 * shares {@code (1 - s, s)} of the level: valid under any joint law (union bound over the two marginal limits). It is
 * the paired form's fallback where the worlds never share {@code S}.
 *
 * <p>Both are computed without forming {@code e^eps} where it would overflow ({@code eps} up to 1000 and beyond): the
 * products with it go through logarithms, and a term that overflows makes the bound 0, never a wrong positive number.
 */
public final class PairedDeltaBound {

    private PairedDeltaBound() {
    }

    /**
     * The paired form, at least 0.
     *
     * @param both trials where both worlds' outputs are in {@code S}
     * @param flaggedOnly trials where only the flagged world's output is
     * @param otherOnly trials where only the other world's output is
     * @param trials coupled trials in all
     * @param epsilon ε at least 0
     * @param level error level {@code a} in (0, 1)
     * @param kappaShare share of the level for {@code kappa_U}, in (0, 1 - {@link PairedEpsilonBound#NUISANCE_SHARE})
     */
    public static double delta(long both, long flaggedOnly, long otherOnly, long trials, double epsilon, double level,
            double kappaShare) {
        check(both, flaggedOnly, otherOnly, trials, epsilon, level);
        if (!(kappaShare > 0 && kappaShare < 1 - PairedEpsilonBound.NUISANCE_SHARE)) {
            throw new IllegalArgumentException("kappaShare must be in (0, " + (1 - PairedEpsilonBound.NUISANCE_SHARE)
                    + "), got " + kappaShare);
        }
        long discordant = flaggedOnly + otherOnly;
        if (flaggedOnly == 0) {
            return 0.0;
        }
        double g = kappaShare * level;
        double gd = PairedEpsilonBound.NUISANCE_SHARE * level;
        double piL = ClopperPearson.lower(flaggedOnly, discordant, level - g - gd);
        double tU = ClopperPearson.upper(both, both + discordant, g);
        if (!(tU < 1)) {
            return 0.0;
        }
        double kappaU = tU / (1 - tU);
        // c_L = pi_L + kappa_U - e^eps (1 - pi_L + kappa_U), the last term through its logarithm
        double c = piL + kappaU - Math.exp(epsilon + Math.log(1 - piL + kappaU));
        if (!(c > 0)) {
            return 0.0;
        }
        return ClopperPearson.lower(discordant, trials, gd) * c;
    }

    /**
     * The marginal form, at least 0: {@code P_L - e^eps Q_U} with {@code P_L} from {@code both + flaggedOnly} of
     * {@code trials} at level {@code (1 - otherShare) level} and {@code Q_U} from {@code both + otherOnly} at
     * {@code otherShare level}.
     *
     * @param otherShare in (0, 1)
     */
    public static double marginalDelta(long both, long flaggedOnly, long otherOnly, long trials, double epsilon,
            double level, double otherShare) {
        check(both, flaggedOnly, otherOnly, trials, epsilon, level);
        if (!(otherShare > 0 && otherShare < 1)) {
            throw new IllegalArgumentException("otherShare must be in (0, 1), got " + otherShare);
        }
        double pL = ClopperPearson.lower(both + flaggedOnly, trials, (1 - otherShare) * level);
        double qU = ClopperPearson.upper(both + otherOnly, trials, otherShare * level);
        double d = pL - Math.exp(epsilon + Math.log(qU));
        return d > 0 ? d : 0.0;
    }

    private static void check(long both, long flaggedOnly, long otherOnly, long trials, double epsilon, double level) {
        if (both < 0 || flaggedOnly < 0 || otherOnly < 0 || both + flaggedOnly + otherOnly > trials) {
            throw new IllegalArgumentException("counts must be non-negative and sum to at most the trials: both "
                    + both + ", flagged only " + flaggedOnly + ", other only " + otherOnly + ", trials " + trials);
        }
        Checks.nonNegative("epsilon", epsilon);
        if (!(level > 0 && level < 1)) {
            throw new IllegalArgumentException("level must be in (0, 1), got " + level);
        }
    }
}

package io.dpaudit.mechanisms.shuffle;

/**
 * Amplification by shuffling of Feldman, McMillan &amp; Talwar, "Hiding among the clones" (FOCS 2021), Theorem 3.1:
 * {@code n} reports of an {@code eps0}-LDP randomizer (chosen adaptively), uniformly shuffled, are
 * {@code (eps, delta)}-DP under replace-one adjacency. Two forms exist (formula sheet §7):
 * <ul>
 *   <li><b>paper form</b>, valid when {@code eps0 <= log(n / (16 log(2/delta)))}:
 *       {@code eps = log(1 + ((e^eps0 - 1)/(e^eps0 + 1)) (8 sqrt(e^eps0 log(4/delta)) / sqrt(n) + 8 e^eps0 / n))};</li>
 *   <li><b>code form</b> ({@code apple/ml-shuffling-amplification}, {@code closedformanalysis}), with the regime
 *       {@code eps0 <= log(n / (16 log(4/delta)))}: with {@code a = 8 sqrt(e^eps0 log(4/delta)/n)},
 *       {@code c = 8 e^eps0/n} and {@code e~ = log(1 + a + c)},
 *       {@code eps = log(1 + (1 - e^-eps0)/(1 + e^{-eps0 - e~}) (a + c))}, never below the paper form.</li>
 * </ul>
 * Outside the regime both return {@code eps0}, which holds by post-processing (each report is {@code eps0}-LDP and the
 * target's record enters one report). The code form is the recommended one (formula sheet §7: the regime's 2/delta
 * against 4/delta is an open question raised in the code's issue tracker).
 */
public final class Fmt21Shuffling {
    private Fmt21Shuffling() {
    }

    /** The code form; {@code eps0} outside its regime or for {@code n < 1}. */
    public static double codeForm(double eps0, double n, double delta) {
        if (n < 1 || eps0 > Math.log(n / (16 * Math.log(4 / delta)))) {
            return eps0;
        }
        double a = 8 * Math.sqrt(Math.exp(eps0) * Math.log(4 / delta) / n);
        double c = 8 * Math.exp(eps0) / n;
        double tilde = Math.log1p(a + c);
        double frac = -Math.expm1(-eps0) / (1 + Math.exp(-eps0 - tilde));
        return Math.min(eps0, Math.log1p(frac * (a + c)));
    }

    /** The paper form; {@code eps0} outside its regime or for {@code n < 1}. */
    public static double paperForm(double eps0, double n, double delta) {
        if (n < 1 || eps0 > Math.log(n / (16 * Math.log(2 / delta)))) {
            return eps0;
        }
        double frac = Math.tanh(eps0 / 2); // (e^eps0 - 1)/(e^eps0 + 1)
        double inner = 8 * Math.sqrt(Math.exp(eps0) * Math.log(4 / delta)) / Math.sqrt(n) + 8 * Math.exp(eps0) / n;
        return Math.min(eps0, Math.log1p(frac * inner));
    }
}

package io.dpaudit.mechanisms.zoo;

import io.dpaudit.core.blackbox.BlackBoxMechanism;

/**
 * The algorithms black-box DP testers are measured on, as {@link BlackBoxMechanism}s over a vector of query answers
 * (each query of sensitivity 1), written from their published descriptions: StatDP (Ding, Wang, Wang, Zhang &amp;
 * Kifer, CCS 2018) and DP-Sniper (Bichsel et al., IEEE S&amp;P 2021) for report-noisy-max and the noisy histogram,
 * Lyu, Su &amp; Li (PVLDB 2017), Algorithms 1–6, for the sparse vector technique. Outputs use DP-Sniper's encodings so
 * that results can be set beside theirs.
 */
final class ZooAlgorithms {
    private ZooAlgorithms() {
    }

    /** The Laplace mechanism on one query: {@code x_0 + Lap(1/eps)}. ε-DP (Dwork, McSherry, Nissim &amp; Smith 2006). */
    static BlackBoxMechanism<double[]> laplace(double epsilon) {
        double scale = 1 / epsilon;
        return (x, rng) -> new double[] {x[0] + Noise.laplace(rng, scale)};
    }

    /**
     * A noisy histogram: every bin plus Laplace noise of scale {@code scale}. With {@code 1/eps} it is ε-DP under
     * add/remove of one record (one bin changes by 1); StatDP's {@code histogram_eps} bug uses {@code eps} instead.
     */
    static BlackBoxMechanism<double[]> noisyHistogram(double scale) {
        return (x, rng) -> {
            double[] out = new double[x.length];
            for (int i = 0; i < x.length; i++) {
                out[i] = x[i] + Noise.laplace(rng, scale);
            }
            return out;
        };
    }

    /**
     * Report noisy max: each answer plus Laplace or exponential noise of scale {@code 2/eps}; returns the index of the
     * largest (ε-DP: Dwork &amp; Roth 2014, Claim 3.9, and Ding et al. 2021 for exponential noise) or, the classic bug,
     * the largest noisy value itself (not ε-DP; with exponential noise not DP at any ε, since the support moves with
     * the answers).
     */
    static BlackBoxMechanism<double[]> noisyMax(double epsilon, boolean exponential, boolean returnValue) {
        double scale = 2 / epsilon;
        return (x, rng) -> {
            int best = 0;
            double bestValue = Double.NEGATIVE_INFINITY;
            for (int i = 0; i < x.length; i++) {
                double v = x[i] + (exponential ? Noise.exponential(rng, scale) : Noise.laplace(rng, scale));
                if (v > bestValue) {
                    bestValue = v;
                    best = i;
                }
            }
            return new double[] {returnValue ? bestValue : best};
        };
    }

    /** Output code of a query answered "above" (Algorithms 1, 2, 4, 5, 6). */
    static final double TRUE = 1;
    /** Output code of a query answered "below". */
    static final double FALSE = 0;
    /** Output code of a query after the run aborted (Algorithms 1, 2, 4). */
    static final double ABORTED = -1;
    /** Algorithm 3's code for "below" (it outputs the noisy answer when above). */
    static final double FALSE_3 = -1000;
    /** Algorithm 3's code for a query after the run aborted. */
    static final double ABORTED_3 = -2000;

    /**
     * The sparse vector technique, Lyu, Su &amp; Li (2017), Figure 1, with {@code eps1} the threshold's share:
     * <ol>
     *   <li>eps1 = eps/2, threshold noise Lap(1/eps1), query noise Lap(2c/eps2); stops after c "above": ε-DP;</li>
     *   <li>eps1 = eps/2, threshold noise Lap(c/eps1), redrawn after every "above", query noise Lap(2c/eps2): ε-DP;</li>
     *   <li>eps1 = eps/2, query noise Lap(c/eps2), outputs the noisy answer when above: not ε-DP (∞);</li>
     *   <li>eps1 = eps/4, query noise Lap(1/eps2): ((1 + 6c)/4) ε-DP, not ε-DP;</li>
     *   <li>no query noise, no cut-off: not ε-DP (∞);</li>
     *   <li>query noise Lap(1/eps2), no cut-off: not ε-DP (∞).</li>
     * </ol>
     */
    static BlackBoxMechanism<double[]> sparseVector(int variant, double epsilon, int c, double threshold) {
        double eps1 = variant == 4 ? epsilon / 4 : epsilon / 2;
        double eps2 = epsilon - eps1;
        return (x, rng) -> {
            double[] out = new double[x.length];
            double rhoScale = variant == 2 ? c / eps1 : 1 / eps1;
            double rho = Noise.laplace(rng, rhoScale);
            int count = 0;
            boolean aborted = false;
            for (int i = 0; i < x.length; i++) {
                if (aborted) {
                    out[i] = variant == 3 ? ABORTED_3 : ABORTED;
                    continue;
                }
                double nu = switch (variant) {
                    case 1, 2 -> Noise.laplace(rng, 2 * c / eps2);
                    case 3 -> Noise.laplace(rng, c / eps2);
                    case 4, 6 -> Noise.laplace(rng, 1 / eps2);
                    default -> 0; // 5: no noise on the queries
                };
                double noisy = x[i] + nu;
                boolean above = noisy >= threshold + rho;
                if (variant == 3) {
                    out[i] = above ? noisy : FALSE_3;
                } else {
                    out[i] = above ? TRUE : FALSE;
                }
                if (above && variant <= 4) {
                    count++;
                    if (variant == 2) {
                        rho = Noise.laplace(rng, rhoScale);
                    }
                    aborted = count >= c;
                }
            }
            return out;
        };
    }
}

package io.dpaudit.mechanisms.zoo;

import io.dpaudit.core.Checks;
import io.dpaudit.core.InvalidInputException;
import io.dpaudit.core.bounds.BoundKind;
import io.dpaudit.core.bounds.PrivacyBound;
import io.dpaudit.core.model.MechanismType;
import io.dpaudit.core.model.Parameters;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;

/**
 * The zoo's entries in the catalog: {@code laplace}, {@code noisy-histogram}, {@code noisy-max} and
 * {@code sparse-vector}, each on a neighbouring pair given as parameters {@code d} and {@code dPrime} (query answers,
 * comma-separated), audited at the ε its source claims ({@code epsilon}).
 */
public final class ZooMechanisms {
    private static final String STATDP = "Ding, Wang, Wang, Zhang & Kifer, Detecting Violations of Differential "
            + "Privacy (CCS 2018)";
    private static final String LYU = "Lyu, Su & Li, Understanding the Sparse Vector Technique for Differential "
            + "Privacy (PVLDB 2017), Figure 1";

    private ZooMechanisms() {
    }

    /** The four types. */
    public static List<MechanismType> types() {
        return List.of(
                new MechanismType("laplace", "Laplace mechanism on one query: x + Lap(1/epsilon) (black box)",
                        "epsilon > 0, d (0), dPrime (1): the query's answers, |d - dPrime| <= 1",
                        ZooMechanisms::laplace, Map.of()),
                new MechanismType("noisy-histogram", "noisy histogram: every bin + Laplace noise (black box)",
                        "epsilon > 0, scale (inverse: 1/epsilon, correct; epsilon: StatDP's bug), d, dPrime: bin "
                                + "counts, comma-separated, differing by at most 1 in total",
                        ZooMechanisms::noisyHistogram, Map.of()),
                new MechanismType("noisy-max", "report noisy max with Lap or Exp(2/epsilon) noise (black box)",
                        "epsilon > 0, noise (laplace, exponential), output (index: correct; value: the classic bug), "
                                + "d, dPrime: query answers, comma-separated, each differing by at most 1",
                        ZooMechanisms::noisyMax, Map.of()),
                new MechanismType("sparse-vector", "sparse vector technique, Lyu, Su & Li Algorithms 1-6 (black box)",
                        "variant (1..6; 1 and 2 are epsilon-DP), epsilon > 0, c >= 1 (1), threshold (1), d, dPrime: "
                                + "query answers, comma-separated, each differing by at most 1",
                        ZooMechanisms::sparseVector, Map.of()));
    }

    private static ZooMechanism laplace(Parameters p) {
        p.allowOnly(Set.of("type", "epsilon", "d", "dPrime"));
        double eps = epsilon(p);
        double[] d = ZooMechanism.vector(p, "d", new double[] {0});
        double[] dp = ZooMechanism.vector(p, "dPrime", new double[] {1});
        if (d.length != 1 || dp.length != 1) {
            throw new InvalidInputException(p.field(d.length != 1 ? "d" : "dPrime"), ZooMechanism.text(
                    d.length != 1 ? d : dp), "the Laplace mechanism answers one query: give one number");
        }
        componentwise(p, d, dp);
        List<PrivacyBound> bounds = List.of(
                new PureDpBound("laplace-claimed", "epsilon-DP: Laplace mechanism with scale 1/epsilon and "
                        + "sensitivity 1 (Dwork, McSherry, Nissim & Smith 2006)", BoundKind.UPPER_BOUND, eps),
                new LaplacePairProfile(d[0] - dp[0], 1 / eps));
        return new ZooMechanism("laplace", p, "the query's answer changes by at most 1 (sensitivity 1)",
                ZooAlgorithms.laplace(eps), d, dp, 1, String.format(Locale.ROOT, "Laplace mechanism, scale 1/%s",
                        Checks.format(eps)), bounds, List.of());
    }

    private static ZooMechanism noisyHistogram(Parameters p) {
        p.allowOnly(Set.of("type", "epsilon", "scale", "d", "dPrime"));
        double eps = epsilon(p);
        String scale = p.text("scale", "inverse");
        boolean correct = switch (scale) {
            case "inverse" -> true;
            case "epsilon" -> false;
            default -> throw new InvalidInputException(p.field("scale"), scale, "must be inverse or epsilon");
        };
        double[] d = ZooMechanism.vector(p, "d", null);
        double[] dp = ZooMechanism.vector(p, "dPrime", null);
        sameLength(p, d, dp);
        double l1 = 0;
        for (int i = 0; i < d.length; i++) {
            l1 += Math.abs(d[i] - dp[i]);
        }
        if (l1 > 1 + 1e-12) {
            throw new InvalidInputException(p.field("dPrime"), ZooMechanism.text(dp), "differs from d by "
                    + Checks.format(l1) + " in total; neighbouring histograms (one record added or removed) differ "
                    + "by at most 1");
        }
        double noise = correct ? 1 / eps : eps;
        PrivacyBound claimed = new PureDpBound("noisy-histogram-claimed", correct
                ? "epsilon-DP: Laplace noise of scale 1/epsilon per bin, L1 sensitivity 1 (Dwork & Roth 2014, "
                        + "Theorem 3.6)"
                : "claimed epsilon-DP with noise of scale epsilon instead of 1/epsilon: " + STATDP
                        + ", histogram_eps; the histogram is (1/epsilon)-DP, not epsilon-DP",
                correct ? BoundKind.UPPER_BOUND : BoundKind.KNOWN_WRONG, eps);
        List<PrivacyBound> bounds = new ArrayList<>(List.of(claimed));
        if (!correct) {
            bounds.add(new PureDpBound("noisy-histogram-actual", "what the histogram with scale epsilon is: "
                    + "(1/epsilon)-DP (Laplace mechanism with scale epsilon, sensitivity 1)", BoundKind.UPPER_BOUND,
                    1 / eps));
        }
        return new ZooMechanism("noisy-histogram", p, "add/remove one record: one bin changes by 1",
                ZooAlgorithms.noisyHistogram(noise), d, dp, d.length, String.format(Locale.ROOT,
                        "noisy histogram of %d bins, Laplace noise of scale %s%s", d.length, Checks.format(noise),
                        correct ? "" : " (the bug: epsilon instead of 1/epsilon)"), bounds, List.of());
    }

    private static ZooMechanism noisyMax(Parameters p) {
        p.allowOnly(Set.of("type", "epsilon", "noise", "output", "d", "dPrime"));
        double eps = epsilon(p);
        String noise = p.text("noise", "laplace");
        if (!noise.equals("laplace") && !noise.equals("exponential")) {
            throw new InvalidInputException(p.field("noise"), noise, "must be laplace or exponential");
        }
        String output = p.text("output", "index");
        if (!output.equals("index") && !output.equals("value")) {
            throw new InvalidInputException(p.field("output"), output, "must be index or value");
        }
        double[] d = ZooMechanism.vector(p, "d", null);
        double[] dp = ZooMechanism.vector(p, "dPrime", null);
        componentwise(p, d, dp);
        boolean exponential = noise.equals("exponential");
        boolean value = output.equals("value");
        String algorithm = (exponential ? "Exp" : "Lap") + "(2/epsilon) noise, returns the " + output;
        PrivacyBound claimed = new PureDpBound("noisy-max-claimed", value
                ? "claimed epsilon-DP; returning the noisy maximum's value is the classic bug (" + STATDP
                        + ", Algorithms 6 and 8 as DP-Sniper numbers them 3 and 4): "
                        + (exponential ? "not DP at any epsilon (the support moves with the answers)"
                                : "only (k epsilon / 2)-DP for k queries")
                : "epsilon-DP: report noisy max, " + algorithm + " (Dwork & Roth 2014, Claim 3.9"
                        + (exponential ? "; Ding, Kifer, Steinke et al. 2021 for exponential noise" : "") + ")",
                value ? BoundKind.KNOWN_WRONG : BoundKind.UPPER_BOUND, eps);
        List<PrivacyBound> bounds = new ArrayList<>(List.of(claimed));
        if (value && !exponential) {
            bounds.add(new PureDpBound("noisy-max-value-actual", "releasing every noisy answer is (k epsilon/2)-DP "
                    + "(k = " + d.length + " answers, each Lap(2/epsilon), sensitivity 1); the maximum is a "
                    + "post-processing of them", BoundKind.UPPER_BOUND, d.length * eps / 2));
        }
        return new ZooMechanism("noisy-max", p, "every query's answer changes by at most 1 (sensitivity 1)",
                ZooAlgorithms.noisyMax(eps, exponential, value), d, dp, 1, "report noisy max over " + d.length
                        + " queries, " + algorithm, bounds, List.of());
    }

    private static ZooMechanism sparseVector(Parameters p) {
        p.allowOnly(Set.of("type", "variant", "epsilon", "c", "threshold", "d", "dPrime"));
        long variant = p.wholeNumber("variant", 1);
        if (variant > 6) {
            throw new InvalidInputException(p.field("variant"), variant, "must be 1 to 6 (Lyu, Su & Li, Figure 1)");
        }
        double eps = epsilon(p);
        long c = p.wholeNumber("c", 1, 1);
        if (c > MAX_C) {
            throw new InvalidInputException(p.field("c"), c, "must be <= " + MAX_C);
        }
        double t = p.number("threshold", 1.0);
        if (!Double.isFinite(t)) {
            throw new InvalidInputException(p.field("threshold"), t, "must be finite");
        }
        double[] d = ZooMechanism.vector(p, "d", null);
        double[] dp = ZooMechanism.vector(p, "dPrime", null);
        componentwise(p, d, dp);
        int v = (int) variant;
        boolean correct = v == 1 || v == 2;
        String what = switch (v) {
            case 1 -> "epsilon-DP (Lyu et al., Theorem 2)";
            case 2 -> "epsilon-DP (Dwork & Roth 2014, Algorithm 2; Lyu et al. Section 3)";
            case 3 -> "claimed epsilon-DP (Lee & Clifton 2014); it outputs noisy answers and is not DP at any epsilon";
            case 4 -> "claimed epsilon-DP (Stoddard et al. 2014); it is ((1 + 6c)/4) epsilon-DP";
            case 5 -> "claimed epsilon-DP (Chen et al. 2015); no noise on the queries: not DP at any epsilon";
            default -> "claimed epsilon-DP (Chen et al. 2015); no cut-off: not DP at any epsilon";
        };
        List<PrivacyBound> bounds = new ArrayList<>(List.of(new PureDpBound("sparse-vector-claimed", what + "; "
                + LYU + ", Algorithm " + v, correct ? BoundKind.UPPER_BOUND : BoundKind.KNOWN_WRONG, eps)));
        if (v == 4) {
            bounds.add(new PureDpBound("sparse-vector-actual", "Algorithm 4 is ((1 + 6c)/4) epsilon-DP: " + LYU,
                    BoundKind.UPPER_BOUND, (1 + 6 * c) / 4.0 * eps));
        }
        return new ZooMechanism("sparse-vector", p, "every query's answer changes by at most 1 (sensitivity 1)",
                ZooAlgorithms.sparseVector(v, eps, (int) c, t), d, dp, d.length, String.format(Locale.ROOT,
                        "sparse vector technique, Algorithm %d of Lyu, Su & Li, c = %d, threshold %s, %d queries; "
                                + "outputs %s", v, c, Checks.format(t), d.length, v == 3
                                ? "the noisy answer when above, -1000 below, -2000 after the cut-off"
                                : "1 above, 0 below" + (v <= 4 ? ", -1 after the cut-off" : "")), bounds, List.of());
    }

    /** Largest c the sparse vector accepts. */
    static final int MAX_C = 64;

    private static double epsilon(Parameters p) {
        double eps = Checks.positive(p.field("epsilon"), p.number("epsilon"));
        if (eps > 100) {
            throw new InvalidInputException(p.field("epsilon"), eps, "must be <= 100");
        }
        return eps;
    }

    private static void sameLength(Parameters p, double[] d, double[] dp) {
        if (d.length != dp.length) {
            throw new InvalidInputException(p.field("dPrime"), ZooMechanism.text(dp), "has " + dp.length
                    + " entries, d has " + d.length);
        }
    }

    private static void componentwise(Parameters p, double[] d, double[] dp) {
        sameLength(p, d, dp);
        for (int i = 0; i < d.length; i++) {
            if (Math.abs(d[i] - dp[i]) > 1 + 1e-12) {
                throw new InvalidInputException(p.field("dPrime"), ZooMechanism.text(dp), "entry " + (i + 1)
                        + " differs from d's by " + Checks.format(Math.abs(d[i] - dp[i]))
                        + "; with sensitivity 1 neighbouring answers differ by at most 1");
            }
        }
    }
}

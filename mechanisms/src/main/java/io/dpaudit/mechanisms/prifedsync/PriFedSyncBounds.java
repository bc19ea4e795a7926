package io.dpaudit.mechanisms.prifedsync;

import io.dpaudit.core.accounting.Adjacency;
import io.dpaudit.core.accounting.DpEvent;
import io.dpaudit.core.accounting.PldAccountant;
import io.dpaudit.core.accounting.ProfileComposition;
import io.dpaudit.core.bounds.BoundFamily;
import io.dpaudit.core.bounds.BoundKind;
import io.dpaudit.core.bounds.CalibrationParameter;
import io.dpaudit.core.bounds.GaussianBound;
import io.dpaudit.core.bounds.LabelledBound;
import io.dpaudit.core.bounds.PrivacyBound;
import io.dpaudit.core.bounds.TabulatedProfile;
import io.dpaudit.core.fdp.CentralLimitMu;
import io.dpaudit.core.numerics.SafeRounding;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.function.Function;

/**
 * The bounds of PriFedSync (Zheng, Chen, Long &amp; Su, AISTATS 2021, seed 002), each a function of the noise
 * multiplier {@code sigma}:
 *
 * <ul>
 *   <li>{@code prifedsync-exact}: the exact profile of the simulated pair ({@link VisibleRoundsProfile}).</li>
 *   <li>{@code swr-replace-one-pld} (proven): client j's whole transcript of {@code K R} noisy steps, each a
 *       Gaussian of sensitivity {@code 2C} (replace one record: a clipped gradient moves by up to {@code 2C}) and noise
 *       std {@code s} on a batch drawn without replacement, so {@code C_{B/n}(G_{2C/s})} per step (Dong, Roth &amp; Su
 *       2019, the subsampling theorem for sampling without replacement), composed by the PLD accountant; {@code
 *       G_{1/sigma}} under the replace-one noise convention ({@code s = 2 sigma C}), {@code G_{2/sigma}} under
 *       add-remove. It holds for every notion, view, state and pair: what any client sees is computed from that
 *       transcript (adaptively: a persistent model only changes what later gradients are), and client sampling only
 *       helps.</li>
 *   <li>{@code zcls21-thm2-finite}: the seed's Eq. (D.3), {@code C_{B/n}(G_{1/sigma})^{⊗KR}} (weak) and
 *       {@code ⊗(m-1)KR} (strong, Theorem 1's composition over the other clients), as printed. Right under the
 *       replace-one noise convention (then it is the proven bound, or more); refuted under add-remove, where a step is
 *       {@code G_{2/sigma}}.</li>
 *   <li>{@code zcls21-thm1}: Theorem 1 with Lemma 3.8, {@code g^{⊗R}} (weak) and {@code g^{⊗(m-1)R}} (strong),
 *       {@code g = max{f_j, 1 - alpha - p^2}}, {@code f_j = C_{B/n}(G_{1/sigma})^{⊗K}}: per round the profile
 *       {@code min(delta_{f_j}(eps), p^2)} (at least the profile of {@code g}, so the claim checked is at most the
 *       printed one), composed by the PLD accountant. A candidate: it needs fresh rounds (formula sheet §10).</li>
 *   <li>{@code lemma38-tight}: the same with the tight form of Lemma 3.8 (formula sheet §10): per round the pair
 *       {@code (1 - p^2) ⊥ + p^2 P_f} against {@code (1 - p^2) ⊥ + p^2 Q_f}, whose trade-off function is {@code
 *       h(alpha) = p^2 f(alpha/p^2) + 1 - p^2} up to {@code p^2 a*}, {@code 1 - alpha - p^2 TV(f)} to {@code 1 - p^2 +
 *       p^2 a*}, then {@code p^2 f((alpha - 1 + p^2)/p^2)}, and whose profile is exactly {@code p^2 delta_f(eps)}
 *       for {@code eps >= 0}; composed over {@code R} (weak) or {@code (m-1) R} (strong) rounds. Stronger than the
 *       printed Lemma 3.8 (f = G_1, p = 0.5, alpha = 0.1: 0.804 against 0.650), which gives no amplification at
 *       all when {@code p^2 >= TV(f_j)}. A candidate under the same hypothesis of fresh rounds.</li>
 *   <li>{@code zcls21-thm2-clt}: Theorem 2's central-limit {@code mu_j = sqrt(2) (B/n) sqrt(KR) sqrt(e^{1/sigma^2}
 *       Phi(1.5/sigma) + 3 Phi(-0.5/sigma) - 2)} as {@code mu}-GDP (strong: {@code sqrt(m-1) mu_j}): an
 *       approximation, labelled so, and flagged when evaluated far outside its regime.</li>
 * </ul>
 */
final class PriFedSyncBounds {
    private final PriFedSyncParameters s;
    private final PrivacyBound exact;
    private final Map<String, PrivacyBound> fjCache = new ConcurrentHashMap<>();

    PriFedSyncBounds(PriFedSyncParameters s, PrivacyBound exact) {
        this.s = s;
        this.exact = exact;
    }

    List<BoundFamily> families() {
        List<BoundFamily> list = new ArrayList<>();
        list.add(family("prifedsync-exact", "exact profile of the simulated pair",
                p -> p == s ? exact : exact(p)));
        list.add(family("swr-replace-one-pld", "proven: C_{B/n}(G_{2C/s}) per step over K R steps, s the noise std",
                PriFedSyncBounds::proven));
        list.add(family("zcls21-thm2-finite", "Zheng et al. Eq. (D.3) as printed", PriFedSyncBounds::thm2Finite));
        list.add(family("zcls21-thm1", "Zheng et al. Theorem 1 with Lemma 3.8", this::thm1));
        list.add(family("lemma38-tight", "Zheng et al. Theorem 1 with the tight form of Lemma 3.8",
                this::lemma38Tight));
        list.add(family("zcls21-thm2-clt", "Zheng et al. Theorem 2, central-limit mu", PriFedSyncBounds::clt));
        return list;
    }

    private BoundFamily family(String name, String summary, Function<PriFedSyncParameters, PrivacyBound> at) {
        return new BoundFamily(name, summary, CalibrationParameter.SIGMA, s.sigma(),
                v -> at.apply(v == s.sigma() ? s : s.withSigma(v)));
    }

    /** {@code n} steps of a Gaussian sampled without replacement at {@code B/n}, per-step GDP parameter {@code mu}. */
    private static PrivacyBound steps(String name, PriFedSyncParameters p, double mu, long n) {
        return steps(new PldAccountant(), name, p, mu, n);
    }

    private static PrivacyBound steps(PldAccountant accountant, String name, PriFedSyncParameters p, double mu,
            long n) {
        // DpEvent.Gaussian(sigma, clip) under replace-one has mu = 2 clip / sigma.
        DpEvent step = new DpEvent.SampledWithoutReplacement(p.batch(), p.records(),
                new DpEvent.Gaussian(1.0, mu / 2));
        return accountant.account(name, new DpEvent.SelfComposed(step, n), Adjacency.REPLACE_ONE);
    }

    /** The exact profile of the simulated pair: fresh rounds or a persistent global model. */
    static PrivacyBound exact(PriFedSyncParameters p) {
        return p.persistent() ? new PersistentStateProfile("prifedsync-exact", p)
                : new VisibleRoundsProfile("prifedsync-exact", p);
    }

    static PrivacyBound proven(PriFedSyncParameters p) {
        long n = (long) p.localSteps() * p.rounds();
        double mu = 2 / p.noiseScale();
        PrivacyBound b = steps("swr-replace-one-pld", p, mu, n);
        return new LabelledBound("swr-replace-one-pld", BoundKind.UPPER_BOUND, b, String.format(Locale.ROOT,
                "proven: client j's %d noisy steps, each C_{B/n}(G_{%.6g}) (sensitivity 2C under replace-one, noise std "
                        + "%s C, %s convention; batch without replacement; Dong, Roth & Su 2019), composed; every "
                        + "client's view is computed from them: %s", n, mu,
                io.dpaudit.core.Checks.format(p.noiseScale()), p.noiseConvention(), b.source()));
    }

    private static long copies(PriFedSyncParameters p) {
        return p.notion().equals("strong") ? p.clients() - 1L : 1L;
    }

    static PrivacyBound thm2Finite(PriFedSyncParameters p) {
        long n = copies(p) * p.localSteps() * p.rounds();
        PrivacyBound b = steps("zcls21-thm2-finite", p, 1 / p.sigma(), n);
        return new LabelledBound("zcls21-thm2-finite", BoundKind.CANDIDATE, b, String.format(Locale.ROOT,
                "Zheng, Chen, Long & Su (AISTATS 2021), proof of Theorem 2, Eq. (D.3) as printed: "
                        + "C_{B/n}(G_{1/sigma})^{(x)%d}%s — per step G_{1/sigma}: right when the noise std is 2 sigma C "
                        + "(replace-one convention: sensitivity 2C), half the noise it needs under add-remove: %s", n, p.notion().equals("strong")
                        ? " ((m-1) K R: Theorem 1's strong composition)" : " (K R)", b.source()));
    }

    PrivacyBound thm1(PriFedSyncParameters p) {
        long rounds = copies(p) * p.rounds();
        double pe = p.p() * p.p();
        if (pe >= 1) {
            // p = 1: 1 - alpha - p^2 < 0 <= f_j, so g = f_j and g^{(x)R} is C_{B/n}(G_{1/sigma})^{(x)K R} itself.
            PrivacyBound b = steps("zcls21-thm1", p, 1 / p.sigma(), rounds * p.localSteps());
            return new LabelledBound("zcls21-thm1", BoundKind.CANDIDATE, b, String.format(Locale.ROOT,
                    "Zheng et al. Theorem 1 with Lemma 3.8: g_{p,j}^{(x)%d}, g_{p,j} = max{f_j, 1 - alpha - p^2}, "
                            + "f_j = C_{B/n}(G_{1/sigma})^{(x)K} (Lemma D.1 as printed); with p = 1, g = f_j, so "
                            + "C_{B/n}(G_{1/sigma})^{(x)%d}: %s", rounds, rounds * p.localSteps(), b.source()));
        }
        if (rounds > Integer.MAX_VALUE) {
            throw new io.dpaudit.core.InvalidInputException("mechanism.rounds", p.rounds(), "times clients - 1 is "
                    + "too many compositions for Theorem 1's strong bound");
        }
        PrivacyBound tabulated = fj(p);
        PrivacyBound perRound = perRoundProfile("g_{p,j}", "max{f_j, 1 - alpha - p^2} as a profile",
                e -> Math.min(tabulated.delta(e), pe), "max{f_j, 1 - alpha - p^2} as the profile min(delta_f_j, p^2), "
                        + tabulated.source());
        PrivacyBound b = ProfileComposition.compose(perRound, (int) rounds);
        return new LabelledBound("zcls21-thm1", BoundKind.CANDIDATE, b, String.format(Locale.ROOT,
                "Zheng et al. Theorem 1 with Lemma 3.8: g_{p,j}^{(x)%d}, g_{p,j} = max{f_j, 1 - alpha - p^2}, f_j = "
                        + "C_{B/n}(G_{1/sigma})^{(x)K} (Lemma D.1 as printed); per round the profile min(delta_f_j, "
                        + "p^2 = %.6g), which is at least g's, composed by the PLD accountant: %s", rounds, pe,
                b.source()));
    }

    /** A candidate per-round profile {@code delta} named {@code name}, for composition over rounds. */
    private static PrivacyBound perRoundProfile(String name, String source, java.util.function.DoubleUnaryOperator delta,
            String label) {
        return new LabelledBound(name, BoundKind.CANDIDATE, new PrivacyBound() {
            @Override
            public String name() {
                return name;
            }

            @Override
            public String source() {
                return source;
            }

            @Override
            public double delta(double epsilon) {
                return delta.applyAsDouble(epsilon);
            }
        }, label);
    }

    /**
     * {@code f_j = C_{B/n}(G_{1/sigma})^{(x)K}} as a profile: its PLD on a grid of 1e-3, tabulated (each evaluation of
     * the PLD scans it whole) at 2049 points and interpolated linearly in {@code e^eps} — an upper bound, a profile
     * being convex in {@code e^eps}.
     */
    private PrivacyBound fj(PriFedSyncParameters p) {
        // shared by Theorem 1 and lemma38-tight, and by claims that assume the same f_j
        String key = p.batch() + "/" + p.records() + "/" + p.localSteps() + "/" + Double.doubleToLongBits(p.sigma());
        return fjCache.computeIfAbsent(key, k -> tabulateFj(p));
    }

    private static PrivacyBound tabulateFj(PriFedSyncParameters p) {
        PrivacyBound inner = steps(new PldAccountant(1e-3), "f_j", p, 1 / p.sigma(), p.localSteps());
        double maxLoss = 1;
        while (maxLoss < 64 && inner.delta(maxLoss) > 1e-25) {
            maxLoss *= 2;
        }
        return new LabelledBound("f_j", BoundKind.CANDIDATE, new TabulatedProfile(inner, maxLoss, 2048),
                "delta_f_j tabulated at 2049 points of [0, " + maxLoss + "] and interpolated linearly in e^eps (an "
                        + "upper bound: a profile is convex in e^eps)");
    }

    PrivacyBound lemma38Tight(PriFedSyncParameters p) {
        long rounds = copies(p) * p.rounds();
        double pe = p.p() * p.p();
        String what = String.format(Locale.ROOT, "Zheng et al. Theorem 1 with the tight form of Lemma 3.8 (formula "
                + "sheet §10): h^{(x)%d}, h the trade-off function of (1 - p^2) bot + p^2 f_j, f_j = "
                + "C_{B/n}(G_{1/sigma})^{(x)K}, p^2 = %.6g; its profile p^2 delta_f_j(eps)", rounds, pe);
        if (pe >= 1) {
            PrivacyBound b = steps("lemma38-tight", p, 1 / p.sigma(), rounds * p.localSteps());
            return new LabelledBound("lemma38-tight", BoundKind.CANDIDATE, b, what + "; p = 1: h = f_j, so "
                    + "C_{B/n}(G_{1/sigma})^{(x)" + rounds * p.localSteps() + "}: " + b.source());
        }
        if (rounds > Integer.MAX_VALUE) {
            throw new io.dpaudit.core.InvalidInputException("mechanism.rounds", p.rounds(), "times clients - 1 is "
                    + "too many compositions for the strong form of lemma38-tight");
        }
        PrivacyBound tabulated = fj(p);
        PrivacyBound perRound = perRoundProfile("h_{p,j}", "p^2 delta_f_j(eps), the profile of (1 - p^2) bot + p^2 f_j",
                e -> SafeRounding.upProbability(pe * tabulated.delta(e)), "p^2 delta_f_j(eps), the tight Lemma 3.8 per "
                        + "round, " + tabulated.source());
        PrivacyBound b = ProfileComposition.compose(perRound, (int) rounds);
        return new LabelledBound("lemma38-tight", BoundKind.CANDIDATE, b, what + ", composed by the PLD accountant; "
                + "it needs fresh rounds: " + b.source());
    }

    static PrivacyBound clt(PriFedSyncParameters p) {
        double mu = CentralLimitMu.uniform(p.gamma(), p.sigma(), (long) p.localSteps() * p.rounds());
        if (p.notion().equals("strong")) {
            mu *= Math.sqrt(p.clients() - 1.0);
        }
        GaussianBound g = new GaussianBound(mu);
        return new LabelledBound("zcls21-thm2-clt", BoundKind.APPROXIMATION, g, String.format(Locale.ROOT,
                "Zheng et al. Theorem 2, central-limit form: mu_j = sqrt(2) (B/n) sqrt(K R) sqrt(e^{1/sigma^2} "
                        + "Phi(1.5/sigma) + 3 Phi(-0.5/sigma) - 2) = %.6g%s (Dong, Roth & Su 2019, Cor. 5.4): an "
                        + "approximation, not a bound%s", mu, p.notion().equals("strong") ? " times sqrt(m - 1)" : "",
                outsideCltRegime(p, mu)));
    }

    /**
     * A warning when the central-limit form is used far from its limit ({@code B/n -> 0} with {@code (B/n) sqrt(K R)}
     * fixed, over many steps), or empty: fewer than 10 steps, a sampling rate above 0.2, or a {@code mu} above 10
     * (where the claimed curve is all but 0 and says nothing).
     */
    static String outsideCltRegime(PriFedSyncParameters p, double mu) {
        List<String> why = new ArrayList<>();
        long steps = (long) p.localSteps() * p.rounds();
        if (steps < 10) {
            why.add("K R = " + steps + " < 10 steps");
        }
        if (p.gamma() > 0.2) {
            why.add(String.format(Locale.ROOT, "B/n = %.4g > 0.2", p.gamma()));
        }
        if (!(mu <= 10)) {
            why.add(String.format(Locale.ROOT, "mu = %.4g > 10", mu));
        }
        return why.isEmpty() ? "" : "; WARNING: far outside the central limit's regime (" + String.join(", ", why)
                + "), where it may be far from the true curve in either direction";
    }
}

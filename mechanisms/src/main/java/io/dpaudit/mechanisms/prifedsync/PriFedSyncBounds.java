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
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.function.Function;

/**
 * The bounds of PriFedSync (Zheng, Chen, Long &amp; Su, AISTATS 2021, seed 002), each a function of the noise
 * multiplier {@code sigma}:
 *
 * <ul>
 *   <li>{@code prifedsync-exact}: the exact profile of the simulated pair ({@link VisibleRoundsProfile}).</li>
 *   <li>{@code swr-replace-one-pld} (proven): client j's whole transcript of {@code K R} noisy steps, each a
 *       Gaussian of sensitivity {@code 2C} (replace one record: a clipped gradient moves by up to {@code 2C}) on a
 *       batch drawn without replacement, so {@code C_{B/n}(G_{2/sigma})} per step (Dong, Roth &amp; Su 2019, the
 *       subsampling theorem for sampling without replacement), composed by the PLD accountant. It holds for every
 *       notion and view: what any client sees is computed from that transcript, and client sampling only helps.</li>
 *   <li>{@code zcls21-thm2-finite}: the seed's Eq. (D.3), {@code C_{B/n}(G_{1/sigma})^{⊗KR}} (weak) and
 *       {@code ⊗(m-1)KR} (strong, Theorem 1's composition over the other clients), as printed: per step
 *       {@code G_{1/sigma}}, i.e. a clipped gradient moving by at most {@code C}. A candidate: it holds for the
 *       one-sided pair (C against 0) and not, we expect, for the symmetric one.</li>
 *   <li>{@code zcls21-thm1}: Theorem 1 with Lemma 3.8, {@code g^{⊗R}} (weak) and {@code g^{⊗(m-1)R}} (strong),
 *       {@code g = max{f_j, 1 - alpha - p^2}}, {@code f_j = C_{B/n}(G_{1/sigma})^{⊗K}}: per round the profile
 *       {@code min(delta_{f_j}(eps), p^2)} (at least the profile of {@code g}, so the claim checked is at most the
 *       printed one), composed by the PLD accountant. A candidate, like the form it builds on.</li>
 *   <li>{@code zcls21-thm2-clt}: Theorem 2's central-limit {@code mu_j = sqrt(2) (B/n) sqrt(KR) sqrt(e^{1/sigma^2}
 *       Phi(1.5/sigma) + 3 Phi(-0.5/sigma) - 2)} as {@code mu}-GDP (strong: {@code sqrt(m-1) mu_j}): an
 *       approximation, labelled so.</li>
 * </ul>
 */
final class PriFedSyncBounds {
    private final PriFedSyncParameters s;
    private final PrivacyBound exact;

    PriFedSyncBounds(PriFedSyncParameters s, PrivacyBound exact) {
        this.s = s;
        this.exact = exact;
    }

    List<BoundFamily> families() {
        List<BoundFamily> list = new ArrayList<>();
        list.add(family("prifedsync-exact", "exact profile of the simulated pair",
                p -> p == s ? exact : new VisibleRoundsProfile("prifedsync-exact", p)));
        list.add(family("swr-replace-one-pld", "proven: C_{B/n}(G_{2/sigma}) per step over K R steps",
                PriFedSyncBounds::proven));
        list.add(family("zcls21-thm2-finite", "Zheng et al. Eq. (D.3) as printed", PriFedSyncBounds::thm2Finite));
        list.add(family("zcls21-thm1", "Zheng et al. Theorem 1 with Lemma 3.8", PriFedSyncBounds::thm1));
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

    static PrivacyBound proven(PriFedSyncParameters p) {
        long n = (long) p.localSteps() * p.rounds();
        PrivacyBound b = steps("swr-replace-one-pld", p, 2 / p.sigma(), n);
        return new LabelledBound("swr-replace-one-pld", BoundKind.UPPER_BOUND, b, String.format(Locale.ROOT,
                "proven: client j's %d noisy steps, each C_{B/n}(G_{2/sigma}) (sensitivity 2C under replace-one, "
                        + "batch without replacement; Dong, Roth & Su 2019), composed; every client's view is computed "
                        + "from them: %s", n, b.source()));
    }

    private static long copies(PriFedSyncParameters p) {
        return p.notion().equals("strong") ? p.clients() - 1L : 1L;
    }

    static PrivacyBound thm2Finite(PriFedSyncParameters p) {
        long n = copies(p) * p.localSteps() * p.rounds();
        PrivacyBound b = steps("zcls21-thm2-finite", p, 1 / p.sigma(), n);
        return new LabelledBound("zcls21-thm2-finite", BoundKind.CANDIDATE, b, String.format(Locale.ROOT,
                "Zheng, Chen, Long & Su (AISTATS 2021), proof of Theorem 2, Eq. (D.3) as printed: "
                        + "C_{B/n}(G_{1/sigma})^{(x)%d}%s — per step G_{1/sigma}, i.e. sensitivity C, where replace-one "
                        + "of a clipped gradient allows 2C: %s", n, p.notion().equals("strong")
                        ? " ((m-1) K R: Theorem 1's strong composition)" : " (K R)", b.source()));
    }

    static PrivacyBound thm1(PriFedSyncParameters p) {
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
        // f_j's PLD on a grid of 1e-3 (its profile is then tabulated: each evaluation scans the whole PLD).
        PrivacyBound inner = steps(new PldAccountant(1e-3), "f_j", p, 1 / p.sigma(), p.localSteps());
        double maxLoss = 1;
        while (maxLoss < 64 && inner.delta(maxLoss) > 1e-25) {
            maxLoss *= 2;
        }
        PrivacyBound tabulated = new TabulatedProfile(inner, maxLoss, 2048);
        PrivacyBound perRound = new LabelledBound("g_{p,j}", BoundKind.CANDIDATE, new PrivacyBound() {
            @Override
            public String name() {
                return "g_{p,j}";
            }

            @Override
            public String source() {
                return "max{f_j, 1 - alpha - p^2} as a profile";
            }

            @Override
            public double delta(double epsilon) {
                return Math.min(tabulated.delta(epsilon), pe);
            }
        }, "max{f_j, 1 - alpha - p^2} as the profile min(delta_f_j, p^2), delta_f_j tabulated at 2049 points of "
                + "[0, " + maxLoss + "] and interpolated linearly in e^eps (an upper bound: a profile is convex in "
                + "e^eps)");
        PrivacyBound b = ProfileComposition.compose(perRound, (int) rounds);
        return new LabelledBound("zcls21-thm1", BoundKind.CANDIDATE, b, String.format(Locale.ROOT,
                "Zheng et al. Theorem 1 with Lemma 3.8: g_{p,j}^{(x)%d}, g_{p,j} = max{f_j, 1 - alpha - p^2}, f_j = "
                        + "C_{B/n}(G_{1/sigma})^{(x)K} (Lemma D.1 as printed); per round the profile min(delta_f_j, "
                        + "p^2 = %.6g), which is at least g's, composed by the PLD accountant: %s", rounds, pe,
                b.source()));
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
                        + "approximation, not a bound", mu, p.notion().equals("strong") ? " times sqrt(m - 1)" : ""));
    }
}

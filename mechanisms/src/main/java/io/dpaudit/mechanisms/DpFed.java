package io.dpaudit.mechanisms;

import io.dpaudit.core.Checks;
import io.dpaudit.core.InvalidInputException;
import io.dpaudit.core.accounting.AccountantBound;
import io.dpaudit.core.accounting.Adjacency;
import io.dpaudit.core.accounting.DpEvent;
import io.dpaudit.core.accounting.PldAccountant;
import io.dpaudit.core.accounting.PrivacyAccountant;
import io.dpaudit.core.accounting.RdpAccountant;
import io.dpaudit.core.bounds.BoundFamily;
import io.dpaudit.core.bounds.BoundKind;
import io.dpaudit.core.bounds.MixturePairProfile;
import io.dpaudit.core.bounds.PrivacyBound;
import io.dpaudit.core.bounds.SigmaCalibration;
import io.dpaudit.core.model.AuditableMechanism;
import io.dpaudit.core.model.IsotropicGaussianMixture;
import io.dpaudit.core.model.MechanismSimulator;
import io.dpaudit.core.model.Parameters;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Set;
import org.apache.commons.rng.UniformRandomProvider;

/**
 * DP-Fed and DP-Fed-LS (Liang et al., seed 003, Algorithm 1) and their core, the fixed-size subsampled Gaussian. In
 * each of {@code T} rounds the server selects clients — {@code m} of {@code K} uniformly without replacement, or each
 * independently with probability {@code tau} (Poisson) —, every selected client's update is clipped to l2 norm
 * {@code G}, and the server releases {@code c A_s^{-1}(sum of clipped updates + N(0, nu^2 I_D))}: {@code c = 1} and
 * {@code s = 0} for {@code fixed-size-subsampled-gaussian}, {@code c = 1/m} (with {@code m = tau K} for Poisson) for
 * {@code dp-fed} ({@code s = 0}) and {@code dp-fed-ls} ({@code s > 0}, Laplacian smoothing).
 *
 * <p>Adjacency: with uniform selection, replace one client's data (the sum's sensitivity is {@code 2G}); with Poisson
 * selection, add or remove one client (sensitivity {@code G}).
 *
 * <p>The adversary's configuration ({@code others}): {@code replacement} (uniform only, the default) gives every other
 * client the update that replaces the canary's, so that the released sum is a constant plus, in {@code D} only, the
 * difference {@code 2G u} when the canary's client is selected — the worst case we know for replace-one, and the pair
 * {@code (1-gamma) N(0, nu^2) + gamma N(2G, nu^2)} vs {@code N(0, nu^2)} per round; {@code orthogonal} gives the
 * others updates orthogonal to the canary's, so the canary's slot contributes {@code +G u} in {@code D} and
 * {@code -G u} in {@code D'} when selected (the usual configuration for Poisson, where {@code D'} lacks the client).
 *
 * <p>Parameters: {@code clients} K, {@code selected} m or {@code fraction} tau, {@code sampling} ({@code uniform} |
 * {@code poisson}), {@code sigma} = nu (noise standard deviation on the sum, the paper's nu; the paper's sigma is
 * {@code smoothing}), {@code clip} G (1), {@code rounds} T (1), {@code dimension} D (16), {@code smoothing} s
 * ({@code dp-fed-ls} only, default 1), {@code canary} ({@code spike} = e_1 | {@code smooth} = constant unit vector),
 * {@code others}.
 */
public final class DpFed implements AuditableMechanism {
    /** Fixed-size subsampled Gaussian (the sum, uniform selection). */
    public static final String SUBSAMPLED_TYPE = "fixed-size-subsampled-gaussian";
    /** DP-Fed: average of clipped updates plus noise, no smoothing. */
    public static final String DP_FED_TYPE = "dp-fed";
    /** DP-Fed-LS: DP-Fed followed by Laplacian smoothing. */
    public static final String DP_FED_LS_TYPE = "dp-fed-ls";

    /** Largest dimension of the reduced simulator's geometry (computed once). */
    static final int MAX_DIMENSION = 1 << 20;
    /** Name of the bound that recomputes the paper's reported epsilons its own way. */
    static final String PAPER_CONVENTION = "rdp-paper-convention";

    /** How clients are selected. */
    enum Sampling {
        UNIFORM, POISSON
    }

    /** What the other clients hold. */
    enum Others {
        REPLACEMENT, ORTHOGONAL
    }

    private final String type;
    private final Parameters parameters;
    private final int clients;
    private final double expectedSelected;
    private final int selected;
    private final double fraction;
    private final Sampling sampling;
    private final double sigma;
    private final double clip;
    private final int rounds;
    private final int dimension;
    private final double smoothing;
    private final String canary;
    private final Others others;
    private volatile List<PrivacyBound> bounds;
    private volatile DpFedGeometry geometry;

    private DpFed(String type, Parameters parameters, int clients, int selected, double fraction, Sampling sampling,
            double sigma, double clip, int rounds, int dimension, double smoothing, String canary, Others others) {
        this.type = type;
        this.parameters = parameters;
        this.clients = clients;
        this.selected = selected;
        this.fraction = fraction;
        this.expectedSelected = fraction * clients;
        this.sampling = sampling;
        this.sigma = sigma;
        this.clip = clip;
        this.rounds = rounds;
        this.dimension = dimension;
        this.smoothing = smoothing;
        this.canary = canary;
        this.others = others;
    }

    /** Parses {@code fixed-size-subsampled-gaussian}. */
    public static DpFed parseSubsampled(Parameters p) {
        p.allowOnly(Set.of("type", "clients", "selected", "fraction", "sampling", "sigma", "clip", "rounds",
                "dimension", "canary", "others"));
        return parse(SUBSAMPLED_TYPE, p);
    }

    /** Parses {@code dp-fed}. */
    public static DpFed parseDpFed(Parameters p) {
        p.allowOnly(Set.of("type", "clients", "selected", "fraction", "sampling", "sigma", "clip", "rounds",
                "dimension", "canary", "others"));
        return parse(DP_FED_TYPE, p);
    }

    /** Parses {@code dp-fed-ls}. */
    public static DpFed parseDpFedLs(Parameters p) {
        p.allowOnly(Set.of("type", "clients", "selected", "fraction", "sampling", "sigma", "clip", "rounds",
                "dimension", "canary", "others", "smoothing"));
        return parse(DP_FED_LS_TYPE, p);
    }

    private static DpFed parse(String type, Parameters p) {
        long k = p.wholeNumber("clients", 2);
        if (k > 100_000_000L) {
            throw new InvalidInputException(p.field("clients"), k, "must be <= 100000000");
        }
        String samplingText = p.text("sampling", "uniform");
        Sampling sampling = switch (samplingText) {
            case "uniform" -> Sampling.UNIFORM;
            case "poisson" -> Sampling.POISSON;
            default -> throw new InvalidInputException(p.field("sampling"), samplingText,
                    "must be uniform or poisson");
        };
        if (type.equals(SUBSAMPLED_TYPE) && sampling != Sampling.UNIFORM) {
            throw new InvalidInputException(p.field("sampling"), samplingText, "must be uniform for " + SUBSAMPLED_TYPE
                    + " (use poisson-subsampled-gaussian, or dp-fed with sampling = poisson)");
        }
        if (p.has("selected") == p.has("fraction")) {
            throw new InvalidInputException(p.field("selected"), p.has("selected") ? p.number("selected") : "missing",
                    "give exactly one of selected (m) and fraction (tau = m/K)");
        }
        double fraction;
        long m;
        if (p.has("selected")) {
            m = p.wholeNumber("selected", 1);
            if (m > k) {
                throw new InvalidInputException(p.field("selected"), m, "must be <= clients (" + k + ")");
            }
            fraction = (double) m / k;
        } else {
            fraction = Checks.samplingProbability(p.field("fraction"), p.number("fraction"));
            double exact = fraction * k;
            m = Math.round(exact);
            if (sampling == Sampling.UNIFORM && (Math.abs(exact - m) > 1e-9 * Math.max(1, exact) || m < 1)) {
                throw new InvalidInputException(p.field("fraction"), fraction, "times clients = " + Checks.format(exact)
                        + " must be a whole number >= 1 for uniform selection of a fixed number of clients");
            }
        }
        double sigma = Checks.positive(p.field("sigma"), p.number("sigma"));
        double clip = Checks.positive(p.field("clip"), p.number("clip", 1.0));
        long rounds = p.wholeNumber("rounds", 1, 1);
        if (rounds > 100_000) {
            throw new InvalidInputException(p.field("rounds"), rounds, "must be <= 100000");
        }
        long dimension = p.wholeNumber("dimension", 16, 1);
        if (dimension > MAX_DIMENSION) {
            throw new InvalidInputException(p.field("dimension"), dimension, "must be <= " + MAX_DIMENSION);
        }
        double smoothing = 0.0;
        if (type.equals(DP_FED_LS_TYPE)) {
            smoothing = Checks.positive(p.field("smoothing"), p.number("smoothing", 1.0));
        }
        String canary = p.text("canary", "spike");
        if (!canary.equals("spike") && !canary.equals("smooth")) {
            throw new InvalidInputException(p.field("canary"), canary, "must be spike or smooth");
        }
        String othersText = p.text("others", sampling == Sampling.UNIFORM ? "replacement" : "orthogonal");
        Others others = switch (othersText) {
            case "replacement" -> Others.REPLACEMENT;
            case "orthogonal" -> Others.ORTHOGONAL;
            default -> throw new InvalidInputException(p.field("others"), othersText,
                    "must be replacement or orthogonal");
        };
        if (others == Others.REPLACEMENT && sampling == Sampling.POISSON) {
            throw new InvalidInputException(p.field("others"), othersText, "must be orthogonal for Poisson selection "
                    + "(add/remove adjacency has no replacing update)");
        }
        return new DpFed(type, p, (int) k, (int) m, fraction, sampling, sigma, clip, (int) rounds, (int) dimension,
                smoothing, canary, others);
    }

    @Override
    public String type() {
        return type;
    }

    @Override
    public Parameters parameters() {
        return parameters;
    }

    @Override
    public String adjacency() {
        return sampling == Sampling.UNIFORM ? "replace one client's data (sum sensitivity 2G)"
                : "add/remove one client (sum sensitivity G)";
    }

    @Override
    public double sigma() {
        return sigma;
    }

    int clients() {
        return clients;
    }

    /** {@code m}: the number selected (uniform) or {@code round(tau K)} (Poisson, for the faithful simulator). */
    int selected() {
        return selected;
    }

    /** {@code tau}: the probability that a given client is selected in a round. */
    double fraction() {
        return fraction;
    }

    Sampling sampling() {
        return sampling;
    }

    double clip() {
        return clip;
    }

    int rounds() {
        return rounds;
    }

    int dimension() {
        return dimension;
    }

    double smoothingFactor() {
        return smoothing;
    }

    String canaryShape() {
        return canary;
    }

    Others others() {
        return others;
    }

    /** The output scale {@code c}: 1 for the plain sum, {@code 1/m} (expected m for Poisson) for DP-Fed(-LS). */
    double outputScale() {
        return type.equals(SUBSAMPLED_TYPE) ? 1.0 : 1.0 / expectedSelected;
    }

    /** The canary direction and the directions derived from it (computed once). */
    DpFedGeometry geometry() {
        DpFedGeometry g = geometry;
        if (g == null) {
            g = new DpFedGeometry(new LaplacianSmoothing(dimension, smoothing),
                    DpFedGeometry.canary(canary, dimension));
            geometry = g;
        }
        return g;
    }

    /** Contribution of the other selected clients along {@code u} (a constant): {@code -mG} for replacement. */
    double offset() {
        return others == Others.REPLACEMENT ? -selected * clip : 0.0;
    }

    /** Extra contribution along {@code u} when the canary's slot is selected, in {@code D}. */
    double shiftWithCanary() {
        return switch (sampling) {
            case UNIFORM -> others == Others.REPLACEMENT ? 2 * clip : clip;
            case POISSON -> clip;
        };
    }

    /** Extra contribution along {@code u} when the canary's slot is selected, in {@code D'}. */
    double shiftWithoutCanary() {
        return sampling == Sampling.UNIFORM && others == Others.ORTHOGONAL ? -clip : 0.0;
    }

    /**
     * The law of {@code <x, u>}, scaled by {@code scale}: a two-component mixture (selected or not) with noise
     * {@code nu}, in {@code D} ({@code withCanary}) or {@code D'}.
     */
    IsotropicGaussianMixture statisticLaw(boolean withCanary, double scale) {
        double shift = withCanary ? shiftWithCanary() : shiftWithoutCanary();
        double base = offset();
        if (shift == 0.0) {
            return IsotropicGaussianMixture.single(scale * base, scale * sigma);
        }
        return new IsotropicGaussianMixture(new double[] {1 - fraction, fraction},
                new double[][] {{scale * base}, {scale * (base + shift)}}, scale * sigma);
    }

    @Override
    public MechanismSimulator reduced() {
        return new ReducedDpFedSimulator(this);
    }

    @Override
    public MechanismSimulator faithful(Parameters options, UniformRandomProvider datasetRng) {
        options.allowOnly(Set.of("kind", "dimension"));
        if (options.has("dimension")) {
            throw new InvalidInputException(options.field("dimension"), options.number("dimension"),
                    "set the dimension in the mechanism, which both simulators share");
        }
        if (dimension > FaithfulDpFedSimulator.MAX_DIMENSION) {
            throw new InvalidInputException(parameters.field("dimension"), dimension, "must be <= "
                    + FaithfulDpFedSimulator.MAX_DIMENSION + " for the faithful simulator");
        }
        return new FaithfulDpFedSimulator(this, datasetRng);
    }

    @Override
    public List<PrivacyBound> bounds() {
        List<PrivacyBound> b = bounds;
        if (b == null) {
            List<PrivacyBound> list = new ArrayList<>();
            for (BoundFamily f : boundFamilies()) {
                list.add(f.atSigma().apply(sigma));
            }
            list.add(pairProfile());
            b = List.copyOf(list);
            bounds = b;
        }
        return b;
    }

    /**
     * The bounds as functions of nu: the PLD and RDP accountants on the exact event (certified), the paper's lemma
     * and theorem (closed forms, conditions checked), and for uniform selection the accountant under the paper's
     * sensitivity convention (known wrong, kept to explain the paper's numbers).
     */
    @Override
    public List<BoundFamily> boundFamilies() {
        List<BoundFamily> list = new ArrayList<>();
        Adjacency adjacency = sampling == Sampling.UNIFORM ? Adjacency.REPLACE_ONE : Adjacency.ADD_REMOVE;
        list.add(accountantFamily("pld", new PldAccountant(), adjacency));
        list.add(accountantFamily("rdp", new RdpAccountant(), adjacency));
        DpFedClosedForms.Lemma lemma = sampling == Sampling.UNIFORM ? DpFedClosedForms.Lemma.LEMMA_2
                : DpFedClosedForms.Lemma.LEMMA_3;
        DpFedClosedForms.LemmaBound here = lemma(lemma, sigma);
        list.add(new BoundFamily(here.name(), here.source(), s -> lemma(lemma, s),
                (e, d) -> SigmaCalibration.smallestSigmaByScan(s -> lemma(lemma, s), e, d)));
        DpFedClosedForms.Theorem theorem = sampling == Sampling.UNIFORM ? DpFedClosedForms.Theorem.THEOREM_1
                : DpFedClosedForms.Theorem.THEOREM_2;
        DpFedClosedForms.TheoremBound thm = theorem(theorem, sigma);
        list.add(new BoundFamily(thm.name(), thm.source(), s -> theorem(theorem, s),
                (e, d) -> DpFedClosedForms.TheoremBound.calibrate(theorem, fraction, clip, rounds, e, d)));
        list.add(new BoundFamily(PAPER_CONVENTION, "the paper's own accounting (Section 5)", this::paperConvention));
        return list;
    }

    /**
     * The paper's own accounting of its SVHN and Shakespeare epsilons (Section 5, "moment accountants in [44] and
     * [50, 29]"), recomputed: for uniform selection WBK19's Theorem 9 on integer orders 2..256 with the noise
     * multiplier taken with respect to G — sensitivity G, where replace-one gives 2G, so it is not a bound (known
     * wrong); for Poisson selection the sampled Gaussian's RDP on TensorFlow Privacy's orders with noise multiplier
     * nu/G under add/remove, which is valid (only looser than rdp, which also uses the improved conversion). Both
     * convert by Mironov's formula alone.
     */
    PrivacyBound paperConvention(double noise) {
        if (sampling == Sampling.UNIFORM) {
            return new ClassicRdpBound(PAPER_CONVENTION, "; sensitivity G instead of the 2G of replace-one adjacency "
                    + "(event clip G/2): how the paper's uniform-sampling epsilons were computed, not a bound",
                    BoundKind.KNOWN_WRONG, ClassicRdpBound.INTEGER_ORDERS, event(noise, clip / 2),
                    Adjacency.REPLACE_ONE);
        }
        return new ClassicRdpBound(PAPER_CONVENTION, "; how the paper's Poisson-sampling epsilons were computed (a "
                + "valid bound)", BoundKind.UPPER_BOUND, ClassicRdpBound.TF_PRIVACY_ORDERS, event(noise, clip),
                Adjacency.ADD_REMOVE);
    }

    private DpFedClosedForms.LemmaBound lemma(DpFedClosedForms.Lemma lemma, double noise) {
        boolean uniform = sampling == Sampling.UNIFORM;
        return new DpFedClosedForms.LemmaBound(lemma, fraction, noise, uniform ? 2 * clip : clip,
                uniform ? "2G (replace-one)" : "G (add/remove)", rounds);
    }

    private DpFedClosedForms.TheoremBound theorem(DpFedClosedForms.Theorem theorem, double noise) {
        return new DpFedClosedForms.TheoremBound(theorem, fraction, noise, clip, rounds);
    }

    /** The event: T rounds of the sampled Gaussian on updates clipped to {@code eventClip}. */
    private DpEvent event(double noise, double eventClip) {
        DpEvent g = new DpEvent.Gaussian(noise, eventClip);
        DpEvent round = sampling == Sampling.UNIFORM ? new DpEvent.SampledWithoutReplacement(selected, clients, g)
                : new DpEvent.PoissonSampled(fraction, g);
        return new DpEvent.SelfComposed(round, rounds);
    }

    private BoundFamily accountantFamily(String name, PrivacyAccountant accountant, Adjacency adjacency) {
        String source = name + " of " + event(sigma, clip).describe() + ", " + adjacency.description();
        return new BoundFamily(name, source, s -> new AccountantBound(name, accountant, event(s, clip), adjacency));
    }

    /**
     * The exact profile of the simulated pair over T rounds (a lower bound on the worst case; the truth the audit of
     * this configuration approaches). For the replacement configuration and for Poisson selection it is the PLD of a
     * Poisson-subsampled Gaussian (sensitivity {@code 2G}, respectively {@code G}); for the orthogonal uniform
     * configuration the per-round pair of mixtures composed by the PLD accountant.
     */
    PrivacyBound pairProfile() {
        String name = "pair-profile(" + (sampling == Sampling.POISSON ? "poisson"
                : others.name().toLowerCase(Locale.ROOT)) + ")";
        if (shiftWithoutCanary() == 0.0) {
            DpEvent event = new DpEvent.SelfComposed(new DpEvent.PoissonSampled(fraction,
                    new DpEvent.Gaussian(sigma, shiftWithCanary())), rounds);
            AccountantBound pld = new AccountantBound(name, new PldAccountant(), event, Adjacency.ADD_REMOVE);
            String shift = Checks.format(shiftWithCanary());
            return new LabelledBound(name, BoundKind.PAIR_PROFILE, pld, () -> "exact profile of the simulated pair "
                    + "((1-gamma) N(0, nu^2) + gamma N(" + shift + ", nu^2) vs N(0, nu^2) along the canary per round, "
                    + "gamma = " + Checks.format(fraction) + "), both directions: " + pld.source());
        }
        MixturePairProfile perRound = new MixturePairProfile(name, "exact profile of the simulated pair ((1-gamma) "
                + "N(0, nu^2) + gamma N(G, nu^2) vs (1-gamma) N(0, nu^2) + gamma N(-G, nu^2) along the canary per "
                + "round, gamma = " + Checks.format(fraction) + "), both directions, by numerical integration",
                statisticLaw(true, 1.0), statisticLaw(false, 1.0), 1.0);
        return rounds == 1 ? perRound : ComposedProfiles.compose(perRound, rounds);
    }

    @Override
    public List<String> notes() {
        List<String> notes = new ArrayList<>();
        boolean uniform = sampling == Sampling.UNIFORM;
        DpFedClosedForms.LemmaBound lemma = lemma(uniform ? DpFedClosedForms.Lemma.LEMMA_2
                : DpFedClosedForms.Lemma.LEMMA_3, sigma);
        notes.add(lemma.conditions());
        notes.add(theorem(uniform ? DpFedClosedForms.Theorem.THEOREM_1 : DpFedClosedForms.Theorem.THEOREM_2, sigma)
                .conditions());
        if (uniform) {
            notes.add("Replace-one adjacency: one client's clipped update leaves and another arrives, so the sum's "
                    + "sensitivity is 2G (Theorem 1 uses nu^2/(4G^2), i.e. 2G). The paper's uniform-sampling epsilons "
                    + "for SVHN and Shakespeare match WBK19's Theorem 9 with sensitivity G instead (integer orders, "
                    + "Mironov's conversion): rdp-paper-convention recomputes them and is not a bound; rdp is the "
                    + "same accountant with 2G (and the improved conversion).");
            notes.add("pld for sampling without replacement is certified but not tight: it composes the symmetric "
                    + "profile gamma * delta_G(log(1 + (e^eps - 1)/gamma)) of BBG18's advanced joint convexity "
                    + "(Theorem 10; up to ~15% above the attained pair at T = 200).");
        } else {
            notes.add("Poisson selection, add/remove adjacency: the sum's sensitivity is G; lemma-3 uses G, while "
                    + "Theorem 2 as printed uses nu^2/(4G^2) (sensitivity 2G), which is conservative. The paper's "
                    + "Poisson epsilons are the RDP accountant with noise multiplier nu/G under add/remove on TensorFlow "
                    + "Privacy's orders with Mironov's conversion (rdp-paper-convention, valid); rdp adds the improved "
                    + "conversion and is slightly smaller.");
        }
        if (lemma.applicable() && !uniform) {
            notes.add("Lemma 3's proof uses e^{1/nu^2} <= 3.5/nu^2 (Eq. 15), false for nu^2 > ~2.25; the lemma itself "
                    + "held against the exact RDP at every integer order we checked (tests).");
        }
        if (smoothing > 0) {
            notes.add(String.format(Locale.ROOT, "Laplacian smoothing A_s^{-1} (s = %s, periodic chain, Eq. 2) is "
                    + "invertible post-processing: every bound above is the one for s = 0, and the exact "
                    + "likelihood-ratio attack, which undoes it, loses nothing.", Checks.format(smoothing)));
        }
        return notes;
    }
}

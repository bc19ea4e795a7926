package io.dpaudit.mechanisms;

import io.dpaudit.core.Checks;
import io.dpaudit.core.InvalidInputException;
import io.dpaudit.core.bounds.BoundFamily;
import io.dpaudit.core.bounds.BoundKind;
import io.dpaudit.core.bounds.MixturePairProfile;
import io.dpaudit.core.bounds.PrivacyBound;
import io.dpaudit.core.model.AuditableMechanism;
import io.dpaudit.core.model.IsotropicGaussianMixture;
import io.dpaudit.core.model.MechanismSimulator;
import io.dpaudit.core.model.Parameters;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Set;
import java.util.function.DoubleFunction;
import org.apache.commons.rng.UniformRandomProvider;

/**
 * Random participation in federated learning (Hasircioğlu &amp; Gündüz, seed 000, Algorithm 1): every client takes part
 * in a round with probability {@code p}, a taking-part client Poisson-samples each of its {@code d} records with
 * probability {@code q}, per-record gradients are clipped to {@code clip} and the server adds {@code N(0, sigma^2 I)}
 * to the sum. Neighbouring datasets differ by one record {@code x'} of client 1 (add/remove).
 *
 * <p>Parameters: {@code p, q in (0, 1]}, {@code d >= 0} (client 1's other records), {@code sigma > 0},
 * {@code clip > 0} (default 1), {@code rounds >= 1} (default 1), {@code adversary} ({@code aligned} — Eq. 27's
 * configuration, default —, {@code orthogonal} or {@code zero}), {@code variant} ({@code random-participation}
 * (default), {@code reveal-participation} = WCS, {@code only-local-sampling} = OLS with {@code p = 1},
 * {@code central-shuffling} = CS), and for the faithful simulator {@code clients} and {@code dimension} (simulator
 * options).
 */
public final class RandomParticipation implements AuditableMechanism {
    /** Type name. */
    public static final String TYPE = "random-participation";

    private final Parameters parameters;
    private final double p;
    private final double q;
    private final int d;
    private final double sigma;
    private final double clip;
    private final int rounds;
    private final Adversary adversary;
    private final ParticipationVariant variant;
    private volatile ParticipationLaw law;
    private volatile List<PrivacyBound> bounds;

    private RandomParticipation(Parameters parameters, double p, double q, int d, double sigma, double clip,
            int rounds, Adversary adversary, ParticipationVariant variant) {
        this.parameters = parameters;
        this.p = p;
        this.q = q;
        this.d = d;
        this.sigma = sigma;
        this.clip = clip;
        this.rounds = rounds;
        this.adversary = adversary;
        this.variant = variant;
    }

    /** Parses and validates the parameters. */
    public static RandomParticipation parse(Parameters p) {
        p.allowOnly(Set.of("type", "p", "q", "d", "sigma", "clip", "rounds", "adversary", "variant", "clients"));
        ParticipationVariant variant = ParticipationVariant.parse(p.field("variant"),
                p.text("variant", ParticipationVariant.RANDOM_PARTICIPATION.label()));
        double join = variant == ParticipationVariant.ONLY_LOCAL_SAMPLING
                ? Checks.samplingProbability(p.field("p"), p.number("p", 1.0))
                : Checks.samplingProbability(p.field("p"), p.number("p"));
        if (variant == ParticipationVariant.ONLY_LOCAL_SAMPLING && join != 1.0) {
            throw new InvalidInputException(p.field("p"), join, "must be 1 for only-local-sampling (every client takes "
                    + "part)");
        }
        double q = Checks.samplingProbability(p.field("q"), p.number("q"));
        long d = p.wholeNumber("d", 0);
        if (d > 100_000) {
            throw new InvalidInputException(p.field("d"), d, "must be <= 100000");
        }
        double sigma = Checks.positive(p.field("sigma"), p.number("sigma"));
        double clip = Checks.positive(p.field("clip"), p.number("clip", 1.0));
        long rounds = p.wholeNumber("rounds", 1, 1);
        if (rounds > 100_000) {
            throw new InvalidInputException(p.field("rounds"), rounds, "must be <= 100000");
        }
        Adversary adversary = Adversary.parse(p.field("adversary"), p.text("adversary", Adversary.ALIGNED.label()));
        if (p.has("clients")) {
            p.wholeNumber("clients", 1);
        }
        return new RandomParticipation(p, join, q, (int) d, sigma, clip, (int) rounds, adversary, variant);
    }

    @Override
    public String type() {
        return TYPE;
    }

    @Override
    public Parameters parameters() {
        return parameters;
    }

    @Override
    public String adjacency() {
        return "add/remove one record of client 1";
    }

    @Override
    public double sigma() {
        return sigma;
    }

    double p() {
        return p;
    }

    double q() {
        return q;
    }

    int d() {
        return d;
    }

    double clip() {
        return clip;
    }

    int rounds() {
        return rounds;
    }

    Adversary adversary() {
        return adversary;
    }

    ParticipationVariant variant() {
        return variant;
    }

    /** Probability that client 1 takes part in a round, as sampled (1 for OLS and CS). */
    double samplingJoinProbability() {
        return variant == ParticipationVariant.ONLY_LOCAL_SAMPLING || variant == ParticipationVariant.CENTRAL_SHUFFLING
                ? 1.0 : p;
    }

    /** Probability that one of client 1's records is sampled given that it takes part (pq for CS). */
    double samplingRecordProbability() {
        return variant == ParticipationVariant.CENTRAL_SHUFFLING ? p * q : q;
    }

    /** Probability of the event outside which the two worlds do not differ at all (p for WCS, else 1). */
    private double scale() {
        return variant == ParticipationVariant.REVEAL_PARTICIPATION ? p : 1.0;
    }

    /** The law of the statistic for this configuration (given participation, for WCS). */
    ParticipationLaw law() {
        ParticipationLaw l = law;
        if (l == null) {
            l = lawOf(adversary);
            law = l;
        }
        return l;
    }

    private ParticipationLaw lawOf(Adversary a) {
        double j = variant == ParticipationVariant.REVEAL_PARTICIPATION ? 1.0 : samplingJoinProbability();
        return new ParticipationLaw(a, j, samplingRecordProbability(), d, sigma, clip);
    }

    @Override
    public MechanismSimulator reduced() {
        return new ReducedParticipationSimulator(this);
    }

    @Override
    public MechanismSimulator faithful(Parameters options, UniformRandomProvider datasetRng) {
        options.allowOnly(Set.of("kind", "clients", "dimension"));
        long clients = options.wholeNumber("clients", parameters.has("clients")
                ? (long) parameters.number("clients") : 8, 1);
        long dimension = options.wholeNumber("dimension", 4, 3);
        if (clients * Math.max(1, d) > 10_000_000L || dimension > 4096) {
            throw new InvalidInputException("simulator", clients + " clients x " + d + " records, dimension "
                    + dimension, "too large for the faithful simulator");
        }
        return new FaithfulParticipationSimulator(this, (int) clients, (int) dimension, datasetRng);
    }

    /** The exact one-round profile of an adversary configuration (a lower bound on the worst case). */
    PrivacyBound exactProfile(Adversary a) {
        ParticipationLaw l = a == adversary ? law() : lawOf(a);
        String name = "exact(" + a.label() + ")";
        String source = String.format(Locale.ROOT, "exact privacy profile of the %s configuration (%s), both "
                + "directions, by numerical integration of the Gaussian mixtures", a.label(), variant.label());
        if (a != Adversary.ORTHOGONAL) {
            return new MixturePairProfile(name, source, l.withCanary, l.withoutCanary, scale());
        }
        // Split D's law into unshifted (u = 0) and shifted (u = C) parts, as laws of v.
        return shifted(name, source, l.withCanary, l.withoutCanary);
    }

    private PrivacyBound shifted(String name, String source, IsotropicGaussianMixture with,
            IsotropicGaussianMixture without) {
        List<double[]> a = new ArrayList<>();
        List<double[]> b = new ArrayList<>();
        for (int i = 0; i < with.components(); i++) {
            (with.mean(i, 0) == 0 ? a : b).add(new double[] {with.weight(i), with.mean(i, 1)});
        }
        double ta = a.stream().mapToDouble(x -> x[0]).sum();
        double tb = b.stream().mapToDouble(x -> x[0]).sum();
        double[] wg = new double[without.components()];
        double[][] mg = new double[without.components()][1];
        for (int i = 0; i < wg.length; i++) {
            wg[i] = without.weight(i);
            mg[i][0] = without.mean(i, 1);
        }
        return new ShiftedMixtureProfile(name, source, oneD(a, ta), ta, oneD(b, tb), tb,
                new IsotropicGaussianMixture(wg, mg, sigma), clip, scale());
    }

    private IsotropicGaussianMixture oneD(List<double[]> parts, double total) {
        double[] w = new double[parts.size()];
        double[][] m = new double[parts.size()][1];
        for (int i = 0; i < w.length; i++) {
            w[i] = parts.get(i)[0] / total;
            m[i][0] = parts.get(i)[1];
        }
        return new IsotropicGaussianMixture(w, m, sigma);
    }

    @Override
    public List<PrivacyBound> bounds() {
        List<PrivacyBound> b = bounds;
        if (b == null) {
            List<PrivacyBound> list = new ArrayList<>();
            for (BoundFamily f : boundFamilies()) {
                list.add(f.atSigma().apply(sigma));
            }
            for (Adversary a : Adversary.values()) {
                list.add(rounds == 1 ? exactProfile(a) : composed(exactProfile(a)));
            }
            b = List.copyOf(list);
            bounds = b;
        }
        return b;
    }

    /**
     * The paper's bounds that apply to this variant, as functions of sigma (one round; for several rounds each
     * per-round profile composed by the PLD accountant, named {@code pld(...)}).
     */
    @Override
    public List<BoundFamily> boundFamilies() {
        List<BoundFamily> list = new ArrayList<>();
        switch (variant) {
            case RANDOM_PARTICIPATION, ONLY_LOCAL_SAMPLING -> {
                list.add(family(s -> RandomParticipationBounds.theorem41(p, q, d, s, clip)));
                if (variant == ParticipationVariant.RANDOM_PARTICIPATION) {
                    list.add(family(s -> RandomParticipationBounds.wcs(p, q, s, clip)));
                }
                list.add(family(s -> RandomParticipationBounds.ols(q, s, clip)));
                if (variant == ParticipationVariant.RANDOM_PARTICIPATION) {
                    list.add(family(s -> RandomParticipationBounds.cs(p, q, s, clip, BoundKind.PAIR_PROFILE)));
                }
                list.add(family(s -> RandomParticipationBounds.olsAsPrinted(q, s, clip)));
            }
            case REVEAL_PARTICIPATION -> {
                list.add(family(s -> RandomParticipationBounds.wcs(p, q, s, clip)));
                list.add(family(s -> RandomParticipationBounds.ols(q, s, clip)));
                list.add(family(s -> RandomParticipationBounds.olsAsPrinted(q, s, clip)));
            }
            case CENTRAL_SHUFFLING -> {
                list.add(family(s -> RandomParticipationBounds.cs(p, q, s, clip, BoundKind.UPPER_BOUND)));
                list.add(family(s -> RandomParticipationBounds.csAsPrinted(q, s, clip)));
            }
        }
        return list;
    }

    private BoundFamily family(DoubleFunction<PrivacyBound> perRound) {
        PrivacyBound here = perRound.apply(sigma);
        if (rounds == 1) {
            return new BoundFamily(here.name(), here.source(), perRound);
        }
        PrivacyBound composedHere = composed(here);
        return new BoundFamily(composedHere.name(), composedHere.source(), s -> composed(perRound.apply(s)));
    }

    /** A per-round profile composed over the rounds by the PLD accountant (see {@link ComposedProfiles}). */
    private PrivacyBound composed(PrivacyBound perRound) {
        return ComposedProfiles.compose(perRound, rounds);
    }
}

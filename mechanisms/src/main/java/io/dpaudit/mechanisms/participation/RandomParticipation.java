package io.dpaudit.mechanisms.participation;

import io.dpaudit.core.InvalidInputException;
import io.dpaudit.core.accounting.ProfileComposition;
import io.dpaudit.core.bounds.BoundFamily;
import io.dpaudit.core.bounds.CalibrationParameter;
import io.dpaudit.core.bounds.BoundKind;
import io.dpaudit.core.bounds.MixturePairProfile;
import io.dpaudit.core.bounds.PrivacyBound;
import io.dpaudit.core.bounds.ShiftedMixtureProfile;
import io.dpaudit.core.model.AuditableMechanism;
import io.dpaudit.core.law.GaussianMixture;
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
    private final Parameters parameters;
    private final ParticipationParameters rp;

    RandomParticipation(Parameters parameters, ParticipationParameters rp) {
        this.parameters = parameters;
        this.rp = rp;
    }

    /** The rounds of participation and noise. */
    @Override
    public long roundsPerTrial() {
        return rp.rounds();
    }

    @Override
    public String type() {
        return ParticipationParameters.TYPE;
    }

    @Override
    public Parameters parameters() {
        return parameters;
    }

    /** The validated parameters. */
    public ParticipationParameters participationParameters() {
        return rp;
    }

    @Override
    public String adjacency() {
        return "add/remove one record of client 1";
    }

    @Override
    public MechanismSimulator reduced() {
        return ReducedParticipationSimulator.of(rp);
    }

    @Override
    public MechanismSimulator faithful(Parameters options, UniformRandomProvider datasetRng) {
        options.allowOnly(Set.of("kind", "clients", "dimension"));
        long clients = options.wholeNumber("clients", rp.clients(), 1);
        long dimension = options.wholeNumber("dimension", 4, 3);
        if (clients * Math.max(1, rp.d()) > 10_000_000L || dimension > 4096) {
            throw new InvalidInputException("simulator", clients + " clients x " + rp.d() + " records, dimension "
                    + dimension, "too large for the faithful simulator");
        }
        return FaithfulParticipationSimulator.of(rp, (int) clients, (int) dimension, datasetRng);
    }

    /** The exact one-round profile of an adversary configuration (a lower bound on the worst case). */
    PrivacyBound exactProfile(Adversary a) {
        ParticipationLaw l = rp.law(a);
        String name = "exact(" + a.label() + ")";
        String source = String.format(Locale.ROOT, "exact privacy profile of the %s configuration (%s), both "
                + "directions, by numerical integration of the Gaussian mixtures", a.label(), rp.variant().label());
        if (a != Adversary.ORTHOGONAL) {
            return new MixturePairProfile(name, source, l.withCanary, l.withoutCanary, rp.scale());
        }
        // Split D's law into unshifted (u = 0) and shifted (u = C) parts, as laws of v.
        return shifted(name, source, l.withCanary, l.withoutCanary);
    }

    private PrivacyBound shifted(String name, String source, GaussianMixture with,
            GaussianMixture without) {
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
                new GaussianMixture(wg, mg, rp.sigma()), rp.clip(), rp.scale());
    }

    /** The normalised law of v over {@code parts}; null when there are none (p = q = 1: always included). */
    private GaussianMixture oneD(List<double[]> parts, double total) {
        if (parts.isEmpty()) {
            return null;
        }
        double[] w = new double[parts.size()];
        double[][] m = new double[parts.size()][1];
        for (int i = 0; i < w.length; i++) {
            w[i] = parts.get(i)[0] / total;
            m[i][0] = parts.get(i)[1];
        }
        return new GaussianMixture(w, m, rp.sigma());
    }

    /**
     * The exact profile of the configuration the simulators draw ({@code exact(ADVERSARY)}, or its composition
     * {@code pld(exact(ADVERSARY))} over several rounds): the curve reports measure looseness against. Without it they
     * would fall back to the first pair profile, Corollary 5.3's zero-gradient configuration, which is the simulated
     * pair only for {@code adversary: zero}.
     */
    @Override
    public String referenceBound() {
        String name = "exact(" + rp.adversary().label() + ")";
        return rp.rounds() == 1 ? name : "pld(" + name + ")";
    }

    /** The exact profile of every adversary configuration (composed over the rounds by the PLD accountant). */
    @Override
    public List<PrivacyBound> otherBounds() {
        List<PrivacyBound> list = new ArrayList<>();
        for (Adversary a : Adversary.values()) {
            list.add(rp.rounds() == 1 ? exactProfile(a) : ProfileComposition.compose(exactProfile(a), rp.rounds()));
        }
        return list;
    }

    /**
     * The paper's bounds that apply to this variant, as functions of sigma (one round; for several rounds each
     * per-round profile composed by the PLD accountant, named {@code pld(...)}).
     */
    @Override
    public List<BoundFamily> boundFamilies() {
        double p = rp.p();
        double q = rp.q();
        int d = rp.d();
        double clip = rp.clip();
        List<BoundFamily> list = new ArrayList<>();
        switch (rp.variant()) {
            case RANDOM_PARTICIPATION, ONLY_LOCAL_SAMPLING -> {
                list.add(family(s -> RandomParticipationBounds.theorem41(p, q, d, s, clip)));
                if (rp.variant() == ParticipationVariant.RANDOM_PARTICIPATION) {
                    list.add(family(s -> RandomParticipationBounds.wcs(p, q, s, clip)));
                }
                list.add(family(s -> RandomParticipationBounds.ols(q, s, clip)));
                if (rp.variant() == ParticipationVariant.RANDOM_PARTICIPATION) {
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

    /** A per-round family, composed over the rounds by the PLD accountant when there are several. */
    private BoundFamily family(DoubleFunction<PrivacyBound> perRound) {
        double sigma = rp.sigma();
        int rounds = rp.rounds();
        PrivacyBound here = perRound.apply(sigma);
        if (rounds == 1) {
            return new BoundFamily(here.name(), here.source(), CalibrationParameter.SIGMA, sigma, perRound);
        }
        String name = "pld(" + here.name() + ")";
        String source = "per-round bound composed over " + rounds + " rounds by the PLD accountant; per round: "
                + here.source();
        return new BoundFamily(name, source, CalibrationParameter.SIGMA, sigma,
                s -> ProfileComposition.compose(perRound.apply(s), rounds));
    }
}
